/**
 * 1. Ping send over HTTP, next to a bare Koa route, at the same concurrency in the same run.
 * Each PingMe request is a real send: a signed-in person, a real friend, every middleware, the
 * SQLite write, the change log and the ws fan-out to sockets that are open. The same send as a
 * one-entry /api/sync/batch (how the PWA's outbox sends it) is measured too, for reference.
 */
import { cpuMs, type Child } from '../lib/children';
import { runLoad, type LoadRequest, type LoadResult } from '../lib/load';
import { makeBatchSender, makeSender } from '../lib/requests';
import type { World } from '../lib/seed';

export interface SendResult {
  bare: LoadResult;
  app: LoadResult;
  batch: LoadResult;
  /** Batch entries that did not answer 2xx (the batch itself answers 200). */
  batchEntryFailures: number;
  /** new_ping frames the open sockets received during the measured REST run. */
  newPingFrames: number;
  /** CPU time the answering process used per request in the measured runs (ms). */
  cpuPerRequestMs: { bare: number; app: number; batch: number };
}

export async function benchSend(opts: {
  server: Child;
  bare: Child;
  world: World;
  connections: number;
  durationS: number;
  warmupS: number;
  countNewPings: () => number;
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
  const checkEntry = (_status: number, body: string) => {
    const status = Number(/"status":(\d+)/.exec(body)?.[1] ?? 0);
    if (status < 200 || status > 299) batchEntryFailures += 1;
  };
  // Warm both up (JIT, SQLite page cache), then measure the reference and the app back to back.
  await run(bare, opts.warmupS, makeSender(world, bare.url));
  await run(server, opts.warmupS, makeSender(world, server.url));
  const b = await run(bare, opts.durationS, makeSender(world, bare.url));
  const before = opts.countNewPings();
  const a = await run(server, opts.durationS, makeSender(world, server.url));
  // Frames still in flight when the run stopped.
  await new Promise((r) => setTimeout(r, 500));
  const newPingFrames = opts.countNewPings() - before;
  const batch = await run(server, opts.durationS, makeBatchSender(world, server.url), checkEntry);
  return {
    bare: b.result,
    app: a.result,
    batch: batch.result,
    batchEntryFailures,
    newPingFrames,
    cpuPerRequestMs: { bare: b.cpu, app: a.cpu, batch: batch.cpu },
  };
}
