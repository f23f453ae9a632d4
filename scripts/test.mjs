#!/usr/bin/env node
// `npm test`: every test of the product, in the order that fails fastest.
// 1. types (tsc -b), lint and formatting, 2. unit and route tests (vitest), 3. browser tests in real
// Chromium against the built PWA, when the PWA has them (installing Debian's chromium if missing).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(cmd, args, opts = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

run('npx', ['tsc', '-b']);
run('npx', ['eslint', '.']);
run('npx', ['prettier', '--check', '.']);
run('npx', ['vitest', 'run']);

if (existsSync('pwa/e2e')) {
  ensureChromium();
  run('npm', ['run', 'build', '--workspace', 'pwa']);
  run('npx', ['vitest', 'run', '--config', 'pwa/vitest.e2e.config.ts']);
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
