/**
 * 7. Several nodes (`npm run bench -- --cluster`, docs/deploy.md "What was measured"): the same
 * loads on one node on SQLite, one node on PostgreSQL and two nodes on one PostgreSQL, in one
 * run on the same machine, so the cost of the network database and what a second node buys are
 * numbers:
 *
 * - ping sends over REST as fast as they are answered (50 connections, spread over the nodes);
 * - 60 s of the mixed load of benchmark 3 (40 % sends, 20 % reactions, 30 % pulls, 10 % reads)
 *   as fast as it is answered: the sends per second across both nodes, and errors; and where
 *   the CPUs went meanwhile (the nodes, PostgreSQL, the load generator, per request) with the
 *   sends per second they allow at that cost;
 * - send through node 1 to `new_ping` on a node-2 socket, with 5,000 other sockets open across
 *   both nodes (the hint over LISTEN/NOTIFY, then node 2's read of the change log);
 * - NOTIFY's own cost: small write transactions with and without a pg_notify in each, straight
 *   against PostgreSQL (whether the bus limits the write rate, and so whether Redis is needed).
 *
 * PostgreSQL runs a throw-away cluster on this machine (sync-server/test/postgres.ts) with
 * `synchronous_commit = off` (fsync on): a commit is acknowledged before its WAL is flushed, the
 * same promise as SQLite's `synchronous = NORMAL` here (a process kill loses nothing acknowledged,
 * an OS crash may lose the last few commits, neither corrupts). The nodes reach it through its
 * Unix socket, as docs/deploy.md advises for a database on the nodes' own machine (over loopback
 * TCP a node spent a few per cent more CPU per send).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { uuidv7 } from '@pingme/shared';
import type { WebSocket } from 'ws';
import { loadConfig } from '../../sync-server/src/config';
import { countersOf } from '../../sync-server/src/db/changes';
import { openDatabase, type OpenedDb } from '../../sync-server/src/db/connection';
import {
  createDatabase,
  overUnixSocket,
  startPostgresCluster,
} from '../../sync-server/test/postgres';
import { cpuMeter, descendantsOf, serverEnv, startChild, type Child } from '../lib/children';
import { request } from '../lib/http';
import { runLoad, type LoadResult } from '../lib/load';
import { makeSender } from '../lib/requests';
import { DEFAULT_SIZES, seedWorld, type World } from '../lib/seed';
import type { FigureSink } from '../lib/report';
import { closeSockets, newPingArrivals, openSocket, openSockets } from '../lib/sockets';
import { summarise } from '../lib/stats';
import { makeMixed, type Kind } from './sustained';

export interface ClusterOptions {
  quick: boolean;
  connections: number;
  log: (s: string) => void;
  info: FigureSink['info'];
  check: FigureSink['check'];
}

const SIZES = { ...DEFAULT_SIZES, pullPings: 500 };

/** The PostgreSQL settings of the cluster bench (the header says why). */
export const CLUSTER_SETTINGS = {
  fsync: 'on',
  synchronous_commit: 'off',
  full_page_writes: 'on',
  shared_buffers: '256MB',
};
const SECRET = 'bench-cluster-session-secret-0123456789abcdef';

interface Setup {
  name: string;
  nodes: Child[];
  world: World;
  opened: OpenedDb;
}

/** Loads split over the nodes (one autocannon per node), summed. */
async function spread(
  nodes: Child[],
  connections: number,
  durationS: number,
  make: (node: Child) => Parameters<typeof runLoad>[0],
): Promise<LoadResult[]> {
  const per = Math.max(1, Math.round(connections / nodes.length));
  return Promise.all(nodes.map((n) => runLoad({ ...make(n), connections: per, durationS })));
}

/**
 * Where node `n`'s load generator starts on the ring (a share of it): each node's clients walk
 * other people than the other node's, as people spread over nodes by a load balancer would, not
 * the same sender, ping and person at the same moment through both.
 */
const startOf = (nodes: Child[], n: Child) => nodes.indexOf(n) / nodes.length;

const total = (rs: LoadResult[], f: (r: LoadResult) => number) =>
  rs.reduce((sum, r) => sum + f(r), 0);

const CPUS = os.cpus().length;

/**
 * The CPU a request of the mixed load costs each part (µs), and the most sends per second this
 * machine's CPUs could carry at that cost with every CPU busy on nothing else: the ceiling a
 * setup meets before anything waits on anything (docs/deploy.md, "What was measured").
 */
