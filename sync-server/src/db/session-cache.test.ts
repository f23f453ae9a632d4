import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileOnly } from '../../test/compile-only';
import { personRow } from '../../test/rows';
import { deleteAccountRows } from './account';
import { openDatabase, type Db, type OpenedDb } from './connection';
import {
  OTHER_WRITERS_EVERY_MS,
  SessionCache,
  SqliteDataVersion,
  sessionCacheOf,
  writeScope,
  type CachedSession,
} from './session-cache';
import { destroySession, destroyUserSessions, getSessionWithUser, setSession } from './sessions';
import { updateUser } from './users';

const HOUR = 3600_000;

describe('writeScope: what a statement may change, from the SQL the server compiles', () => {
  let opened: OpenedDb;
  beforeEach(async () => {
    opened = await openDatabase(':memory:');
  });
  afterEach(() => opened.close());

  it('keys the writes of one person or one session by their id, and drops everything for others', () => {
    const { db } = opened;
    const scope = (q: { compile(): { sql: string } }, readonly = false) =>
      writeScope(q.compile().sql, readonly);
    // updateUser, the touch of a session, destroySession, deleteAccount's last statement.
    expect(
      scope(db.updateTable('users').set({ firstName: 'x' }).where('id', '=', 'u').returningAll()),
    ).toEqual({ kind: 'row', table: 'users', param: -1 });
    expect(scope(db.updateTable('sessions').set({ lastSeenAt: 1 }).where('id', '=', 's'))).toEqual({
      kind: 'row',
      table: 'sessions',
      param: -1,
    });
    expect(scope(db.deleteFrom('sessions').where('id', '=', 's'))).toEqual({
      kind: 'row',
      table: 'sessions',
      param: -1,
    });
    expect(scope(db.deleteFrom('users').where('id', '=', 'u'))).toEqual({
      kind: 'row',
      table: 'users',
      param: -1,
    });
    // setSession: one row, its id first.
    expect(
      scope(
        db
          .insertInto('sessions')
          .values({ id: 's', userId: 'u', data: '{}', expiresAt: 1, createdAt: 'now' })
          .onConflict((oc) => oc.column('id').doUpdateSet({ data: '{}' })),
      ),
    ).toEqual({ kind: 'row', table: 'sessions', param: 0 });
    // Anything broader: every session of a person, a condition besides the id, a subquery.
    const all = { kind: 'all' };
    expect(scope(db.deleteFrom('sessions').where('userId', '=', 'u'))).toEqual(all);
    expect(
      scope(db.deleteFrom('sessions').where('userId', '=', 'u').where('id', '!=', 's')),
    ).toEqual(all);
    expect(scope(db.updateTable('users').set({ isAdmin: 0 }).where('isAdmin', '=', 1))).toEqual(
      all,
    );
    expect(
      scope(
        db
          .updateTable('users')
          .set({ isAdmin: 1 })
          .where('email', 'in', (eb) =>
            eb.selectFrom('users').select('email').where('id', '=', 'u'),
          )
          .where('id', '=', 'u'),
      ),
    ).toEqual(all);
    expect(scope(db.insertInto('users').values(personRow('u')))).toEqual(all);
    // Hand-written SQL that names a table without quotes, in any case: broad.
    expect(writeScope('UPDATE sessions SET last_seen_at = 1', false)).toEqual(all);
    expect(writeScope('delete from Users where id = ?', false)).toEqual(all);
    // Reads, and writes to other tables, change nothing.
    expect(scope(db.selectFrom('users').selectAll().where('id', '=', 'u'), true)).toEqual({
      kind: 'none',
    });
    expect(scope(db.deleteFrom('pings').where('id', '=', 'p'))).toEqual({ kind: 'none' });
    // A statement with a `with` that reads the people and writes another table (a send's checks
    // and its insert on PostgreSQL) changes nothing; one whose writes name either table, all.
    expect(
      scope(
        db
          .with('t', (qc) => qc.selectFrom('users').select('id').where('id', '=', 'u'))
          .with('ins', (qc) =>
            qc
              .insertInto('moments')
              .columns(['userId', 'pingId', 'createdAt'])
              .expression((eb) =>
                eb.selectFrom('t').select(['t.id', eb.val('p').as('p'), eb.val('now').as('c')]),
              )
              .onConflict((oc) => oc.doNothing())
              .returning('userId'),
          )
          .selectFrom('t')
          .selectAll(),
      ),
    ).toEqual({ kind: 'none' });
    expect(
      scope(
        db
          .with('gone', (qc) => qc.deleteFrom('sessions').where('userId', '=', 'u').returning('id'))
          .selectFrom('gone')
          .selectAll(),
      ),
    ).toEqual(all);
    expect(
      writeScope('WITH x AS (UPDATE users SET is_admin = 0 RETURNING id) SELECT 1', false),
    ).toEqual(all);
    expect(
      writeScope('with x as (delete from "public"."sessions" returning id) select 1', false),
    ).toEqual(all);
    // A `with` that only reads (friend suggestions) changes nothing, though it does not start
    // with `select`: on PostgreSQL it used to drop every session.
    expect(
      scope(
        db
          .with('mine', (qc) => qc.selectFrom('friendships').select('addresseeId as id'))
          .selectFrom('users')
          .innerJoin('mine', 'mine.id', 'users.id')
          .selectAll('users'),
      ),
    ).toEqual({ kind: 'none' });
  });

  it('reads PostgreSQL’s numbered placeholders: the id is the parameter the WHERE names', () => {
    const pgDb = compileOnly('postgres');
    const scope = (q: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const { sql, parameters } = q.compile();
      const found = writeScope(sql, /^select\b/.test(sql));
      return found.kind === 'row' ? { ...found, id: parameters.at(found.param) } : found;
    };
    expect(
      scope(
        pgDb
          .updateTable('users')
          .set({ firstName: 'x', lastName: 'y' })
          .where('id', '=', 'u')
          .returningAll(),
      ),
    ).toEqual({ kind: 'row', table: 'users', param: 2, id: 'u' });
    expect(scope(pgDb.deleteFrom('sessions').where('id', '=', 's'))).toEqual({
      kind: 'row',
      table: 'sessions',
      param: 0,
      id: 's',
    });
    expect(
      scope(
        pgDb
          .insertInto('sessions')
          .values({ id: 's', userId: 'u', data: '{}', expiresAt: 1, createdAt: 'now' })
          .onConflict((oc) => oc.column('id').doUpdateSet({ data: '{}' })),
      ),
    ).toEqual({ kind: 'row', table: 'sessions', param: 0, id: 's' });
    expect(scope(pgDb.deleteFrom('sessions').where('userId', '=', 'u'))).toEqual({ kind: 'all' });
    expect(scope(pgDb.selectFrom('sessions').selectAll().where('id', '=', 's'))).toEqual({
      kind: 'none',
    });
  });
});

