/**
 * A build of the PWA as it was at an earlier commit, for the browser tests of an update (a device
 * that queued writes with the old app, then loads the new one). The commit's `pwa/` and `shared/`
 * come out of git into a temporary directory that borrows this checkout's installed packages;
 * `vite build` writes the app to a cache directory kept between runs (under node_modules/.cache).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function run(command: string, args: string[], cwd: string, more: NodeJS.ProcessEnv = {}): void {
  // A production build whoever calls: under vitest NODE_ENV is 'test', and Vite would then build
  // React's development version with import.meta.env.DEV true (no service worker registered).
  const env = { ...process.env, NODE_ENV: 'production', ...more };
  const res = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${res.status}): ${res.stderr?.toString() ?? ''}`,
    );
  }
}

/** `vite build` of the app in `pwaDir` into `out`, as a release is built. */
function viteBuild(pwaDir: string, out: string, env: NodeJS.ProcessEnv = {}): void {
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'];
  run(process.execPath, args, pwaDir, env);
}

/**
 * Makes sure `commit` is in this checkout's history. A shallow clone (CI systems often clone with
 * `--depth 1`) lacks it: fetch the whole history from where the clone came from, or say exactly
 * what to run.
 */
function ensureCommit(commit: string): void {
  const has = () =>
    spawnSync('git', ['-C', ROOT, 'cat-file', '-e', `${commit}^{commit}`]).status === 0;
  if (has()) return;
  spawnSync('git', ['-C', ROOT, 'fetch', '--quiet', '--unshallow'], { stdio: 'ignore' });
  if (has()) return;
  throw new Error(
    `The update test builds the PWA of commit ${commit}, which this clone does not have. ` +
      `Run: git -C ${ROOT} fetch --unshallow (or clone without --depth).`,
  );
}

/** The built PWA of `commit` (a directory like pwa/dist), building it once. */
export function pwaBuildOf(commit: string): string {
  const out = path.join(ROOT, 'node_modules', '.cache', 'pingme-e2e', `pwa-${commit}-production`);
  if (existsSync(path.join(out, 'index.html')) && existsSync(path.join(out, 'sw.js'))) return out;
  ensureCommit(commit);
  const src = mkdtempSync(path.join(os.tmpdir(), `pingme-pwa-${commit}-`));
  try {
    const tar = path.join(src, 'source.tar');
    run(
      'git',
      [
        '-C',
        ROOT,
        'archive',
        '--output',
        tar,
        commit,
        'pwa',
        'shared',
        'package.json',
        'tsconfig.base.json',
      ],
      ROOT,
    );
    run('tar', ['-xf', tar], src);
    // The packages installed here; @pingme/shared is that commit's own.
    const modules = path.join(src, 'node_modules');
    mkdirSync(path.join(modules, '@pingme'), { recursive: true });
    for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
      if (name === '@pingme' || name === '.cache' || name === '.bin') continue;
      symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
    }
    symlinkSync(path.join(src, 'shared'), path.join(modules, '@pingme', 'shared'));
    mkdirSync(out, { recursive: true });
    viteBuild(path.join(src, 'pwa'), out);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
  return out;
}

/**
 * This checkout's PWA built again under another version name (PINGME_VERSION, shown in
 * Settings › App): the same app with a visible difference, for a test of the update prompt that
 * serves it first and pwa/dist second. Built into a fresh temporary directory each time (the
 * sources may have changed since the last run); the caller removes it.
 */
export function pwaBuildNamed(version: string): string {
  const out = mkdtempSync(path.join(os.tmpdir(), `pingme-pwa-${version}-`));
  viteBuild(path.join(ROOT, 'pwa'), out, { PINGME_VERSION: version });
  return out;
}