function cpuBudget(
  cpuMs: { nodes: number; postgres: number; generator: number },
  requests: number,
  sendShare: number,
) {
  const per = (ms: number) => (ms * 1000) / requests;
  const budget = {
    nodesUs: per(cpuMs.nodes),
    postgresUs: per(cpuMs.postgres),
    generatorUs: per(cpuMs.generator),
  };
  const allUs = budget.nodesUs + budget.postgresUs + budget.generatorUs;
  return { ...budget, sendsCeiling: ((CPUS * 1e6) / allUs) * sendShare };
}

export async function benchCluster(opts: ClusterOptions): Promise<Record<string, unknown>> {
  const { log, info, check } = opts;
  const sendS = opts.quick ? 3 : 10;
  const mixedS = opts.quick ? 10 : 60;
  const deliveryPings = opts.quick ? 100 : 500;
  const raw: Record<string, unknown> = {};
  const dirs: string[] = [];
  const children: Child[] = [];
  const opened: OpenedDb[] = [];
  const cluster = await startPostgresCluster({ settings: CLUSTER_SETTINGS });
  log(
    `PostgreSQL ${cluster.url}, nodes through its Unix socket in ${cluster.dir} (synchronous_commit=off, fsync on)`,
  );
  try {
    const start = async (name: string, databaseUrl: string | undefined, nodes: number) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `pingme-bench-${name}-`));
      dirs.push(dir);
      const env = {
        ...serverEnv(dir),
        SESSION_SECRET: SECRET,
        ...(databaseUrl
          ? { DATABASE_URL: overUnixSocket(databaseUrl, cluster.dir), DATABASE_POOL_SIZE: '10' }
          : {}),
      };
      const config = loadConfig({ ...process.env, ...env });
      const db = await openDatabase(databaseUrl ?? config.dbFile);
      opened.push(db);
      const t = performance.now();
      const world = await seedWorld(db.db, config, SIZES);
      log(`${name}: seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const list: Child[] = [];
      for (let i = 0; i < nodes; i++) {
        const child = await startChild('server', env, { quiet: true });
        children.push(child);
        list.push(child);
      }
      return { name, nodes: list, world, opened: db } satisfies Setup;
    };

    const sqlite = await start('sqlite', undefined, 1);
    const pgUrl = await createDatabase(cluster.url);
    // One node on PostgreSQL first, then a second node on the same database.
    const single = await start('postgres', pgUrl, 1);

    const sendRun = async (s: Setup, nodes: Child[]) => {
      await spread(nodes, opts.connections, opts.quick ? 1 : 3, (n) => ({
        url: n.url,
        connections: 0,
        durationS: 0,
        setupRequest: makeSender(s.world, n.url, startOf(nodes, n)),
      }));
      return spread(nodes, opts.connections, sendS, (n) => ({
        url: n.url,
        connections: 0,
        durationS: 0,
        setupRequest: makeSender(s.world, n.url, startOf(nodes, n)),
      }));
    };
    const mixedRun = async (s: Setup, nodes: Child[]) => {
      const cursors = await countersOf(
        s.opened.db,
        s.world.ring.users.map((u) => u.id),
      );
      const mixes = nodes.map((n) =>
        makeMixed(s.world, n.url, cursors, undefined, startOf(nodes, n)),
      );
      // Where the two CPUs go meanwhile: the nodes, PostgreSQL (the postmaster and every
      // backend), and this process, the load generator.
      const deadlocks = async () =>
        s.opened.dialect === 'postgres'
          ? Number(
              (
                await sql<{
                  n: string;
                }>`select deadlocks as n from pg_stat_database where datname = current_database()`.execute(
                  s.opened.db,
                )
              ).rows[0]?.n ?? 0,
            )
          : 0;
      const deadlocksBefore = await deadlocks();
      const postmaster = cluster.postmasterPid();
      const meters = {
        nodes: cpuMeter(() => nodes.map((n) => n.pid)),
        postgres: cpuMeter(() => [postmaster, ...descendantsOf(postmaster)]),
        generator: cpuMeter(() => [process.pid]),
      };
      const results = await spread(nodes, opts.connections, mixedS, (n) => {
        const mix = mixes[nodes.indexOf(n)]!;
        return {
          url: n.url,
          connections: 0,
          durationS: 0,
          setupRequest: mix.setupRequest,
          onResponse: mix.onResponse,
        };
      });
      const cpu = {
        nodes: meters.nodes(),
        postgres: s.opened.dialect === 'postgres' ? meters.postgres() : 0,
        generator: meters.generator(),
      };
      // PostgreSQL counts a backend's deadlocks when it reports its statistics (within a second).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const deadlocksDuring = (await deadlocks()) - deadlocksBefore;
      const byKind = (k: Kind) => mixes.reduce((sum, m) => sum + m.byKind[k].requests, 0);
      const seconds = Math.max(...results.map((r) => r.durationS));
      const requests = total(results, (r) => r.requests);
      return {
        results,
        sendsPerS: byKind('send') / seconds,
        byKind: mixes.map((m) => m.byKind),
        budget: cpuBudget(cpu, requests, byKind('send') / requests),
        deadlocks: deadlocksDuring,
      };
    };

    const figures = async (label: string, s: Setup, nodes: Child[]) => {
      log(`${label}: ping sends, ${sendS} s`);
      const send = await sendRun(s, nodes);
      const sendErrors = total(send, (r) => r.non2xx + r.errors);
      info(
        '7',
        `${label}: ping sends/s`,
        total(send, (r) => r.rps),
        'req/s',
      );
      info('7', `${label}: ping send p99`, Math.max(...send.map((r) => r.p99)), 'ms');
      info('7', `${label}: ping send errors`, sendErrors);
      log(`${label}: mixed load, ${mixedS} s`);
      const mixed = await mixedRun(s, nodes);
      const mixedErrors = total(mixed.results, (r) => r.non2xx + r.errors);
      info(
        '7',
        `${label}: mixed load, requests/s`,
        total(mixed.results, (r) => r.rps),
        'req/s',
      );
      info('7', `${label}: mixed load, p99`, Math.max(...mixed.results.map((r) => r.p99)), 'ms');
      const { budget } = mixed;
      if (s.opened.dialect === 'postgres') {
        info(
          '7',
          `${label}: mixed load, deadlocks PostgreSQL broke (each a group run again)`,
          mixed.deadlocks,
        );
      }
      info('7', `${label}: mixed load, CPU per request: nodes`, budget.nodesUs, 'µs');
      if (s.opened.dialect === 'postgres') {
        info('7', `${label}: mixed load, CPU per request: PostgreSQL`, budget.postgresUs, 'µs');
      }
      info('7', `${label}: mixed load, CPU per request: load generator`, budget.generatorUs, 'µs');
      info(
        '7',
        `${label}: mixed load, sends/s ${CPUS} CPUs allow at that CPU per request`,
        budget.sendsCeiling,
        'req/s',
      );
      raw[label] = { send, mixed };
      return { send, sendErrors, mixed, mixedErrors };
    };

    const lite = await figures('1 node, SQLite', sqlite, sqlite.nodes);
    info('7', '1 node, SQLite: mixed load, sends/s', lite.mixed.sendsPerS, 'req/s');
    info('7', '1 node, SQLite: mixed load, errors', lite.mixedErrors);
    for (const c of sqlite.nodes) await c.stop();

    const one = await figures('1 node, PostgreSQL', single, single.nodes);
    info('7', '1 node, PostgreSQL: mixed load, sends/s', one.mixed.sendsPerS, 'req/s');
    info('7', '1 node, PostgreSQL: mixed load, errors', one.mixedErrors);
    const pgEnv = {
      ...serverEnv(dirs[1]!),
      SESSION_SECRET: SECRET,
      DATABASE_URL: pgUrl,
      DATABASE_POOL_SIZE: '10',
    };
    // Group commit on PostgreSQL (mutations/coalesce.ts): the same sends on a node that commits
    // every write on its own, its transactions side by side on the pool's connections.
    const alone = await startChild(
      'server',
      { ...pgEnv, WRITE_COALESCING: 'false' },
      { quiet: true },
    );
    log('1 node, PostgreSQL, one commit per write: ping sends');
    const aloneSend = await sendRun(single, [alone]);
    await alone.stop();
    raw.oneCommitPerWrite = aloneSend;
    info(
      '7',
      '1 node, PostgreSQL, WRITE_COALESCING=false: ping sends/s',
      total(aloneSend, (r) => r.rps),
      'req/s',
    );
    info(
      '7',
      '1 node, PostgreSQL, WRITE_COALESCING=false: p99',
      Math.max(...aloneSend.map((r) => r.p99)),
      'ms',
    );
    const second = await startChild('server', pgEnv, { quiet: true });
    children.push(second);
    const both = [...single.nodes, second];
    const two = await figures('2 nodes, PostgreSQL', single, both);
    check(
      '7',
      `2 nodes, PostgreSQL: mixed load, sends/s over ${mixedS} s`,
      two.mixed.sendsPerS,
      'req/s',
      '≥ 1500 /s',
      two.mixed.sendsPerS >= 1500,
    );
    check(
      '7',
      '2 nodes, PostgreSQL: mixed load, errors',
      two.mixedErrors,
      '',
      '0',
      two.mixedErrors === 0,
    );

    log(`delivery across nodes: ${deliveryPings} pings, 5,000 other sockets over both nodes`);
    const delivery = await deliveryAcross(single.world, both, deliveryPings);
    raw.delivery = delivery;
    info('7', 'send on node 1 → new_ping on node 2: p50', delivery.p50, 'ms');
    check(
      '7',
      'send on node 1 → new_ping on node 2: p99, 5,000 sockets',
      delivery.p99,
      'ms',
      '< 50 ms',
      delivery.p99 < 50,
    );
    info('7', 'send on node 1 → new_ping on node 2: max', delivery.max, 'ms');

    log('NOTIFY: write transactions with and without pg_notify');
    const notify = await notifyCost(pgUrl, opts.quick ? 3 : 8);
    raw.notify = notify;
    info('7', 'PostgreSQL write transactions/s, no NOTIFY (16 clients)', notify.without, 'tx/s');
    info('7', 'PostgreSQL write transactions/s, NOTIFY in each', notify.with, 'tx/s');
    return raw;
  } finally {
    for (const c of children.reverse()) await c.stop();
    for (const o of opened) await o.close();
    await cluster.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The receiver's socket on node 2, 5,000 others spread over both nodes; each ping sent through
 * node 1, one at a time, timed from the send to its new_ping frame on node 2.
 */
async function deliveryAcross(world: World, nodes: Child[], pings: number) {
  const [n1, n2] = nodes as [Child, Child];
  const { receiver, senders, otherSockets } = world.delivery;
  const others: WebSocket[] = [];
  const cookies = otherSockets.slice(0, 5000).map((u) => u.cookie);
  others.push(...(await openSockets(n1.url, cookies.slice(0, 2500))));
  others.push(...(await openSockets(n2.url, cookies.slice(2500))));
  const rx = await openSocket(n2.url, receiver.cookie);
  const arrivals = newPingArrivals(rx);
  const times: number[] = [];
  try {
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < pings + 20; i++) {
      const id = uuidv7();
      const arrived = arrivals.next(id);
      const t0 = performance.now();
      const res = await request(n1.url, 'POST', '/api/pings', {
        cookie: senders[i % senders.length]!.cookie,
        body: { id, promptId: world.promptId, receiverId: receiver.id },
      });
      if (res.status !== 201) throw new Error(`delivery send answered ${res.status}`);
      const t = (await arrived) - t0;
      if (i >= 20) times.push(t);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    rx.close();
    await closeSockets(others);
  }
  return summarise(times);
}

/** Small write transactions from 16 clients for `seconds`, with and without a NOTIFY in each. */
async function notifyCost(url: string, seconds: number) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('create table if not exists bench_notify (id bigint, at bigint)');
  await admin.query('listen bench_channel');
  let heard = 0;
  admin.on('notification', () => (heard += 1));
  const run = async (notify: boolean) => {
    const clients = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        return c;
      }),
    );
    let count = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      clients.map(async (c, i) => {
        while (performance.now() < until) {
          await c.query('begin');
          await c.query('insert into bench_notify values ($1, $2)', [i, Date.now()]);
          if (notify) await c.query("select pg_notify('bench_channel', $1)", [`c:${i}:${count}`]);
          await c.query('commit');
          count += 1;
        }
      }),
    );
    await Promise.all(clients.map((c) => c.end()));
    return count / seconds;
  };
  const without = await run(false);
  const withNotify = await run(true);
  await new Promise((r) => setTimeout(r, 500));
  await admin.query('drop table bench_notify');
  await admin.end();
  return { without, with: withNotify, heard };
}
