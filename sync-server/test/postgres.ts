/**
 * A throw-away PostgreSQL for tests and benches: Debian's `postgresql` package, a cluster made with
 * initdb in a temporary directory and started on a free loopback port, stopped and removed at
 * the end. PostgreSQL refuses to run as root: as root (CI, this project's machines) the cluster
 * belongs to the `postgres` user the package creates, and its commands run through `runuser`.
 *
 *   const cluster = await startPostgresCluster();    // cluster.url: the postgres database
 *   const url = await createDatabase(cluster.url);    // a fresh, empty database
 *   await cluster.stop();
 *
 * PINGME_TEST_POSTGRES_URL names a server to use instead (scripts/test.mjs starts one for the
 * whole `npm test` and passes it on, so every project shares it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const INSTALL_POSTGRES =
  'sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql';

/** The directory of initdb and pg_ctl of the newest PostgreSQL installed, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export interface PostgresCluster {
  /** The admin URL (database `postgres`, user `postgres`, no password on loopback). */
  url: string;
  port: number;
  dir: string;
  /** The postmaster's process id (from postmaster.pid): its children are the cluster's backends. */
  postmasterPid(): number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The PostgreSQL a test setup uses: PINGME_TEST_POSTGRES_URL when set (npm test starts one cluster
 * for the whole run and sets it), else a cluster of its own, which `stop` removes.
 */
export async function testPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  const given = process.env.PINGME_TEST_POSTGRES_URL;
  if (given) return { adminUrl: given, stop: async () => {} };
  const cluster = await startPostgresCluster();
  return { adminUrl: cluster.url, stop: () => cluster.stop() };
}

/**
 * initdb and start. Settings for a throw-away cluster: no fsync (a crash of the machine loses a
 * test run, nothing else), room for the connections of many servers at once.
 */
export async function startPostgresCluster(
  opts: { settings?: Record<string, string> } = {},
): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      `The PostgreSQL tests need Debian's postgresql package. Install it with:\n  ${INSTALL_POSTGRES}`,
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const r = spawnSync(file, argv, { encoding: 'utf8' });
    if (r.status !== 0) {
      throw new Error(`${cmd} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    }
  };
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const data = path.join(dir, 'data');
  run(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const port = await freePort();
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    max_connections: '400',
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    ...opts.settings,
  };
  const options = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  run(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-o',
    options,
    '-w',
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    dir,
    postmasterPid: () =>
      Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

/** `url` with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * `url` through the server's Unix socket in `socketDir` instead of TCP (the `host` parameter
 * that node-postgres reads; the port names the socket file). docs/deploy.md: a node on the
 * database's own machine connects this way.
 */
export function overUnixSocket(url: string, socketDir: string): string {
  const u = new URL(url);
  u.searchParams.set('host', socketDir);
  return u.toString();
}

let made = 0;

/**
 * A new database on the server of `adminUrl` (a copy of `template` when given, which must have
 * no connections): its URL.
 */
export async function createDatabase(adminUrl: string, template?: string): Promise<string> {
  made += 1;
  const name = `pingme_${process.pid}_${made}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Byte order, as the columns declare it anyway (db/dialect.ts), whatever the server's locale.
    await client.query(
      template
        ? `create database ${name} template ${template}`
        : `create database ${name} template template0 lc_collate 'C' lc_ctype 'C'`,
    );
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/** Drops the database of `url` (connections still open to it are ended). */
export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
