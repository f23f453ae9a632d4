/**
 * `npm run bench`: the performance suite of issue 8 (docs/performance.md).
 * 1-4, the server: seeds a fresh database in a temporary DATA_DIR through the server's db layer,
 * starts the sync server and a bare Koa reference in child processes on loopback, and loads them.
 * 5-6, the PWA: builds pwa/ once, measures its download size, runs Lighthouse on Landing and Home
 * (bench/pwa-lighthouse.ts) and the device figures in Chromium (bench/device/).
 * Prints one table and writes the same figures to bench/results/<timestamp>.json.
 *
 *   npm run bench                         everything (about 12 minutes)
 *   npm run bench -- --quick              shorter runs, for trying the bench itself
 *   npm run bench -- --only send,pull     some of: send, delivery, sustained, pull, size,
 *                                         lighthouse, device
 *   npm run bench -- --profile            the server child runs with --cpu-prof; the profile
 *                                         lands in bench/results/profiles/ (see profile.ts)
 *   npm run bench -- --cluster            7, several nodes: one node on SQLite, one and two
 *                                         nodes on PostgreSQL, side by side (benches/cluster.ts;
 *                                         about 8 minutes; the others only with --only)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WebSocket } from 'ws';
import { loadConfig } from '../sync-server/src/config';
import { countersOf } from '../sync-server/src/db/changes';
import { openDatabase } from '../sync-server/src/db/connection';
import { benchCluster } from './benches/cluster';
import { benchDelivery } from './benches/delivery';
import { benchDevice } from './device';
import { buildPwa } from './lib/pwa-build';
import { lighthouseFigures } from './pwa-lighthouse';
import { sizeFigures } from './pwa-size';
import { benchPull } from './benches/pull';
import { LARGE_BATCH, benchRestSend, benchSend } from './benches/send';
import { benchSustained } from './benches/sustained';
import {
  loadAverage,
  otherLoadMeter,
  rssMb,
  serverEnv,
  startChild,
  type Child,
} from './lib/children';
import { figureSink, table, type Figure } from './lib/report';
import { DEFAULT_SIZES, seedWorld } from './lib/seed';
import { closeSockets, openSockets } from './lib/sockets';

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER_BENCHES = ['send', 'delivery', 'sustained', 'pull'] as const;
const PWA_BENCHES = ['size', 'lighthouse', 'device'] as const;
const BENCHES = [...SERVER_BENCHES, ...PWA_BENCHES] as const;
type BenchName = (typeof BENCHES)[number];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    cluster: { type: 'boolean', default: false },
  },
});
const only = new Set<BenchName>(
  args.only
    ? (args.only.split(',').map((s) => s.trim()) as BenchName[])
    : args.cluster
      ? []
      : BENCHES,
);
for (const b of only) if (!BENCHES.includes(b)) throw new Error(`unknown benchmark ${b}`);
const quick = args.quick;
const connections = Number(args.connections);
const P = {
  sendS: quick ? 3 : 10,
  warmupS: quick ? 1 : 3,
  pairedRounds: quick ? 2 : 6,
  pairedS: quick ? 1 : 2,
  deliveryPings: quick ? 100 : 500,
  deliveryIntervalMs: quick ? 5 : 60,
  levels: [1000, 5000],
  probeS: quick ? 3 : 10,
  sustainedS: quick ? 10 : 60,
  shares: [0.7, 0.6, 0.5],
  trialS: quick ? 5 : 15,
  snapshots: 3,
  incrementalRuns: 20,
  lighthouseRuns: quick ? 1 : 3,
  device: quick ? { runs: 2, sends: 10, writes: 300, outageMs: 10_000 } : {},
};

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const figures: Figure[] = [];
const raw: Record<string, unknown> = {};
const { info, check } = figureSink(figures);
const log = (s: string) => console.log(`[bench] ${s}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pingme-bench-'));
const env = serverEnv(dataDir);
const loadStart = loadAverage();
log(`load average ${loadStart} on ${os.cpus().length} CPUs; data in ${dataDir}`);

const profileDir = args.profile ? path.join(here, 'results', 'profiles', stamp) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

/** Benchmarks 1-4: the sync server in a child process, next to a bare Koa app. */
async function serverBenches(): Promise<void> {
  const config = loadConfig({ ...process.env, ...env });
  const opened = await openDatabase(config.dbFile);
  const t = performance.now();
  const world = await seedWorld(opened.db, config, DEFAULT_SIZES);
  log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const children: Child[] = [];
  let ringSockets: WebSocket[] = [];
  try {
    const bare = await startChild('bare', {});
    children.push(bare);
    const server = await startChild('server', env, profileDir ? { cpuProfDir: profileDir } : {});
    children.push(server);
    log(`server pid ${server.pid} on ${server.url}, bare Koa pid ${bare.pid} on ${bare.url}`);
    /**
     * Benchmark `name`, numbered `n` in the table, when it was asked for: `run` measures and
     * reports. The bench's own processes aside, everything else running meanwhile is noise, and is
     * reported after it.
     */
    const benchmark = async (name: BenchName, n: string, run: () => Promise<void>) => {
      if (!only.has(name)) return;
      const stop = otherLoadMeter(() => [process.pid, ...children.map((c) => c.pid)]);
      await run();
      info(n, 'other processes meanwhile (CPUs busy)', stop());
    };

    // Every person of the ring has the app open: each send fans out to a real socket.
    ringSockets = await openSockets(
      server.url,
      world.ring.users.map((u) => u.cookie),
    );
    info('0', 'server RSS at start, 300 sockets', rssMb(server.pid), 'MB');
    let newPings = 0;
    for (const ws of ringSockets) {
      ws.on('message', (d: Buffer) => {
        if (d.toString('utf8', 0, 18) === '{"type":"new_ping"') newPings += 1;
      });
    }

    await benchmark('send', '1', async () => {
      log(`1. ping send vs bare Koa, ${connections} connections, ${P.sendS} s each`);
      const r = await benchSend({
        server,
        bare,
        world,
        connections,
        durationS: P.sendS,
        warmupS: P.warmupS,
        countNewPings: () => newPings,
        pairedRounds: P.pairedRounds,
        pairedS: P.pairedS,
      });
      raw.send = r;
      const ratio = r.app.rps / r.bare.rps;
      const failed = r.app.non2xx + r.app.errors;
      const batchFailed =
        r.batch.non2xx +
        r.batch.errors +
        r.largeBatch.non2xx +
        r.largeBatch.errors +
        r.batchEntryFailures;
      info('1', 'bare Koa route: requests/s', r.bare.rps, 'req/s');
      info('1', 'bare Koa route: p50', r.bare.p50, 'ms');
      info('1', 'bare Koa route: p99', r.bare.p99, 'ms');
      info('1', 'bare Koa route: CPU per request', r.cpuPerRequestMs.bare, 'ms');
      info('1', 'ping send: requests/s', r.app.rps, 'req/s');
      info('1', 'ping send / bare requests/s, back to back', ratio * 100, '%');
      info('1', 'ping send: p50', r.app.p50, 'ms');
      info('1', 'ping send: p99', r.app.p99, 'ms');
      info('1', 'ping send p99 / bare p99, back to back', r.app.p99 / r.bare.p99);
      // Judged on alternating phases (benches/send.ts, AgainstBare): the bare route's rate drifts
      // by a quarter between runs on this machine, so one pair of runs can be off either way.
      const { againstBare } = r;
      const rounds = againstBare.rateRatios.length;
      check(
        '1',
        `ping send / bare requests/s, ${rounds} alternating rounds (s.e. ${(againstBare.rate.standardError * 100).toFixed(2)} %)`,
        againstBare.rate.mean * 100,
        '%',
        '≥ 12 %',
        againstBare.rate.mean >= 0.12,
      );
      check(
        '1',
        `ping send p99 / bare p99, ${rounds} alternating rounds (s.e. ${againstBare.p99.standardError.toFixed(2)})`,
        againstBare.p99.mean,
        '',
        '≤ 3',
        againstBare.p99.mean <= 3,
      );
      check('1', 'ping send: non-2xx + errors', failed, '', '0', failed === 0);
      info('1', 'ping send: server CPU per request', r.cpuPerRequestMs.app, 'ms');
      info('1', 'new_ping frames / sends', r.newPingFrames / Math.max(1, r.app.requests));
      info('1', 'send as 1-entry batch: requests/s', r.batch.rps, 'req/s');
      info('1', 'send as 1-entry batch: p99', r.batch.p99, 'ms');
      const cpu = r.cpuPerRequestMs;
      info('1', 'send as 1-entry batch: server CPU per request', cpu.batch, 'ms');
      // Judged on the alternating phases (benches/send.ts, PairedRounds): the run above follows
      // the REST run, on a larger database, and is the batch path's first.
      const { paired } = r;
      const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
      info('1', 'alternating: REST send, server CPU per request', mean(paired.rest), 'ms');
      info('1', 'alternating: 1-entry batch, server CPU per request', mean(paired.batch), 'ms');
      check(
        '1',
        `1-entry batch - REST, CPU, ${paired.ratios.length} rounds (s.e. ${(paired.standardError * 100).toFixed(1)} %)`,
        paired.mean * 100,
        '%',
        '≤ 0 % (no more than REST)',
        paired.mean <= 0,
      );
      info('1', `send in ${LARGE_BATCH}-entry batches: sends/s`, r.largeBatch.rps * LARGE_BATCH);
      check(
        '1',
        `send in ${LARGE_BATCH}-entry batches: server CPU per send`,
        cpu.largeBatchEntry,
        'ms',
        `≤ 25 % of REST = ${(cpu.app / 4).toFixed(3)} ms`,
        cpu.largeBatchEntry <= cpu.app / 4,
      );
      check('1', 'batches: failed entries', batchFailed, '', '0', batchFailed === 0);

      // The same REST sends on a server that commits every write on its own
      // (WRITE_COALESCING=false, mutations/coalesce.ts), on the same data, with the ring's
      // sockets moved to it: what group commit is worth.
      await closeSockets(ringSockets);
      const single = await startChild('server', {
        ...env,
        WRITE_COALESCING: 'false',
      });
      children.push(single);
      ringSockets = await openSockets(
        single.url,
        world.ring.users.map((u) => u.cookie),
      );
      const s1 = await benchRestSend({
        target: single,
        world,
        connections,
        durationS: P.sendS,
        warmupS: P.warmupS,
      });
      raw.sendSingleCommit = s1;
      info('1', 'one commit per write: requests/s', s1.result.rps, 'req/s');
      info('1', 'one commit per write: p99', s1.result.p99, 'ms');
      info('1', 'one commit per write: server CPU per request', s1.cpu, 'ms');
      await closeSockets(ringSockets);
      await single.stop();
      children.splice(children.indexOf(single), 1);
      ringSockets = await openSockets(
        server.url,
        world.ring.users.map((u) => u.cookie),
      );
    });

    await benchmark('delivery', '2', async () => {
      log(`2. delivery latency, ${P.deliveryPings} pings at ${P.levels.join(' and ')} sockets`);
      const r = await benchDelivery({
        server,
        world,
        levels: P.levels,
        pings: P.deliveryPings,
        intervalMs: P.deliveryIntervalMs,
      });
      raw.delivery = r;
      info('2', 'server RSS before, 300 sockets', r.idleRssMb, 'MB');
      for (const l of r.levels) {
        const n = `${l.otherSockets} sockets`;
        info('2', `delivery p50, ${n}`, l.delivery.p50, 'ms');
        if (l.otherSockets >= 5000) {
          check('2', `delivery p99, ${n}`, l.delivery.p99, 'ms', '< 50 ms', l.delivery.p99 < 50);
        } else {
          info('2', `delivery p99, ${n}`, l.delivery.p99, 'ms');
        }
        info('2', `delivery max, ${n}`, l.delivery.max, 'ms');
        if (l.otherSockets >= 5000) {
          check('2', `server RSS, ${n}`, l.rssMb, 'MB', '< 400 MB', l.rssMb < 400);
        } else {
          info('2', `server RSS, ${n}`, l.rssMb, 'MB');
        }
      }
    });

    await benchmark('sustained', '3', async () => {
      log(`3. mixed load: ${P.probeS} s probe, ${P.trialS} s trials, then ${P.sustainedS} s`);
      const r = await benchSustained({
        server,
        world,
        connections,
        probeS: P.probeS,
        durationS: P.sustainedS,
        shares: P.shares,
        trialS: P.trialS,
        startCursors: () =>
          countersOf(
            opened.db,
            world.ring.users.map((u) => u.id),
          ),
      });
      raw.sustained = r;
      const errors = r.run.non2xx + r.run.errors;
      const held = r.run.rps >= 0.95 * r.rate;
      info('3', 'mixed load: probed maximum', r.probe.rps, 'req/s');
      info('3', 'mixed load: share of it held in a trial', r.share * 100, '%');
      const heldTarget = `≥ 95 % of ${r.rate} req/s`;
      check('3', `mixed load: rate over ${P.sustainedS} s`, r.run.rps, 'req/s', heldTarget, held);
      check('3', 'mixed load: errors', errors, '', '0', errors === 0);
      info('3', 'mixed load: p50', r.run.p50, 'ms');
      info('3', 'mixed load: p99', r.run.p99, 'ms');
      info('3', 'server RSS after the run', rssMb(server.pid), 'MB');
    });

    await benchmark('pull', '4', async () => {
      log('4. pull: full snapshot and incremental');
      const r = await benchPull({
        server,
        world,
        snapshots: P.snapshots,
        incrementalRuns: P.incrementalRuns,
      });
      raw.pull = r;
      const snap = `full snapshot, ${world.pull.pings} pings (${r.snapshot.pages} pages)`;
      const ms = r.snapshot.medianMs;
      check('4', snap, ms, 'ms', '< 1000 ms', ms < 1000);
      info('4', 'full snapshot: server CPU', r.snapshot.medianCpuMs, 'ms');
      info('4', 'full snapshot: bytes', r.snapshot.bytes / 1024 / 1024, 'MB');
      const inc = `incremental pull after ${r.incremental.changesMade} changes (median)`;
      const incMs = r.incremental.ms.p50;
      check('4', inc, incMs, 'ms', '< 20 ms', incMs < 20);
      info('4', 'incremental pull: max', r.incremental.ms.max, 'ms');
      info('4', 'incremental pull: server CPU', r.incremental.cpuMs, 'ms');
      info('4', 'incremental pull: bytes', r.incremental.bytes / 1024, 'KB');
    });
  } finally {
    await closeSockets(ringSockets);
    for (const c of children.reverse()) await c.stop();
    await opened.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Benchmarks 5-6: one build of the PWA, its download size, Lighthouse and the device figures. */
async function pwaBenches(): Promise<void> {
  const dist = buildPwa(log);
  try {
    if (only.has('size')) {
      log('5. PWA download size');
      figures.push(...sizeFigures(dist));
    }
    if (only.has('lighthouse')) {
      log(`5. Lighthouse on Landing and Home, ${P.lighthouseRuns} runs per page`);
      figures.push(...(await lighthouseFigures({ dist, runs: P.lighthouseRuns })));
    }
    if (only.has('device')) {
      log('5-6. Home from Dexie, send to render, outbox drain');
      const r = await benchDevice({ dist, ...P.device });
      raw.device = r.raw;
      figures.push(...r.figures);
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

if (SERVER_BENCHES.some((b) => only.has(b))) await serverBenches();
if (PWA_BENCHES.some((b) => only.has(b))) await pwaBenches();
if (args.cluster) {
  log('7. several nodes: one node on SQLite, one and two nodes on PostgreSQL');
  raw.cluster = await benchCluster({ quick, connections, log, info, check });
}
rmSync(dataDir, { recursive: true, force: true });

const loadEnd = loadAverage();
console.log('');
console.log(table(figures));
console.log('');
console.log(
  `load average: ${loadStart} at start, ${loadEnd} at the end (${os.cpus().length} CPUs)`,
);
const out = path.join(here, 'results', `${stamp}.json`);
writeFileSync(
  out,
  JSON.stringify(
    {
      startedAt: stamp,
      machine: { cpus: os.cpus().length, node: process.version, loadStart, loadEnd },
      options: { quick, connections, only: [...only], cluster: args.cluster, ...P },
      sizes: DEFAULT_SIZES,
      figures,
      raw,
    },
    null,
    2,
  ),
);
log(`figures written to ${path.relative(process.cwd(), out)}`);
if (profileDir) log(`CPU profile in ${profileDir}: npx tsx bench/profile.ts ${profileDir}`);
if (figures.some((f) => f.pass === false)) process.exitCode = 1;
