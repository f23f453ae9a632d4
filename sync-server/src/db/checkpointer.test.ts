import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { startTestServer } from '../../test/harness';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
import { openDatabase } from './connection';

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

async function until(done: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return done();
}

describe('the checkpoint thread (SQLite)', () => {
  it('copies the WAL into the file while the server connection only writes, and stops at close', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-checkpointer-'));
    const file = path.join(dir, 'db.sqlite');
    const { db, sqlite, close } = await openDatabase(file, { checkpointThread: true });
    try {
      // The server's own connection checkpoints only far past what this test writes.
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(
        FALLBACK_AUTOCHECKPOINT_PAGES,
      );
      const before = size(file);
      await sql`create table scratch (x blob)`.execute(db);
      // About 3,000 pages of 4 KB, in commits of 50 rows, as a stream of writes would.
      for (let i = 0; i < 30; i++) {
        await db.transaction().execute(async (trx) => {
          for (let j = 0; j < 50; j++)
            await sql`insert into scratch values (randomblob(8000))`.execute(trx);
        });
      }
      const written = 30 * 50 * 8000;
      // Only the thread can have copied them into the file.
      expect(await until(() => size(file) - before >= written)).toBe(true);
      const rows = await sql<{ n: number }>`select count(*) as n from scratch`.execute(db);
      expect(rows.rows[0]?.n).toBe(1500);
    } finally {
      await close();
    }
    // Stopped first, then the last checkpoint emptied the WAL: one self-contained file.
    expect(size(`${file}-wal`)).toBe(0);
    const again = await openDatabase(file);
    const rows = await sql<{ n: number }>`select count(*) as n from scratch`.execute(again.db);
    expect(rows.rows[0]?.n).toBe(1500);
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs in the server unless SQLITE_CHECKPOINT_THREAD=false', async () => {
    const autocheckpoint = async (env: Record<string, string>) => {
      const server = await startTestServer(env);
      try {
        return server.database.sqlite.pragma('wal_autocheckpoint', { simple: true });
      } finally {
        await server.close();
      }
    };
    expect(await autocheckpoint({})).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    expect(await autocheckpoint({ SQLITE_CHECKPOINT_THREAD: 'false' })).toBe(1000);
  });

  it('hands checkpoints back to the server connection when the thread fails', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-checkpointer-'));
    const sqlite = new BetterSqlite3(path.join(dir, 'db.sqlite'));
    // The thread opens a file that is not there (fileMustExist) and fails at once.
    const checkpointer = startCheckpointer(sqlite, path.join(dir, 'gone', 'db.sqlite'));
    expect(await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000)).toBe(
      true,
    );
    await checkpointer.stop();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is not started unless asked for: scripts and tests keep SQLite’s own checkpoints', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-checkpointer-'));
    const opened = await openDatabase(path.join(dir, 'db.sqlite'));
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
