/**
 * The SQLite driver must survive the garbage collector on the Node in use. better-sqlite3 12, built
 * against the headers of Node 24.19 or newer, aborted the process (`Assertion failed: (env) !=
 * nullptr` in node::RemoveEnvironmentCleanupHook) when the collector destroyed a prepared
 * statement (nodejs/node#65446): about one `npm start` in 12 died before listening, and test
 * workers died mid-run. Version 13 uses Node-API and does not register that hook. This runs the
 * same kind of work in a child process of the same Node, where an abort is an exit code, not a
 * lost test worker.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'statements-under-gc.cjs');

describe(`better-sqlite3 on Node ${process.version}`, () => {
  it('prepares and drops 20,000 statements under forced garbage collection without aborting', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', SCRIPT, '200'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const report = `exit ${run.status}, signal ${run.signal}\n${run.stderr}`;
    expect(run.signal, report).toBeNull();
    expect(run.status, report).toBe(0);
    expect(run.stdout.trim()).toBe('ok 20000');
  }, 150_000);
});
