#!/usr/bin/env node
// `npm test`: every test of the product, in the order that fails fastest.
// 0. Debian's postgresql is there (installed with apt when run as root), 1. types (tsc -b), lint
// and formatting, 2. unit and route tests (vitest; those on PostgreSQL share one throw-away
// cluster started here), 3. browser tests in real Chromium against the built PWA, when the PWA has
// them (installing Debian's chromium if missing).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';

let cluster;

function run(cmd, args, opts = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    cluster?.kill('SIGTERM');
    process.exit(r.status || 1);
  }
}

ensurePostgres();
run('npx', ['tsc', '-b']);
run('npx', ['eslint', '.']);
run('npx', ['prettier', '--check', '.']);
const postgresUrl = process.env.PINGME_TEST_POSTGRES_URL || (await startCluster());
run('npx', ['vitest', 'run'], { env: { ...process.env, PINGME_TEST_POSTGRES_URL: postgresUrl } });
await stopCluster();

if (existsSync('pwa/e2e')) {
  ensureChromium();
  run('npm', ['run', 'build', '--workspace', 'pwa']);
  run('npx', ['vitest', 'run', '--config', 'pwa/vitest.e2e.config.ts']);
}

/** The newest PostgreSQL server Debian installed (initdb), or undefined. */
function postgresInstalled() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return false;
  return readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`));
}

function ensurePostgres() {
  if (process.env.PINGME_TEST_POSTGRES_URL || postgresInstalled()) return;
  if (process.getuid?.() === 0) {
    console.log("PostgreSQL is missing: installing Debian's postgresql package");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
      stdio: 'inherit',
      env,
    });
    if (postgresInstalled()) return;
  }
  console.error(
    "The tests on PostgreSQL need Debian's postgresql package. Install it with:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql\n(or set PINGME_TEST_POSTGRES_URL to a server the tests may create databases on)",
  );
  process.exit(1);
}

/** One throw-away cluster for every project of the run (sync-server/test/postgres-cli.ts). */
async function startCluster() {
  cluster = spawn(process.execPath, ['--import', 'tsx', 'sync-server/test/postgres-cli.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: cluster.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('url=')) resolve(line.slice(4));
    });
    cluster.once('exit', (code) => reject(new Error(`PostgreSQL did not start (exit ${code})`)));
  });
  console.log(`\nPostgreSQL for this run: ${url}`);
  return url;
}

async function stopCluster() {
  if (!cluster || cluster.exitCode !== null) return;
  const exited = new Promise((resolve) => cluster.once('exit', resolve));
  cluster.kill('SIGTERM');
  await exited;
}

function ensureChromium() {
  const bin = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(bin)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    console.log("Chromium is missing: installing Debian's chromium package");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env,
    });
    if (r.status === 0 && existsSync(bin)) return;
  }
  console.error(
    `Browser tests need Chromium at ${bin}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n(or set CHROMIUM_PATH to a Chromium binary)`,
  );
  process.exit(1);
}
