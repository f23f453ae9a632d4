/** The one table the bench prints, and the same figures as JSON under bench/results/. */
import { round } from './stats';

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

export type FigureSink = ReturnType<typeof figureSink>;

/** Adds figures to `figures`, their values rounded to 2 decimals. */
export function figureSink(figures: Figure[]) {
  return {
    /** A figure shown for reference, without a target. */
    info: (bench: string, figure: string, value: number, unit = '') =>
      figures.push({ bench, figure, value: round(value, 2), unit, target: '' }),
    /** A figure with its target and whether it was met. */
    check: (
      bench: string,
      figure: string,
      value: number,
      unit: string,
      target: string,
      pass: boolean,
    ) => figures.push({ bench, figure, value: round(value, 2), unit, target, pass }),
  };
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
