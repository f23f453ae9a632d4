/** Small statistics helpers: nearest-rank percentiles over raw samples. */

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** The p-th percentile (0-100) of the samples, nearest rank; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((s, x) => s + x, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export function median(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

export const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface MeanAndError {
  mean: number;
  standardError: number;
}

/** The mean of samples and its standard error (the samples' standard deviation over √n). */
export function meanAndError(xs: readonly number[]): MeanAndError {
  const n = xs.length;
  const mean = xs.reduce((x, y) => x + y, 0) / n;
  const variance = xs.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(1, n - 1);
  return { mean, standardError: Math.sqrt(variance / n) };
}
