/**
 * `npm run backup` (scripts/backup.ts) as an operator runs it: a separate process beside a real
 * server process that is taking a stream of sends. The copy is restored into a new DATA_DIR,
 * checked with PRAGMA integrity_check, searched for every send acknowledged before the backup
 * began, and served by a new server.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, RELAXED_LIMITS } from '../../test/harness';
import { ServerProcess } from '../../test/server-process';
import { REPO_ROOT } from '../config';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run backup -- ARGS` without npm: the same script through tsx, as a child process. */
function backup(dataDir: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'sync-server/src/scripts/backup.ts', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'pingme-backup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function person(url: string, name: string) {
  const c = new Client(url);
  const res = await c.post('/api/register', {
    email: `${name}-${Date.now()}@backup.test`,
    password: `${name}-password`,
    firstName: name,
    lastName: 'Backup',
  });
  expect(res.status).toBe(201);
  return { client: c, id: res.body.id as string, email: res.body.email as string };
}

describe('npm run backup under a stream of sends', () => {
  const proc = new ServerProcess({ env: RELAXED_LIMITS });
  afterAll(() => proc.dispose());

  it('copies every acknowledged send, passes integrity_check, and serves once restored', async () => {
    await proc.start();
    const a = await person(proc.url, 'ann');
    const b = await person(proc.url, 'bob');
    const asked = await a.client.post('/api/friends/request', { friendId: b.id });
    expect(
      (await b.client.post('/api/friends/accept', { requestId: asked.body.requestId })).status,
    ).toBe(200);
    // The highest daily limit a person may set, for both receivers.
    for (const who of [a, b]) {
      const limit = await who.client.put('/api/profile/update', { rateLimitPerDay: 1000 });
      expect(limit.status).toBe(200);
    }
    const prompt = (await a.client.get('/api/prompts/default')).body[0] as { id: string };

    // Two senders' streams (Ann to Bob, Bob to Ann) until told to stop.
    const acked: string[] = [];
    let sending = true;
    const stream = async (from: typeof a, to: typeof b) => {
      while (sending) {
        const res = await from.client.post('/api/pings', {
          promptId: prompt.id,
          receiverId: to.id,
        });
        expect(res.status).toBe(201);
        acked.push(res.body.id as string);
      }
    };
    const streams = Promise.all([stream(a, b), stream(b, a)]);
    try {
      while (acked.length < 40) await new Promise((r) => setTimeout(r, 10));

      const before = [...acked];
      const file = path.join(work, 'pingme-backup.sqlite');
      const run = await backup(proc.dataDir, [file]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Backed up .* to .*pingme-backup\.sqlite: \d+ pages/);
      const during = acked.length;
      // The stream went on while the copy was taken, and goes on after it.
      while (acked.length < during + 10) await new Promise((r) => setTimeout(r, 10));
      sending = false;
      await streams;

      // Restore: the copy as pingme.sqlite of a new DATA_DIR (with the secrets, README "Backups").
      const restored = mkdtempSync(path.join(work, 'restored-'));
      copyFileSync(file, path.join(restored, 'pingme.sqlite'));
      writeFileSync(
        path.join(restored, 'secrets.json'),
        readFileSync(path.join(proc.dataDir, 'secrets.json')),
      );
      const db = new BetterSqlite3(path.join(restored, 'pingme.sqlite'));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const present = new Set(
          (db.prepare('SELECT id FROM pings').all() as { id: string }[]).map((r) => r.id),
        );
        const missing = before.filter((id) => !present.has(id));
        expect(missing).toEqual([]);
        // Whatever else it holds was acknowledged too: nothing half-written, nothing invented.
        expect([...present].every((id) => acked.includes(id))).toBe(true);
      } finally {
        db.close();
      }

      const again = new ServerProcess({ dataDir: restored, env: RELAXED_LIMITS });
      try {
        await again.start();
        expect((await new Client(again.url).get('/readyz')).status).toBe(200);
        const ann = new Client(again.url);
        const login = await ann.post('/api/login', { email: a.email, password: 'ann-password' });
        expect(login.status).toBe(200);
        expect((await ann.get('/api/pings/total-count')).status).toBe(200);
      } finally {
        await again.dispose();
      }
    } finally {
      sending = false;
      await streams.catch(() => undefined);
    }
  }, 180_000);
});

describe('npm run backup: usage', () => {
  let dataDir: string;
  beforeAll(async () => {
    // A real database to copy: a server made it and stopped.
    const proc = new ServerProcess({ dataDir: mkdtempSync(path.join(work, 'data-')) });
    await proc.start();
    await proc.stop();
    dataDir = proc.dataDir;
  });

  it('without FILE, with two, or with an unknown option: usage and exit 2, nothing written', async () => {
    for (const args of [[], ['one.sqlite', 'two.sqlite'], ['--fast', 'x.sqlite']]) {
      const run = await backup(
        dataDir,
        args.map((a) => (a.startsWith('-') ? a : path.join(work, a))),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('Usage: npm run backup -- FILE [--force]');
    }
  });

  it('refuses to replace an existing FILE without --force, and replaces it with --force', async () => {
    const file = path.join(work, 'existing.sqlite');
    writeFileSync(file, 'not a database');
    const refused = await backup(dataDir, [file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('exists: pass --force to replace it');
    expect(readFileSync(file, 'utf8')).toBe('not a database');

    const forced = await backup(dataDir, [file, '--force']);
    expect(forced.code).toBe(0);
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(
        db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'users'").get(),
      ).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('says so when DATA_DIR has no database, and creates nothing there', async () => {
    const empty = mkdtempSync(path.join(work, 'empty-'));
    const run = await backup(empty, [path.join(work, 'from-empty.sqlite')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No database at');
    expect(readdirSync(empty)).toEqual([]);
  });
});
