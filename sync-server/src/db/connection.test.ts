import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { appendChanges, counterOf } from './changes';
import { notReadyReason, openDatabase, withStatementCache } from './connection';
import { visiblePingIds } from './pings';
import { personRow } from '../../test/rows';

describe('withStatementCache', () => {
  it('answers the same prepared statement for the same SQL, and evicts the least recently used', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const db = withStatementCache(sqlite, 2);
    const a = db.prepare('select 1 as x');
    expect(db.prepare('select 1 as x')).toBe(a);
    const b = db.prepare('select 2 as x');
    db.prepare('select 1 as x'); // a is now the most recently used
    db.prepare('select 3 as x'); // evicts b
    expect(db.prepare('select 1 as x')).toBe(a);
    expect(db.prepare('select 2 as x')).not.toBe(b);
    db.close();
    expect(sqlite.open).toBe(false);
  });

  it('keeps working across a schema change and inside transactions (Kysely on top)', async () => {
    const { db, close } = await openDatabase(':memory:');
    expect(await counterOf(db, 'u')).toEqual({ seq: 0, floor: 0 });
    const row = (entityId: string) => ({
      userId: 'u',
      entity: 'ping' as const,
      entityId,
      op: 'upsert' as const,
    });
    await db.transaction().execute(async (trx) => {
      await appendChanges(trx, [row('a'), row('b')]);
    });
    expect(await counterOf(db, 'u')).toEqual({ seq: 2, floor: 0 });
    await db.schema.createIndex('changes_test').on('changes').column('op').execute();
    await appendChanges(db, [row('c')]);
    expect(await counterOf(db, 'u')).toEqual({ seq: 3, floor: 0 });
    await close();
  });
});

describe('visiblePingIds', () => {
  it('lists the pings a person sent or received, ascending, page by page', async () => {
    const { db, close } = await openDatabase(':memory:');
    const now = new Date().toISOString();
    const person = (id: string) => personRow(id, now);
    await db
      .insertInto('users')
      .values([person('me'), person('f1'), person('f2')])
      .execute();
    const pings = ['p01', 'p02', 'p03', 'p04', 'p05', 'p06', 'p07'].map((id, i) => ({
      id,
      senderId: i % 2 ? 'me' : i % 3 ? 'f1' : 'f2',
      receiverId: i % 2 ? (i % 3 ? 'f1' : 'f2') : 'me',
      kind: 'custom' as const,
      customText: 'hi',
      isRead: 0,
      createdAt: now,
    }));
    // One ping between the two friends: not the person's.
    pings.push({ ...pings[0]!, id: 'p00', senderId: 'f1', receiverId: 'f2' });
    await db.insertInto('pings').values(pings).execute();
    const pages: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await visiblePingIds(db, 'me', after, 3);
      if (page.length === 0) break;
      pages.push(page);
      after = page[page.length - 1];
    }
    expect(pages).toEqual([['p01', 'p02', 'p03'], ['p04', 'p05', 'p06'], ['p07']]);
    await close();
  });
});

describe('the savepoints of a shared transaction', () => {
  /** Files this process has open that are deleted (SQLite's temporary files are unnamed). */
  const deletedFiles = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).endsWith('(deleted)');
      } catch {
        return false; // closed meanwhile (the listing's own descriptor)
      }
    }).length;

  it('keep their sub-journal in memory, not in a temporary file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-subjournal-'));
    const { db, sqlite, close } = await openDatabase(path.join(dir, 'db.sqlite'));
    try {
      const now = new Date().toISOString();
      const people = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => personRow(`person-${randomUUID()}-${from + i}`, now));
      await db.insertInto('users').values(people(0, 3000)).execute();
      const before = deletedFiles();
      let during = before;
      // A group of writes as mutations/apply.ts runs them, each in its own savepoint. One of
      // them changes more than the 64 KB of pages SQLite keeps in memory by default (the rows
      // land all over the table's indexes), as a send that splits index pages can.
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) {
          await sql`savepoint write`.execute(trx);
          await trx
            .insertInto('users')
            .values(people(3000 + i * 100, 100))
            .execute();
          await sql`release write`.execute(trx);
        }
        during = deletedFiles();
      });
      expect(during).toBe(before);
      expect(sqlite?.pragma('temp_store', { simple: true })).toBe(2);
      expect(await db.selectFrom('users').select('id').execute()).toHaveLength(3300);
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a database a newer version has migrated', () => {
  it('opens and is ready: an old node restarted during a rolling upgrade comes back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-newer-'));
    const file = path.join(dir, 'db.sqlite');
    try {
      await (await openDatabase(file)).close();
      const raw = new BetterSqlite3(file);
      // Recorded as a newer version's migrator records it: 1 ms after the latest migration,
      // whose time Kysely puts ahead of the clock when several finish within one millisecond
      // (so the clock's own time could sort before it, which no real upgrade does).
      const latest = raw.prepare('SELECT max(timestamp) AS t FROM kysely_migration').get() as {
        t: string;
      };
      raw
        .prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)')
        .run('999-from-a-newer-version', new Date(Date.parse(latest.t) + 1).toISOString());
      raw.close();
      const opened = await openDatabase(file);
      try {
        expect(await notReadyReason(opened.db)).toBeUndefined();
        const names = await opened.db
          .selectFrom('kysely_migration' as never)
          .select(sql<string>`name`.as('name'))
          .execute();
        expect(names.map((r) => r.name)).toContain('999-from-a-newer-version');
      } finally {
        await opened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
