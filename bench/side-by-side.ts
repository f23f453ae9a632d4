/**
 * Two servers side by side: how much server CPU a request costs in tree B against tree A, on
 * copies of one seeded world, in short phases that alternate (A first in even rounds, B first in
 * odd ones), so the machine's drift from one minute to the next falls on both alike
 * (docs/performance.md, "Side by side"). Each server is the crash tests' child
 * (sync-server/test/server-child.ts) run from its own tree with `npm run serve`'s heap flags; every
 * person of the ring has a socket open on both, so a send fans out as in benchmark 1.
 *
 *   npx tsx bench/side-by-side.ts --a . --b /tmp/other-tree [--load send] [--connections 50]
 *     [--phase 3] [--rounds 8] [--no-sockets] [--postgres [--second-node]] [--profile <dir>]
 *
 * --load: send (REST ping sends), batch1 / batch50 (the same as 1- or 50-entry batches), user
 * (GET /api/user), mixed (benchmark 3's mixed load), or one kind of it alone: reaction, pull, read
 * (mark-all-read). A tree is a checkout with its own sources (`git worktree add`, with
 * node_modules and sync-server/node_modules linked from this one). Variables named `B_<NAME>` in
 * the environment reach server B only, as `<NAME>`: a knock-out behind an environment variable
 * compares one tree with itself. Prints CPU per request and requests/s per round, the mean of
 * B/A - 1 with its standard error, and each server's threads' CPU time. Two processes of one
 * tree differ by up to a few percent: compare a change with that spread (--b the same tree).
 * --postgres: each server on a PostgreSQL database of its own (B's a copy of A's seeded one), in
 * one throw-away cluster started for the run (as the cluster bench's), through its Unix socket;
 * PostgreSQL's own CPU per request is printed too (the cluster's in each phase: one server is
 * loaded at a time).
 * --second-node (with --postgres): each side runs a second node of its tree on its database, and
 * the ring's sockets open there instead of on the loaded one, so every write reaches them through
 * the bus and the relay (realtime/relay.ts, docs/deploy.md); CPU per request is both nodes', and
 * each phase prints each node's.
 * --profile <dir>: server A runs with --cpu-prof and writes its profile there when it stops
 * (summarise it with bench/profile.ts).
 */
import { fork } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../sync-server/src/config';
import { countersOf } from '../sync-server/src/db/changes';
import { openDatabase } from '../sync-server/src/db/connection';
import { cpuMeter, cpuMs, descendantsOf, serverEnv } from './lib/children';
import { runLoad } from './lib/load';
import { makeMixed } from './benches/sustained';
import { baseHeaders, makeBatchSender, makeSender } from './lib/requests';
import {
  createDatabase,
  overUnixSocket,
  startPostgresCluster,
  type PostgresCluster,
} from '../sync-server/test/postgres';
import { DEFAULT_SIZES, seedWorld, type World } from './lib/seed';
import { closeSockets, openSockets } from './lib/sockets';
import { meanAndError } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string', default: '.' },
    b: { type: 'string' },
    load: { type: 'string', default: 'send' },
    profile: { type: 'string' },
    connections: { type: 'string', default: '50' },
    phase: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '8' },
    'no-sockets': { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    'second-node': { type: 'boolean', default: false },
  },
});
if (!args.b) {
  console.error(
    'usage: tsx bench/side-by-side.ts --a <tree> --b <tree> [--load send|batch1|batch50|user|mixed|reaction|pull|read]',
  );
  process.exit(2);
}
const LOADS = ['send', 'batch1', 'batch50', 'user', 'mixed', 'reaction', 'pull', 'read'] as const;
type Load = (typeof LOADS)[number];
if (!LOADS.includes(args.load as Load)) throw new Error(`unknown load ${args.load}`);
const load = args.load as Load;
if (args['second-node'] && !args.postgres) throw new Error('--second-node needs --postgres');
const connections = Number(args.connections);
const phaseS = Number(args.phase);
const rounds = Number(args.rounds);

type Requests = Pick<Parameters<typeof runLoad>[0], 'setupRequest' | 'onResponse'>;
/** The mixed load (or one kind of it) of each server, kept across phases for its pull cursors. */
const mixes = new Map<string, ReturnType<typeof makeMixed>>();