describe('sessions kept in memory (SQLite)', () => {
  let dir: string;
  let opened: OpenedDb;
  let statements: number;
  const policy = { idleMs: 30 * 24 * HOUR, touchEveryMs: HOUR };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-session-cache-'));
    statements = 0;
    opened = await openDatabase(path.join(dir, 'db.sqlite'), {
      onQuery: () => (statements += 1),
    });
    const { db } = opened;
    await db
      .insertInto('users')
      .values([personRow('ada'), personRow('bo')])
      .execute();
    await signIn(db, 's-ada', 'ada');
    await signIn(db, 's-ada-2', 'ada');
    await signIn(db, 's-bo', 'bo');
  });
  afterEach(async () => {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signIn = (db: Db, id: string, userId: string) =>
    setSession(db, id, { userId, signedInAt: Date.now() }, Date.now() + 24 * HOUR);
  const read = (id: string) => getSessionWithUser(opened.db, id, policy);

  it('answers a session read before without a statement', async () => {
    expect((await read('s-ada'))?.user?.id).toBe('ada');
    const before = statements;
    const again = await read('s-ada');
    expect(statements).toBe(before);
    expect(again?.userId).toBe('ada');
    expect(again?.data.userId).toBe('ada');
    expect(again?.user?.email).toBe('ada@example.test');
    expect(sessionCacheOf(opened.db)?.stats.hits).toBeGreaterThan(0);
  });

  it('sees a change to the person at once, and only that person is read again', async () => {
    await read('s-ada');
    await read('s-bo');
    await updateUser(opened.db, 'ada', { firstName: 'Ada' });
    expect((await read('s-ada'))?.user?.firstName).toBe('Ada');
    const before = statements;
    await read('s-bo');
    expect(statements).toBe(before);
  });

  it('sees a write to the tables that any code makes, keyed by id or not', async () => {
    const { db } = opened;
    await read('s-ada');
    await db
      .updateTable('users')
      .set({ isAdmin: 1 })
      .where('email', '=', 'ada@example.test')
      .execute();
    expect((await read('s-ada'))?.user?.isAdmin).toBe(1);
    await db
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - HOUR })
      .where('userId', '=', 'ada')
      .execute();
    expect(await read('s-ada')).toBeUndefined();
  });

  it('ends sessions at once: one, every one of a person, and a deleted account', async () => {
    for (const id of ['s-ada', 's-ada-2', 's-bo']) expect(await read(id)).toBeDefined();
    await destroySession(opened.db, 's-ada');
    expect(await read('s-ada')).toBeUndefined();
    expect(await read('s-ada-2')).toBeDefined();
    await destroyUserSessions(opened.db, 'ada');
    expect(await read('s-ada-2')).toBeUndefined();
    expect(await read('s-bo')).toBeDefined();
    await deleteAccountRows(opened.db, 'bo', { exact: [], prefixes: [] });
    expect(await read('s-bo')).toBeUndefined();
  });

  it('sees the session saved again (koa-session’s store.set)', async () => {
    await read('s-ada');
    await setSession(
      opened.db,
      's-ada',
      { userId: 'bo', signedInAt: Date.now() },
      Date.now() + HOUR,
    );
    const now = await read('s-ada');
    expect(now?.userId).toBe('bo');
    expect(now?.user?.id).toBe('bo');
  });

  it('still records a use once an hour, and ends an idle or expired session', async () => {
    await read('s-ada');
    const later = Date.now() + 2 * HOUR;
    await getSessionWithUser(opened.db, 's-ada', { ...policy, now: later });
    const row = await opened.db
      .selectFrom('sessions')
      .select('lastSeenAt')
      .where('id', '=', 's-ada')
      .executeTakeFirstOrThrow();
    expect(row.lastSeenAt).toBe(later);
    expect(
      await getSessionWithUser(opened.db, 's-ada', { ...policy, now: later + 2 * 24 * HOUR }),
    ).toBeUndefined();
    expect(
      await opened.db.selectFrom('sessions').select('id').where('id', '=', 's-ada').execute(),
    ).toEqual([]);
  });

  it('sees another connection’s commit (another process) within OTHER_WRITERS_EVERY_MS', async () => {
    await read('s-ada');
    const other = new BetterSqlite3(opened.location);
    other.prepare(`update users set is_admin = 1 where id = 'ada'`).run();
    other.prepare(`delete from sessions where id = 's-bo'`).run();
    other.close();
    await new Promise((resolve) => setTimeout(resolve, OTHER_WRITERS_EVERY_MS + 5));
    expect((await read('s-ada'))?.user?.isAdmin).toBe(1);
    expect(await read('s-bo')).toBeUndefined();
  });

  it('hands out a person that cannot be changed in place', async () => {
    await read('s-ada');
    const cached = await read('s-ada');
    expect(Object.isFrozen(cached?.user)).toBe(true);
  });
});

