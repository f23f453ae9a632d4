/**
 * Migration 008 (change numbers per person) on a SQLite file written before it: the rows keep
 * their numbers and every counter starts at the highest number issued, so a cursor a device got
 * from the old global log means what it meant: a pull from it brings exactly the person's later
 * changes, with no snapshot, and the numbers given after the migration follow on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { pull } from '../sync/pull';
import { appendChanges, counterOf } from './changes';
import { openDatabase } from './connection';
import { migrations } from './migrations/index';
import type { Database } from './schema';
import { personRow } from '../../test/rows';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A database file at migration 007, as the server left it before per-person numbers. */
async function fileBefore008(): Promise<string> {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-008-'));
  const file = path.join(dir, 'pingme.sqlite');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(file) }),
    plugins: [new CamelCasePlugin()],
  });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo('007-written-at');
  if (error) throw error;
  const now = new Date().toISOString();
  const person = (id: string) => personRow(id, now);
  await db
    .insertInto('users')
    .values([person('ann'), person('ben'), person('quiet')])
    .execute();
  // The old global log: numbers 1..6 shared by everyone, interleaved.
  const old = db as unknown as Kysely<{
    changes: { userId: string; entity: string; entityId: string; op: string; createdAt: string };
  }>;
  for (const [userId, entityId] of [
    ['ann', 'p1'],
    ['ben', 'p1'],
    ['ann', 'p2'],
    ['ben', 'p3'],
    ['ben', 'p4'],
    ['ann', 'p5'],
  ] as const) {
    await old
      .insertInto('changes')
      .values({ userId, entity: 'ping', entityId, op: 'upsert', createdAt: now })
      .execute();
  }
  await db.destroy();
  return file;
}

describe('migration 008 on a database with the old global change log', () => {
  it('keeps every number, so old cursors pull exactly the later changes; new numbers follow on', async () => {
    const file = await fileBefore008();
    const { db, close } = await openDatabase(file);
    try {
      // Everyone's counter starts at the highest number the old log issued (6), quiet people too.
      expect(await counterOf(db, 'ann')).toEqual({ seq: 6, floor: 0 });
      expect(await counterOf(db, 'quiet')).toEqual({ seq: 6, floor: 0 });

      // Ann's device pulled when the global log was at 4: it has p1 and p2, not p5.
      const fromOld = await pull(db, 'ann', { since: 4 });
      expect(fromOld.reset).toBe(false);
      expect(fromOld.changes.map((c) => c.id)).toEqual(['p5']);
      expect(fromOld.cursor).toBe(6);
      // Ben's device at 2 gets p3 and p4; at 6, nothing.
      expect((await pull(db, 'ben', { since: 2 })).changes.map((c) => c.id)).toEqual(['p3', 'p4']);
      expect((await pull(db, 'ben', { since: 6 })).changes).toEqual([]);
      // A quiet person's device, whose cursor was the global newest, is up to date as it is.
      expect(await pull(db, 'quiet', { since: 6 })).toMatchObject({ reset: false, changes: [] });

      // New changes are numbered after 6, per person, without holes.
      await appendChanges(db, [
        { userId: 'ann', entity: 'ping', entityId: 'p6', op: 'create' },
        { userId: 'quiet', entity: 'ping', entityId: 'p6', op: 'create' },
      ]);
      await appendChanges(db, [{ userId: 'ann', entity: 'ping', entityId: 'p7', op: 'create' }]);
      expect(await counterOf(db, 'ann')).toEqual({ seq: 8, floor: 0 });
      expect(await counterOf(db, 'quiet')).toEqual({ seq: 7, floor: 0 });
      const later = await pull(db, 'ann', { since: 6 });
      expect(later.changes.map((c) => c.id)).toEqual(['p6', 'p7']);
      expect(later.cursor).toBe(8);
      // A cursor this log never issued (past the person's newest) still means a snapshot.
      expect((await pull(db, 'ben', { since: 7 })).reset).toBe(true);
    } finally {
      await close();
    }
  });
});