/** The requests of the load, against the server at `url`. */
function requestsOf(world: World, url: string, cursors: ReadonlyMap<string, number>): Requests {
  switch (load) {
    case 'send':
      return { setupRequest: makeSender(world, url) };
    case 'batch1':
      return { setupRequest: makeBatchSender(world, url, 1) };
    case 'batch50':
      return { setupRequest: makeBatchSender(world, url, 50) };
    case 'user': {
      let n = 0;
      const { users } = world.ring;
      return {
        setupRequest: (req) => ({
          ...req,
          method: 'GET',
          path: '/api/user',
          headers: baseHeaders(url, users[n++ % users.length]!.cookie, false),
        }),
      };
    }
    case 'mixed':
    case 'reaction':
    case 'pull':
    case 'read': {
      let mix = mixes.get(url);
      if (!mix) {
        mix = makeMixed(world, url, cursors, load === 'mixed' ? undefined : load);
        mixes.set(url, mix);
      }
      return { setupRequest: mix.setupRequest, onResponse: mix.onResponse };
    }
  }
}

interface Server {
  name: string;
  pid: number;
  url: string;
  stop(): void;
}

/** The server of `tree`, on its own port, configured from `env` like `npm start`. */
async function startServer(
  name: string,
  tree: string,
  env: Record<string, string>,
  cpuProfDir?: string,
) {
  const pkg = JSON.parse(readFileSync(path.join(tree, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const heapFlags = pkg.scripts.serve!.split(/\s+/).filter((f) => f.startsWith('--max-'));
  const proc = fork(path.join(tree, 'sync-server', 'test', 'server-child.ts'), [], {
    execArgv: [
      '--import',
      'tsx',
      ...heapFlags,
      ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    cwd: tree,
  });
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`server ${name} exited with ${code}`)));
    proc.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'ready' && m.port) resolve(m.port);
    });
  });
  return {
    name,
    pid: proc.pid!,
    url: `http://127.0.0.1:${port}`,
    stop: () => proc.kill('SIGTERM'),
  } satisfies Server;
}

/** CPU time of each thread of a process that used more than 0.1 s, by the thread's name. */
function threadsOf(pid: number): string {
  const used: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const s = (Number(fields[11]) + Number(fields[12])) / 100;
    if (s > 0.1) used.push(`${name} ${s.toFixed(1)} s`);
  }
  return used.join(', ');
}

