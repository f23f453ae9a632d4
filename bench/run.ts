/**
 * `npm run bench`: the server half of the performance suite (docs/performance.md).
 * Seeds a fresh database in a temporary DATA_DIR through the server's db layer, starts the sync
 * server and a bare Koa reference in child processes on loopback, runs the benchmarks, prints one
 * table and writes the same figures to bench/results/<timestamp>.json.
 *
 *   npm run bench                         everything (about 4 minutes)
 *   npm run bench -- --quick              shorter runs, for trying the bench itself
 *   npm run bench -- --only send,pull     some of: send, delivery, sustained, pull
 *   npm run bench -- --profile            the server child runs with --cpu-prof; the profile
 *                                         lands in bench/results/profiles/ (see profile.ts)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { WebSocket } from 'ws';
import { loadConfig } from '../sync-server/src/config';
import { latestSeq } from '../sync-server/src/db/changes';
import { openDatabase } from '../sync-server/src/db/connection';
import { benchDelivery } from './benches/delivery';
import { benchPull } from './benches/pull';
import { benchSend } from './benches/send';
import { benchSustained } from './benches/sustained';
import { loadAverage, rssMb, startChild, type Child } from './lib/children';
import { table, type Figure } from './lib/report';
import { DEFAULT_SIZES, seedWorld } from './lib/seed';
import { closeSockets, openSockets } from './lib/sockets';
import { round } from './lib/stats';

const here = path.dirname(fileURLToPath(import.meta.url));
const BENCHES = ['send', 'delivery', 'sustained', 'pull'] as const;
type BenchName = (typeof BENCHES)[number];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
  },
});
const only = new Set<BenchName>(
  args.only ? (args.only.split(',').map((s) => s.trim()) as BenchName[]) : BENCHES,
);
for (const b of only) if (!BENCHES.includes(b)) throw new Error(`unknown benchmark ${b}`);
const quick = args.quick;
const connections = Number(args.connections);
const P = {
  sendS: quick ? 3 : 10,
  warmupS: quick ? 1 : 3,
  deliveryPings: quick ? 100 : 500,
  deliveryIntervalMs: quick ? 5 : 60,
  levels: [1000, 5000],
  probeS: quick ? 3 : 10,
  sustainedS: quick ? 10 : 60,
  share: 0.7,
  snapshots: 3,
  incrementalRuns: 20,
};

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const figures: Figure[] = [];
const raw: Record<string, unknown> = {};
const fig = (f: Figure) => figures.push({ ...f, value: round(f.value, 2) });
const log = (s: string) => console.log(`[bench] ${s}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pingme-bench-'));
const env: Record<string, string> = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PWA_DIST: path.join(dataDir, 'no-pwa'),
  LOG_REQUESTS: 'false',
};
const loadStart = loadAverage();
log(`load average ${loadStart} on ${os.cpus().length} CPUs; data in ${dataDir}`);

const config = loadConfig({ ...process.env, ...env });
const opened = await openDatabase(config.dbFile);
const t = performance.now();
const world = await seedWorld(opened.db, config, DEFAULT_SIZES);
log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const profileDir = args.profile ? path.join(here, 'results', 'profiles', stamp) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const children: Child[] = [];
let ringSockets: WebSocket[] = [];
try {
  const bare = await startChild('bare', {});
  children.push(bare);
  const server = await startChild('server', env, profileDir ? { cpuProfDir: profileDir } : {});
  children.push(server);
  log(`server pid ${server.pid} on ${server.url}, bare Koa pid ${bare.pid} on ${bare.url}`);

  // Every person of the ring has the app open: each send fans out to a real socket.
  ringSockets = await openSockets(
    server.url,
    world.ring.users.map((u) => u.cookie),
  );
  let newPings = 0;
  for (const ws of ringSockets) {
    ws.on('message', (d: Buffer) => {
      if (d.toString('utf8', 0, 18) === '{"type":"new_ping"') newPings += 1;
    });
  }

  if (only.has('send')) {
    log(`1. ping send vs bare Koa, ${connections} connections, ${P.sendS} s each`);
    const r = await benchSend({
      server,
      bare,
      world,
      connections,
      durationS: P.sendS,
      warmupS: P.warmupS,
      countNewPings: () => newPings,
    });
    raw.send = r;
    const ratio = r.app.rps / r.bare.rps;
    fig({
      bench: '1',
      figure: 'bare Koa route: requests/s',
      value: r.bare.rps,
      unit: 'req/s',
      target: '',
    });
    fig({ bench: '1', figure: 'bare Koa route: p50', value: r.bare.p50, unit: 'ms', target: '' });
    fig({ bench: '1', figure: 'bare Koa route: p99', value: r.bare.p99, unit: 'ms', target: '' });
    fig({
      bench: '1',
      figure: 'ping send: requests/s',
      value: r.app.rps,
      unit: 'req/s',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'ping send / bare requests/s',
      value: ratio * 100,
      unit: '%',
      target: '≥ 50 %',
      pass: ratio >= 0.5,
    });
    fig({ bench: '1', figure: 'ping send: p50', value: r.app.p50, unit: 'ms', target: '' });
    fig({
      bench: '1',
      figure: 'ping send: p99',
      value: r.app.p99,
      unit: 'ms',
      target: `≤ 2 × bare p99 = ${(2 * r.bare.p99).toFixed(1)} ms`,
      pass: r.app.p99 <= 2 * r.bare.p99,
    });
    fig({
      bench: '1',
      figure: 'ping send: non-2xx + errors',
      value: r.app.non2xx + r.app.errors,
      unit: '',
      target: '0',
      pass: r.app.non2xx + r.app.errors === 0,
    });
    fig({
      bench: '1',
      figure: 'bare Koa: CPU per request',
      value: r.cpuPerRequestMs.bare,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'ping send: server CPU per request',
      value: r.cpuPerRequestMs.app,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'send as 1-entry batch: requests/s',
      value: r.batch.rps,
      unit: 'req/s',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'send as 1-entry batch: p99',
      value: r.batch.p99,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'send as 1-entry batch: server CPU per request',
      value: r.cpuPerRequestMs.batch,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '1',
      figure: 'send as 1-entry batch: failed entries + errors',
      value: r.batch.non2xx + r.batch.errors + r.batchEntryFailures,
      unit: '',
      target: '0',
      pass: r.batch.non2xx + r.batch.errors + r.batchEntryFailures === 0,
    });
    fig({
      bench: '1',
      figure: 'new_ping frames / sends',
      value: r.newPingFrames / Math.max(1, r.app.requests),
      unit: '',
      target: '',
    });
  }

  if (only.has('delivery')) {
    log(`2. delivery latency, ${P.deliveryPings} pings at ${P.levels.join(' and ')} sockets`);
    const r = await benchDelivery({
      server,
      world,
      levels: P.levels,
      pings: P.deliveryPings,
      intervalMs: P.deliveryIntervalMs,
    });
    raw.delivery = r;
    fig({
      bench: '2',
      figure: 'server RSS, ring sockets only',
      value: r.idleRssMb,
      unit: 'MB',
      target: '',
    });
    for (const l of r.levels) {
      const big = l.otherSockets >= 5000;
      const n = `${l.otherSockets} sockets`;
      fig({
        bench: '2',
        figure: `delivery p50, ${n}`,
        value: l.delivery.p50,
        unit: 'ms',
        target: '',
      });
      fig({
        bench: '2',
        figure: `delivery p99, ${n}`,
        value: l.delivery.p99,
        unit: 'ms',
        target: big ? '< 50 ms' : '',
        ...(big ? { pass: l.delivery.p99 < 50 } : {}),
      });
      fig({
        bench: '2',
        figure: `delivery max, ${n}`,
        value: l.delivery.max,
        unit: 'ms',
        target: '',
      });
      fig({
        bench: '2',
        figure: `server RSS, ${n}`,
        value: l.rssMb,
        unit: 'MB',
        target: big ? '< 400 MB' : '',
        ...(big ? { pass: l.rssMb < 400 } : {}),
      });
    }
  }

  if (only.has('sustained')) {
    log(
      `3. sustained mixed load: ${P.probeS} s probe, then ${P.sustainedS} s at ${P.share * 100}%`,
    );
    const r = await benchSustained({
      server,
      world,
      connections,
      probeS: P.probeS,
      durationS: P.sustainedS,
      share: P.share,
      startCursor: () => latestSeq(opened.db),
    });
    raw.sustained = r;
    const errors = r.run.non2xx + r.run.errors;
    fig({
      bench: '3',
      figure: 'mixed load: probed maximum',
      value: r.probe.rps,
      unit: 'req/s',
      target: '',
    });
    fig({
      bench: '3',
      figure: `mixed load: held rate, ${P.sustainedS} s`,
      value: r.run.rps,
      unit: 'req/s',
      target: `${r.rate} req/s`,
    });
    fig({
      bench: '3',
      figure: 'mixed load: errors',
      value: errors,
      unit: '',
      target: '0',
      pass: errors === 0,
    });
    fig({ bench: '3', figure: 'mixed load: p50', value: r.run.p50, unit: 'ms', target: '' });
    fig({ bench: '3', figure: 'mixed load: p99', value: r.run.p99, unit: 'ms', target: '' });
    fig({
      bench: '3',
      figure: 'server RSS after the run',
      value: rssMb(server.pid),
      unit: 'MB',
      target: '',
    });
  }

  if (only.has('pull')) {
    log('4. pull: full snapshot and incremental');
    const r = await benchPull({
      server,
      world,
      snapshots: P.snapshots,
      incrementalRuns: P.incrementalRuns,
    });
    raw.pull = r;
    fig({
      bench: '4',
      figure: `full snapshot, ${world.pull.pings} pings (${r.snapshot.pages} pages)`,
      value: r.snapshot.medianMs,
      unit: 'ms',
      target: '< 1000 ms',
      pass: r.snapshot.medianMs < 1000,
    });
    fig({
      bench: '4',
      figure: 'full snapshot: server CPU',
      value: r.snapshot.medianCpuMs,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '4',
      figure: 'full snapshot: bytes',
      value: r.snapshot.bytes / 1024 / 1024,
      unit: 'MB',
      target: '',
    });
    fig({
      bench: '4',
      figure: `incremental pull after ${r.incremental.changesMade} changes (median)`,
      value: r.incremental.ms.p50,
      unit: 'ms',
      target: '< 20 ms',
      pass: r.incremental.ms.p50 < 20,
    });
    fig({
      bench: '4',
      figure: 'incremental pull: server CPU',
      value: r.incremental.cpuMs,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '4',
      figure: 'incremental pull: max',
      value: r.incremental.ms.max,
      unit: 'ms',
      target: '',
    });
    fig({
      bench: '4',
      figure: 'incremental pull: bytes',
      value: r.incremental.bytes / 1024,
      unit: 'KB',
      target: '',
    });
  }
} finally {
  await closeSockets(ringSockets);
  for (const c of children.reverse()) await c.stop();
  await opened.close();
  rmSync(dataDir, { recursive: true, force: true });
}

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
      options: { quick, connections, only: [...only], ...P },
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