describe('SessionCache', () => {
  const entry = (userId: string): CachedSession => ({
    session: { data: '{}', expiresAt: Date.now() + HOUR, lastSeenAt: null, userId },
    user: { ...personRow(userId), id: userId } as unknown as CachedSession['user'],
  });

  it('does not keep a read that was under way while something was dropped', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const cache = new SessionCache(new SqliteDataVersion(sqlite));
    const started = cache.startRead();
    cache.forgetUser('someone else');
    cache.keep(started, 's', entry('ada'));
    expect(cache.get('s')).toBeUndefined();
    cache.keep(cache.startRead(), 's', entry('ada'));
    expect(cache.get('s')).toBeDefined();
    sqlite.close();
  });

  it('drops a person’s sessions, and no one else’s, and stays within its size', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const cache = new SessionCache(new SqliteDataVersion(sqlite), 2);
    cache.keep(cache.startRead(), 'a1', entry('ada'));
    cache.keep(cache.startRead(), 'b1', entry('bo'));
    cache.forgetUser('ada');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('b1')).toBeDefined();
    cache.keep(cache.startRead(), 'a2', entry('ada'));
    cache.keep(cache.startRead(), 'c1', entry('cy'));
    expect(cache.size).toBe(2);
    sqlite.close();
  });
});
