/** The one table the bench prints, and the same figures as JSON under bench/results/. */

export interface Figure {
  /** Which benchmark (1-4) it belongs to. */
  bench: string;
  figure: string;
  value: number;
  unit: string;
  /** Human text of the target, or '' for a reference figure. */
  target: string;
  /** undefined for a reference figure without a target. */
  pass?: boolean;
}

const fmt = (v: number, unit: string) => {
  if (!Number.isFinite(v)) return String(v);
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
};

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => [
    f.bench,
    f.figure,
    fmt(f.value, f.unit),
    f.target || '–',
    f.pass === undefined ? '' : f.pass ? 'pass' : 'FAIL',
  ]);
  const head = ['#', 'figure', 'value', 'target', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
