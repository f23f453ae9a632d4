/** Builds pwa/ for a PWA benchmark into a directory of its own (never pwa/dist). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `vite build` into `outDir` (a fresh temporary directory when omitted); answers it. */
export function buildPwa(log: (s: string) => void, outDir?: string): string {
  const out = path.resolve(outDir ?? mkdtempSync(path.join(os.tmpdir(), 'pingme-pwa-')));
  const started = performance.now();
  const res = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir'], {
    cwd: path.join(ROOT, 'pwa'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`vite build failed (exit ${res.status})`);
  log(`built pwa/ into ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return out;
}
