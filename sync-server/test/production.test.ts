/**
 * What `npm start` serves in production (README "Two commands"): the server compiled by
 * `npm run build --workspace sync-server` (scripts/build.mjs, esbuild) into one JavaScript file,
 * run by plain `node` with NODE_ENV=production: no tsx, no TypeScript at start. The build goes
 * to a directory of its own under sync-server/dist, so node_modules resolve as for dist/main.js.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLogLines } from './server-process';

const workspace = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(workspace, 'dist', `test-${process.pid}`);
const data = mkdtempSync(path.join(os.tmpdir(), 'pingme-prod-'));
const PAGE = '<!doctype html><title>PingMe</title><p>the built app</p>';
/** The node flags of `npm run serve`: between `node` and the script. */
const SERVE_FLAGS = (
  JSON.parse(readFileSync(path.join(workspace, '..', 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  }
).scripts.serve
  .split(/\s+/)
  .filter((f) => f.startsWith('--'));

let child: ChildProcess | undefined;
let log = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

beforeAll(async () => {
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ['scripts/build.mjs', '--outdir', outdir],
      { cwd: workspace },
      (err, _out, stderr) => (err ? reject(new Error(`build failed: ${stderr}`)) : resolve()),
    ),
  );
  const pwa = path.join(data, 'pwa');
  mkdirSync(pwa);
  writeFileSync(path.join(pwa, 'index.html'), PAGE);
  // Exactly what `npm run serve` runs (its node flags, read from the root package.json), with
  // nothing of the test runner's loaders.
  child = spawn(process.execPath, [...SERVE_FLAGS, path.join(outdir, 'main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: data,
      PWA_DIST: pwa,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  exited = new Promise((resolve) =>
    child!.once('exit', (code, signal) => resolve({ code, signal })),
  );
});

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(outdir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

async function started(): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const line = parseLogLines(log).find((e) => typeof e.port === 'number');
    if (line) return `http://127.0.0.1:${String(line.port)}`;
    if (child?.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the compiled server did not start:\n${log}`);
}

describe('the compiled server (NODE_ENV=production)', () => {
  it('is one JavaScript file that imports packages, with shared compiled in', () => {
    const js = readFileSync(path.join(outdir, 'main.js'), 'utf8');
    expect(js).not.toMatch(/from ["']@pingme\/shared/);
    expect(js).not.toMatch(/from ["']tsx/);
    expect(js).toMatch(/from ["']koa["']/);
  });

  it('starts with plain node, answers /healthz, /readyz and the app, and stops on SIGTERM', async () => {
    const url = await started();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const page = await fetch(`${url}/friends`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(PAGE);
    const session = await fetch(`${url}/api/session`);
    expect(await session.json()).toEqual({ user: null });

    child!.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    const entries = parseLogLines(log);
    expect(entries.map((e) => e.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PingMe is running/), 'stopping', 'stopped']),
    );
  });
});