const dirA = mkdtempSync(path.join(os.tmpdir(), 'pingme-side-a-'));
const dirB = mkdtempSync(path.join(os.tmpdir(), 'pingme-side-b-'));
const envB: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) {
  if (k.startsWith('B_') && v !== undefined) envB[k.slice(2)] = v;
}
const servers: Server[] = [];
let cluster: PostgresCluster | undefined;
try {
  const databases: Record<string, string>[] = [{}, {}];
  let location: string | undefined;
  if (args.postgres) {
    cluster = await startPostgresCluster({
      settings: { synchronous_commit: 'off', shared_buffers: '256MB' },
    });
    location = await createDatabase(cluster.url);
  }
  // On PostgreSQL the session secret is the nodes' own setting: one for the seed and both.
  if (cluster)
    databases.forEach((d) => (d.SESSION_SECRET = 'side-by-side-session-secret-0123456789'));
  const config = loadConfig({ ...process.env, ...serverEnv(dirA), ...databases[0] });
  const opened = await openDatabase(location ?? config.dbFile);
  const world = await seedWorld(opened.db, config, DEFAULT_SIZES);
  // Where each person's pulls start (the mixed load's): both servers' databases are this one.
  const cursors = await countersOf(
    opened.db,
    world.ring.users.map((u) => u.id),
  );
  await opened.close();
  // The data directory holds the secrets that signed the seeded sessions' cookies.
  cpSync(dirA, dirB, { recursive: true });
  if (cluster && location) {
    const copy = await createDatabase(cluster.url, new URL(location).pathname.slice(1));
    [location, copy].forEach((url, i) => {
      databases[i]!.DATABASE_URL = overUnixSocket(url, cluster!.dir);
      databases[i]!.DATABASE_POOL_SIZE = '10';
    });
  }
  const a = await startServer(
    'A',
    path.resolve(args.a),
    { ...serverEnv(dirA), ...databases[0] },
    args.profile && path.resolve(args.profile),
  );
  servers.push(a);
  const b = await startServer('B', path.resolve(args.b), {
    ...serverEnv(dirB),
    ...databases[1],
    ...envB,
  });
  servers.push(b);
  // --second-node: each server's second node, on its database, holding the sockets.
  const second = new Map<Server, Server>();
  if (args['second-node']) {
    const a2 = await startServer('A2', path.resolve(args.a), {
      ...serverEnv(dirA),
      ...databases[0],
    });
    servers.push(a2);
    second.set(a, a2);
    const b2 = await startServer('B2', path.resolve(args.b), {
      ...serverEnv(dirB),
      ...databases[1],
      ...envB,
    });
    servers.push(b2);
    second.set(b, b2);
  }
  const cookies = world.ring.users.map((u) => u.cookie);
  const socketsOn = (s: Server) => second.get(s) ?? s;
  const sockets = args['no-sockets']
    ? []
    : [
        ...(await openSockets(socketsOn(a).url, cookies)),
        ...(await openSockets(socketsOn(b).url, cookies)),
      ];

  // On PostgreSQL, the cluster's CPU in a phase is the loaded server's: the phases alternate.
  const postmaster = cluster?.postmasterPid();
  const phase = async (s: Server, durationS: number) => {
    const before = cpuMs(s.pid);
    const s2 = second.get(s);
    const before2 = s2 ? cpuMs(s2.pid) : 0;
    const database =
      postmaster === undefined
        ? undefined
        : cpuMeter(() => [postmaster, ...descendantsOf(postmaster)]);
    const r = await runLoad({
      url: s.url,
      connections,
      durationS,
      ...requestsOf(world, s.url, cursors),
    });
    if (r.non2xx + r.errors > 0) console.error(`  ${s.name}: failures`, r.statusCounts);
    let nodesMs = cpuMs(s.pid) - before;
    if (s2) {
      // The second node's relay finishes its last passes just after the load stops.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const relayMs = cpuMs(s2.pid) - before2;
      const us = (ms: number) => ((ms * 1000) / r.requests).toFixed(0);
      console.log(`  ${s.name}: ${us(nodesMs)} µs, ${s2.name} ${us(relayMs)} µs a request`);
      nodesMs += relayMs;
    }
    return {
      cpuMs: nodesMs / r.requests,
      rps: r.rps,
      databaseMs: database ? database() / r.requests : Number.NaN,
    };
  };
  await phase(a, phaseS);
  await phase(b, phaseS);
  const ratios: number[] = [];
  const cpu = { a: [] as number[], b: [] as number[] };
  const databaseCpu = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    const [first, second] = i % 2 ? [b, a] : [a, b];
    const one = await phase(first, phaseS);
    const two = await phase(second, phaseS);
    const [ra, rb] = i % 2 ? [two, one] : [one, two];
    cpu.a.push(ra.cpuMs);
    cpu.b.push(rb.cpuMs);
    databaseCpu.a.push(ra.databaseMs);
    databaseCpu.b.push(rb.databaseMs);
    ratios.push(rb.cpuMs / ra.cpuMs - 1);
    const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
    console.log(
      `round ${i + 1}: A ${us(ra.cpuMs)}, ${ra.rps.toFixed(0)}/s; B ${us(rb.cpuMs)}, ${rb.rps.toFixed(0)}/s; B/A - 1 = ${(ratios.at(-1)! * 100).toFixed(1)} %`,
    );
  }
  const change = meanAndError(ratios);
  const mean = (xs: number[]) => (meanAndError(xs).mean * 1000).toFixed(1);
  console.log(
    `${load}, ${connections} connections: A ${mean(cpu.a)} µs, B ${mean(cpu.b)} µs of CPU per request; B against A ${(change.mean * 100).toFixed(1)} % ± ${(change.standardError * 100).toFixed(1)}`,
  );
  if (postmaster !== undefined) {
    const dbChange = meanAndError(databaseCpu.b.map((b, i) => b / databaseCpu.a[i]! - 1));
    console.log(
      `PostgreSQL meanwhile: A ${mean(databaseCpu.a)} µs, B ${mean(databaseCpu.b)} µs of CPU per request; B against A ${(dbChange.mean * 100).toFixed(1)} % ± ${(dbChange.standardError * 100).toFixed(1)}`,
    );
  }
  for (const s of servers) console.log(`threads of ${s.name}: ${threadsOf(s.pid)}`);
  await closeSockets(sockets);
} finally {
  for (const s of servers) s.stop();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await cluster?.stop();
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
}
