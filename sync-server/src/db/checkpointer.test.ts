import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer';
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

  it('is not started unless asked for: scripts and tests keep SQLite’s own checkpoints', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-checkpointer-'));
    const opened = await openDatabase(path.join(dir, 'db.sqlite'));
    expect(opened.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
