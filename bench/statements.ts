/**
 * `npx tsx bench/statements.ts [--sends 2000] [--batch [--entries 50]] [--mixed]`: every SQLite
 * statement one ping send runs, with its time, measured in-process (docs/performance.md, "What
 * limits them"). --mixed: benchmark 3's mixed load (sends, reactions, pulls, mark-all-read)
 * instead, figures per request of the mix.
 * Seeds a small world in a temporary DATA_DIR, starts the sync server in this process with the
 * ring's sockets open, sends pings one at a time over loopback (REST, or one-entry batches with
 * --batch) and prints, per send, how often each SQL text ran and the time spent in better-sqlite3
 * for it (the statement's own run, without Kysely). Figures are wall-clock on a shared machine:
 * compare runs made back to back.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../sync-server/src/config';
import { countersOf } from '../sync-server/src/db/changes';
import { openDatabase } from '../sync-server/src/db/connection';
import { startServer } from '../sync-server/src/server';
import { makeMixed } from './benches/sustained';
import { makeBatchSender, makeSender } from './lib/requests';
import { seedWorld } from './lib/seed';
import { closeSockets, openSockets } from './lib/sockets';

const { values: args } = parseArgs({
  options: {
    sends: { type: 'string', default: '2000' },
    batch: { type: 'boolean', default: false },
    /** Benchmark 3's mixed load instead of sends (figures per request of the mix). */
    mixed: { type: 'boolean', default: false },
    /** Sends per batch with --batch (a device catching up sends 50): figures stay per send. */
    entries: { type: 'string', default: '1' },
    /** Sends in flight at once (writes then share commits, as under load). */
    connections: { type: 'string', default: '1' },
    /** A pragma to set on the server's connection first (experiments), e.g. wal_autocheckpoint=0. */
    pragma: { type: 'string', multiple: true },
  },
});
const perBatch = args.batch ? Number(args.entries) : 1;
/** Requests made; each carries `perBatch` sends. */
const sends = Math.max(1, Math.round(Number(args.sends) / perBatch));

// Time every statement's run, keyed by its SQL text.
const timings = new Map<string, { n: number; ns: bigint; cpuUs: number }>();
let recording = false;
const probe = new BetterSqlite3(':memory:');
const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
  string,
  (...a: unknown[]) => unknown
>;
probe.close();
for (const method of ['run', 'get', 'all'] as const) {
  const original = proto[method]!;
  proto[method] = function (this: { source: string }, ...a: unknown[]) {
    if (!recording) return original.apply(this, a);
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    try {
      return original.apply(this, a);
    } finally {
      const d = process.hrtime.bigint() - t;
      const cpu = process.cpuUsage(c);
      const s = this.source.replace(/\s+/g, ' ').slice(0, 100);
      const e = timings.get(s) ?? { n: 0, ns: 0n, cpuUs: 0 };
      e.n += 1;
      e.ns += d;
      e.cpuUs += cpu.user + cpu.system;
      timings.set(s, e);
    }
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pingme-stmts-'));
const env = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PWA_DIST: path.join(dataDir, 'no-pwa'),
  LOG_REQUESTS: 'false',
};
const config = loadConfig({ ...process.env, ...env });
const opened = await openDatabase(config.dbFile);
const world = await seedWorld(opened.db, config, {
  ringUsers: 300,
  deliverySenders: 4,
  otherUsers: 10,
  socketsPerOther: 1,
  pullFriends: 5,
  pullPings: 100,
});
await opened.close();
const server = await startServer(config);
for (const p of args.pragma ?? []) server.database.sqlite.pragma(p);
const sockets = await openSockets(
  server.url,
  world.ring.users.map((u) => u.cookie),
);
try {
  const ringIds = world.ring.users.map((u) => u.id);
  const mix = args.mixed
    ? makeMixed(world, server.url, await countersOf(server.database.db, ringIds))
    : undefined;
  const send = args.batch
    ? makeBatchSender(world, server.url, perBatch)
    : makeSender(world, server.url);
  const one = async () => {
    const context: Record<string, unknown> = {};
    const r = mix ? mix.setupRequest({}, context) : send({});
    const res = await fetch(server.url + r.path!, {
      method: r.method!,
      headers: r.headers as Record<string, string>,
      body: r.body as string,
    });
    const text = await res.text();
    mix?.onResponse(res.status, text, context);
    const ok = mix ? res.ok : res.status === 201 || (args.batch && /"status":201/.test(text));
    if (!ok) throw new Error(`${r.method} ${r.path} answered ${res.status}: ${text}`);
  };
  for (let i = 0; i < 300; i++) await one(); // warm-up
  await server.push.idle();
  const walBytes = () => {
    try {
      return statSync(`${config.dbFile}-wal`).size;
    } catch {
      return 0;
    }
  };
  const wal0 = walBytes();
  recording = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const connections = Math.max(1, Number(args.connections));
  let left = sends;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) await one();
    }),
  );
  await server.push.idle();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  recording = false;

  const rows = [...timings].sort((a, b) => b[1].cpuUs - a[1].cpuUs);
  const unit = args.mixed ? 'request' : 'send';
  let total = 0;
  let totalCpu = 0;
  let count = 0;
  const totalSends = sends * perBatch;
  console.log(
    args.mixed
      ? `per request of the mixed load (${totalSends} requests):`
      : `per send (${totalSends} sends: ${args.batch ? `${sends} batches of ${perBatch}` : 'REST'}):`,
  );
  console.log('  runs  µs wall  µs CPU  SQL');
  const col = (n: number, w: number, d = 1) => n.toFixed(d).padStart(w);
  for (const [sqlText, e] of rows) {
    const us = Number(e.ns) / 1000 / totalSends;
    const cpuUs = e.cpuUs / totalSends;
    total += us;
    totalCpu += cpuUs;
    count += e.n / totalSends;
    console.log(`${col(e.n / totalSends, 6, 2)} ${col(us, 8)} ${col(cpuUs, 7)}  ${sqlText}`);
  }
  console.log(
    `${col(count, 6, 2)} ${col(total, 8)} ${col(totalCpu, 7)}  all statements (better-sqlite3 only)`,
  );
  const perSend = (cpu.user + cpu.system) / 1000 / totalSends;
  const wal = walBytes() - wal0;
  // With wal_autocheckpoint=0 the log only grows: its growth is the pages each commit wrote.
  if (wal > 0) {
    const pageSize = Number(server.database.sqlite.pragma('page_size', { simple: true }));
    console.log(`WAL growth: ${(wal / (pageSize + 24) / totalSends).toFixed(1)} pages per ${unit}`);
  }
  console.log(
    `this process (server and client together): ${perSend.toFixed(3)} ms CPU, ` +
      `${(wall / totalSends).toFixed(3)} ms wall per ${unit}`,
  );
} finally {
  await closeSockets(sockets);
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
