/**
 * 1. Ping send over HTTP, next to a bare Koa route, at the same concurrency in the same run.
 * Each PingMe request is a real send: a signed-in person, a real friend, every middleware, the
 * SQLite write, the change log and the ws fan-out to sockets that are open. The same send as a
 * one-entry /api/sync/batch (how the PWA's outbox sends it) and as entries of 50-entry batches
 * (a device catching up) are measured too: their server CPU per send against the REST send's.
 */
import { cpuMs, type Child } from '../lib/children';
import { runLoad, type LoadRequest, type LoadResult } from '../lib/load';
import { makeBatchSender, makeSender } from '../lib/requests';
import type { World } from '../lib/seed';
import { meanAndError, type MeanAndError } from '../lib/stats';

/** Entries per batch in the catching-up figure. */
export const LARGE_BATCH = 50;

export interface SendResult {
  bare: LoadResult;
  app: LoadResult;
  batch: LoadResult;
  /** Batches of LARGE_BATCH sends. */
  largeBatch: LoadResult;
  /** Batch entries that did not answer 2xx (the batch itself answers 200). */
  batchEntryFailures: number;
  /** new_ping frames the open sockets received during the measured REST run. */
  newPingFrames: number;
  /** CPU time the answering process used per request in the measured runs (ms). */
  cpuPerRequestMs: { bare: number; app: number; batch: number; largeBatchEntry: number };
  /** The one-entry batch against REST in alternating phases: see `pairedRounds`. */
  paired: PairedRounds;
  /** REST sends against the bare route in alternating phases (requests/s and p99 per round). */
  againstBare: AgainstBare;
}

/**
 * REST sends and the bare route in short phases that alternate (the bare route first in even
 * rounds): this machine's speed drifts by ±25 % from one minute to the next, and the bare route,
 * at ten times the rate, drifts the most, so one back-to-back pair of runs can be off either way.
 * Each round's ratio compares phases seconds apart.
 */
export interface AgainstBare {
  /** REST sends/s over bare requests/s, per round. */
  rateRatios: number[];
  /** REST p99 over bare p99, per round. */
  p99Ratios: number[];
  rate: MeanAndError;
  p99: MeanAndError;
}

/**
 * Server CPU per send of REST sends and of one-entry batches, in short phases that alternate
 * (REST first in even rounds, the batch first in odd ones) against the same server. Runs made
 * one after the other differ by more than the two paths do (the database grows, the garbage of
 * one phase is collected in the next, other processes come and go), so each round's ratio
 * compares two phases seconds apart, and the mean of the ratios comes with its standard error.
 */
export interface PairedRounds {
  rest: number[];
  batch: number[];
  /** batch / rest - 1 per round. */
  ratios: number[];
  mean: number;
  standardError: number;
}

export async function benchSend(opts: {
  server: Child;
  bare: Child;
  world: World;
  connections: number;
  durationS: number;
  warmupS: number;
  countNewPings: () => number;
  /** Rounds of the alternating comparison, and seconds per phase. */
  pairedRounds?: number;
  pairedS?: number;
}): Promise<SendResult> {
  const { server, bare, world, connections } = opts;
  let batchEntryFailures = 0;
  const run = async (
    target: Child,
    durationS: number,
    setupRequest: (req: LoadRequest) => LoadRequest,
    onResponse?: (status: number, body: string) => void,
  ) => {
    const cpu = cpuMs(target.pid);
    const result = await runLoad({
      url: target.url,
      connections,
      durationS,
      setupRequest,
      ...(onResponse ? { onResponse } : {}),
    });
    return { result, cpu: (cpuMs(target.pid) - cpu) / Math.max(1, result.requests) };
  };
  const checkEntries = (_status: number, body: string) => {
    for (const m of body.matchAll(/"status":(\d+)/g)) {
      const status = Number(m[1]);
      if (status >= 200 && status <= 299) continue;
      batchEntryFailures += 1;
      // The first few, as sustained.ts prints its errors: a figure alone says nothing of why.
      if (batchEntryFailures <= 3) console.error(`  batch entry: ${body.slice(0, 300)}`);
    }
  };
  // Warm both up (JIT, SQLite page cache), then the app against the reference in
  // alternating rounds (first, on the database as seeded), and back to back.
  await run(bare, opts.warmupS, makeSender(world, bare.url));
  await run(server, opts.warmupS, makeSender(world, server.url));
  const againstBare: AgainstBare = {
    rateRatios: [],
    p99Ratios: [],
    rate: { mean: 0, standardError: 0 },
    p99: { mean: 0, standardError: 0 },
  };
  for (let i = 0; i < (opts.pairedRounds ?? 6); i++) {
    const phase = (target: Child) =>
      run(target, opts.pairedS ?? 2, makeSender(world, target.url)).then((r) => r.result);
    const [first, second] = i % 2 ? [server, bare] : [bare, server];
    const one = await phase(first);
    const two = await phase(second);
    const [app, ref] = i % 2 ? [one, two] : [two, one];
    againstBare.rateRatios.push(app.rps / ref.rps);
    againstBare.p99Ratios.push(app.p99 / ref.p99);
  }
  againstBare.rate = meanAndError(againstBare.rateRatios);
  againstBare.p99 = meanAndError(againstBare.p99Ratios);
  const b = await run(bare, opts.durationS, makeSender(world, bare.url));
  const before = opts.countNewPings();
  const a = await run(server, opts.durationS, makeSender(world, server.url));
  // Frames still in flight when the run stopped.
  await new Promise((r) => setTimeout(r, 500));
  const newPingFrames = opts.countNewPings() - before;
  const batch = await run(server, opts.durationS, makeBatchSender(world, server.url), checkEntries);
  const large = await run(
    server,
    opts.durationS,
    makeBatchSender(world, server.url, LARGE_BATCH),
    checkEntries,
  );
  // Both paths warm (the measured batch run above was the batch's first), then alternating.
  const rounds = opts.pairedRounds ?? 6;
  const paired: PairedRounds = { rest: [], batch: [], ratios: [], mean: 0, standardError: 0 };
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 ? (['batch', 'rest'] as const) : (['rest', 'batch'] as const);
    for (const kind of order) {
      const make =
        kind === 'rest' ? makeSender(world, server.url) : makeBatchSender(world, server.url);
      paired[kind].push((await run(server, opts.pairedS ?? 2, make)).cpu);
    }
    paired.ratios.push(paired.batch[i]! / paired.rest[i]! - 1);
  }
  ({ mean: paired.mean, standardError: paired.standardError } = meanAndError(paired.ratios));
  return {
    paired,
    againstBare,
    bare: b.result,
    app: a.result,
    batch: batch.result,
    largeBatch: large.result,
    batchEntryFailures,
    newPingFrames,
    cpuPerRequestMs: {
      bare: b.cpu,
      app: a.cpu,
      batch: batch.cpu,
      largeBatchEntry: large.cpu / LARGE_BATCH,
    },
  };
}

/** REST sends alone against one server (warm-up, then measured): rate, latencies, CPU per send. */
export async function benchRestSend(opts: {
  target: Child;
  world: World;
  connections: number;
  durationS: number;
  warmupS: number;
}): Promise<{ result: LoadResult; cpu: number }> {
  const { target, world, connections } = opts;
  const load = (durationS: number) =>
    runLoad({
      url: target.url,
      connections,
      durationS,
      setupRequest: makeSender(world, target.url),
    });
  await load(opts.warmupS);
  const before = cpuMs(target.pid);
  const result = await load(opts.durationS);
  return { result, cpu: (cpuMs(target.pid) - before) / Math.max(1, result.requests) };
}
