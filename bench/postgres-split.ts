/**
 * Where PostgreSQL's CPU goes under benchmark 3's mixed load on one node (docs/deploy.md, "Where
 * PostgreSQL's CPU goes"): a throw-away cluster set as the cluster bench sets it, with
 * pg_stat_statements loaded; one node of this tree on it; 50 connections of the mixed load. Prints
 * per request: the node's CPU, PostgreSQL's by process (backends, WAL writer, autovacuum…), what
 * each statement's execution took inside PostgreSQL (its calls and time), and the rows each table
 * gained, lost and changed, with how many of the changes were HOT (heap-only: no index touched).
 *
 *   npx tsx bench/postgres-split.ts [--seconds 15] [--explain 0.003] [--hot]
 *
 * --explain <rate>: auto_explain logs that share of the statements with their plans, timings and
 * buffers; the log is copied to /tmp/postgres-split.log.
 * --hot: an experiment, not a schema to run: before the load, drops the one index of `pings` that
 * holds `is_read` (pings_receiver_read) and leaves a fifth of each new page of `pings` free
 * (fillfactor 80), so that marking a ping read can be a HOT update. The unread count and mark all
 * read then read every ping a person received: fine for the bench's world, not for a real one.
 */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../sync-server/src/config';
import { countersOf } from '../sync-server/src/db/changes';
import { openDatabase } from '../sync-server/src/db/connection';
import { createDatabase, overUnixSocket, startPostgresCluster } from '../sync-server/test/postgres';
import { CLUSTER_SETTINGS } from './benches/cluster';
import { makeMixed } from './benches/sustained';
import { cpuMs, descendantsOf, serverEnv, startChild } from './lib/children';
import { runLoad } from './lib/load';
import { DEFAULT_SIZES, seedWorld } from './lib/seed';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    explain: { type: 'string', default: '0' },
    hot: { type: 'boolean', default: false },
  },
});

const cluster = await startPostgresCluster({
  settings: {
    ...CLUSTER_SETTINGS,
    shared_preload_libraries: 'pg_stat_statements,auto_explain',
    'pg_stat_statements.track': 'all',
    'auto_explain.log_min_duration': '0',
    'auto_explain.sample_rate': args.explain,
    'auto_explain.log_analyze': 'on',
    'auto_explain.log_buffers': 'on',
    'auto_explain.log_triggers': 'on',
  },
});
const pgUrl = await createDatabase(cluster.url);
const env = {
  ...serverEnv(mkdtempSync(path.join(os.tmpdir(), 'pingme-postgres-split-'))),
  SESSION_SECRET: 'bench-postgres-split-session-secret-0123456789',
  DATABASE_URL: overUnixSocket(pgUrl, cluster.dir),
  DATABASE_POOL_SIZE: '10',
};
const opened = await openDatabase(pgUrl);
const { db } = opened;
const world = await seedWorld(db, loadConfig({ ...process.env, ...env }), {
  ...DEFAULT_SIZES,
  pullPings: 500,
});
if (args.hot) {
  await sql`drop index pings_receiver_read`.execute(db);
  await sql`alter table pings set (fillfactor = 80)`.execute(db);
  console.log('experiment: pings_receiver_read dropped, pings at fillfactor 80');
}
await sql`create extension if not exists pg_stat_statements`.execute(db);
const node = await startChild('server', env, { quiet: true });

/** What a PostgreSQL process is, from its title ("postgres: walwriter", a backend's user…). */
function kindOf(pid: number): string {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    const m = /^postgres: (?:\S+ \S+ (?:\[local\]|\d[\d.:]*)|(.+))/.exec(title);
    if (!m) return 'postmaster';
    return m[1] ? m[1].trim() : 'backends';
  } catch {
    return 'gone';
  }
}
function cpuByProcess(): Map<number, { kind: string; ms: number }> {
  const postmaster = cluster.postmasterPid();
  return new Map(
    [postmaster, ...descendantsOf(postmaster)].map((p) => [p, { kind: kindOf(p), ms: cpuMs(p) }]),
  );
}

