/** Days for the 30-day pictures: keys, labels and counting by day (pure, tested). */

/** The last `n` days ending with the day of `now`, oldest first, as local YYYY-MM-DD. */
export function lastDays(n: number, now = new Date()): string[] {
  const days: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i);
    days.push(localDay(d));
  }
  return days;
}

/** The local calendar day of a moment, YYYY-MM-DD. */
export function localDay(d: Date): string {
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** How many of `moments` (ISO times) fall on each of `days` (local), in the order of `days`. */
export function countByDay(moments: readonly string[], days: readonly string[]): number[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const counts = days.map(() => 0);
  for (const m of moments) {
    const i = index.get(localDay(new Date(m)));
    if (i !== undefined) counts[i] = counts[i]! + 1;
  }
  return counts;
}

/** '12 Nov' for 2026-11-12 (the day itself, whatever the time zone). */
export function shortDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/** One sentence for a screen reader: the total, and the busiest day. */
export function describeSeries(label: string, days: readonly string[], values: readonly number[]) {
  const total = values.reduce((a, b) => a + b, 0);
  if (total === 0) return `${label}: none in the last ${days.length} days.`;
  let top = 0;
  values.forEach((v, i) => {
    if (v > values[top]!) top = i;
  });
  return `${label}: ${total} in the last ${days.length} days, most on ${shortDay(days[top]!)} (${values[top]}).`;
}
