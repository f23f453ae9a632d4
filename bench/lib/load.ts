/**
 * One autocannon run (as a library) with exact latencies: every response time (ms, fractional)
 * is kept from the 'response' event, so percentiles are not rounded to whole milliseconds.
 */
import autocannon from 'autocannon';
import { summarise } from './stats';

export interface LoadResult {
  /** Completed requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCounts: Record<string, number>;
  durationS: number;
  /** Requests/s and p99 per 10 s of the run, to see whether it drifted. */
  windows: { fromS: number; rps: number; p99: number }[];
}

const WINDOW_MS = 10_000;

export type LoadRequest = autocannon.Request;

export async function runLoad(opts: {
  url: string;
  connections: number;
  durationS: number;
  /** Requests per second across all connections (fixed-rate runs). */
  overallRate?: number;
  /** Builds each request; `context` is per connection and reaches onResponse for the answer. */
  setupRequest: (req: LoadRequest, context: Record<string, unknown>) => LoadRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const byWindow: number[][] = [];
  const t0 = performance.now();
  const statusCounts: Record<string, number> = {};
  const request: LoadRequest = {
    setupRequest: (req, context) => opts.setupRequest(req, context as Record<string, unknown>),
  };
  if (opts.onResponse) {
    const cb = opts.onResponse;
    request.onResponse = (status, body, context) =>
      cb(status, body, context as Record<string, unknown>);
  }
  let done!: (r: autocannon.Result) => void;
  let failed!: (err: unknown) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: opts.url,
      connections: opts.connections,
      duration: opts.durationS,
      timeout: 10,
      ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
      requests: [request],
    },
    (err, result) => (err ? failed(err) : done(result)),
  );
  instance.on('response', (_client, status, _bytes, responseTime) => {
    latencies.push(responseTime);
    const w = Math.floor((performance.now() - t0) / WINDOW_MS);
    (byWindow[w] ??= []).push(responseTime);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  });
  const result = await finished;
  const s = summarise(latencies);
  const durationS = (result.finish.getTime() - result.start.getTime()) / 1000;
  return {
    rps: latencies.length / durationS,
    p50: s.p50,
    p99: s.p99,
    max: s.max,
    requests: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCounts,
    durationS,
    windows: byWindow.map((w, i) => ({
      fromS: (i * WINDOW_MS) / 1000,
      rps: w.length / Math.min(WINDOW_MS / 1000, durationS - (i * WINDOW_MS) / 1000),
      p99: summarise(w).p99,
    })),
  };
}