interface TableRow {
  relname: string;
  nTupIns: string;
  nTupUpd: string;
  nTupHotUpd: string;
  nTupDel: string;
}
const tables = async () =>
  (
    await sql<TableRow>`select relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del
      from pg_stat_user_tables`.execute(db)
  ).rows;

const mixedLoad = async (durationS: number) => {
  const cursors = await countersOf(
    db,
    world.ring.users.map((u) => u.id),
  );
  const mix = makeMixed(world, node.url, cursors, undefined, 0);
  return runLoad({
    url: node.url,
    connections: 50,
    durationS,
    setupRequest: mix.setupRequest,
    onResponse: mix.onResponse,
  });
};

await mixedLoad(3);
await sql`select pg_stat_statements_reset()`.execute(db);
const [cpuBefore, tablesBefore, nodeBefore] = [cpuByProcess(), await tables(), cpuMs(node.pid)];
const load = await mixedLoad(Number(args.seconds));
const [cpuAfter, nodeAfter] = [cpuByProcess(), cpuMs(node.pid)];
// PostgreSQL reports a backend's table counts within a second.
await new Promise((resolve) => setTimeout(resolve, 1200));
const tablesAfter = await tables();
const perRequest = (ms: number) => ((ms * 1000) / load.requests).toFixed(1).padStart(7);

console.log(
  `${load.requests} requests (${load.rps.toFixed(0)}/s, ${load.non2xx + load.errors} errors); ` +
    `CPU per request in µs:\n${perRequest(nodeAfter - nodeBefore)}  the node`,
);
const byKind = new Map<string, number>();
for (const [pid, after] of cpuAfter) {
  const spent = after.ms - (cpuBefore.get(pid)?.ms ?? 0);
  byKind.set(after.kind, (byKind.get(after.kind) ?? 0) + spent);
}
for (const [kind, ms] of [...byKind].sort((a, b) => b[1] - a[1])) {
  if (ms > 0) console.log(`${perRequest(ms)}  PostgreSQL: ${kind}`);
}

const statements = (
  await sql<{ query: string; calls: string; totalExecTime: number }>`select query, calls,
    total_exec_time from pg_stat_statements where calls > 0 order by total_exec_time desc`.execute(
    db,
  )
).rows;
const exec = statements.reduce((sum, s) => sum + s.totalExecTime, 0);
console.log(`\nstatements' execution inside PostgreSQL: ${perRequest(exec)} µs per request`);
console.log('  calls  µs exec  statement (per request)');
for (const s of statements.slice(0, 12)) {
  const calls = (Number(s.calls) / load.requests).toFixed(3);
  const text = s.query.replace(/\s+/g, ' ').slice(0, 100);
  console.log(`  ${calls} ${perRequest(s.totalExecTime)}  ${text}`);
}

console.log('\nrows per request:  inserted  updated  of them HOT  deleted');
for (const after of tablesAfter.sort((a, b) => a.relname.localeCompare(b.relname))) {
  const before = tablesBefore.find((t) => t.relname === after.relname);
  const d = (k: keyof Omit<TableRow, 'relname'>) =>
    (Number(after[k]) - Number(before?.[k] ?? 0)) / load.requests;
  if (d('nTupIns') + d('nTupUpd') + d('nTupDel') === 0) continue;
  const cols = [d('nTupIns'), d('nTupUpd'), d('nTupHotUpd'), d('nTupDel')].map((v) =>
    v.toFixed(3).padStart(9),
  );
  console.log(`  ${after.relname.padEnd(18)}${cols.join('')}`);
}

await node.stop();
if (Number(args.explain) > 0)
  copyFileSync(path.join(cluster.dir, 'log'), '/tmp/postgres-split.log');
await opened.close();
await cluster.stop();
