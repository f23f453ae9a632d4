import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompiledQuery } from 'kysely';
import {
  compiledOnce,
  executeCompiled,
  runCompiledDirectly,
  stopCompiledDirectly,
} from './compiled';
import { openDatabase, type OpenedDb } from './connection';
import { getSessionWithUser, liveSessionUsers, setSession } from './sessions';
import { insertUser } from './users';

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDatabase(':memory:');
});
afterAll(() => opened.close());
const db = () => opened.db;

const DAY = 24 * 3600_000;

async function person(n: number) {
  const at = new Date().toISOString();
  return insertUser(db(), {
    id: `user-${n}`,
    email: `u${n}@compiled.test`,
    passwordHash: null,
    firstName: `First${n}`,
    lastName: null,
    profileVisibility: 'public',
    onboardingCompleted: 1,
    onboardingStep: null,
    isAdmin: 0,
    emailVerified: 1,
    rateLimitPerDay: 50,
    inviteCode: `invite-${n}`,
    createdAt: at,
    updatedAt: at,
    lastActiveAt: null,
  });
}

describe('compiledOnce', () => {
  it('answers what the builder answers, camelCased, with new values bound each call', async () => {
    const a = await person(1);
    const b = await person(2);
    // One argument used twice, a constant in between.
    const q = compiledOnce((d: typeof opened.db, id: string, email: string) =>
      d
        .selectFrom('users')
        .select(['id', 'firstName', 'email'])
        .where((w) => w.or([w('id', '=', id), w('email', '=', email), w('handle', '=', id)]))
        .where('profileVisibility', '=', 'public')
        .orderBy('id'),
    );
    expect((await q(db(), a.id, 'nobody')).rows).toEqual([
      { id: a.id, firstName: 'First1', email: a.email },
    ]);
    expect((await q(db(), 'nobody', b.email)).rows).toEqual([
      { id: b.id, firstName: 'First2', email: b.email },
    ]);
    expect((await q(db(), a.id, b.email)).rows.map((r) => r.id)).toEqual([a.id, b.id]);
    // Inside a transaction too, and the compiled text is the builder's.
    await db()
      .transaction()
      .execute(async (trx) => {
        expect((await q(trx, b.id, 'nobody')).rows).toHaveLength(1);
      });
  });

  it('binds a list argument element by element, compiled once per length of the list', async () => {
    const people = [await person(11), await person(12), await person(13)];
    const [a, b, c] = people.map((p) => p.id) as [string, string, string];
    const named = compiledOnce((d: typeof opened.db, ids: string[], name: string) =>
      d
        .selectFrom('users')
        .select(['id', 'firstName'])
        .where('id', 'in', ids)
        .where('firstName', '!=', name)
        .orderBy('id'),
    );
    const ids = async (list: string[], name = 'nobody') =>
      (await named(db(), list, name)).rows.map((r) => r.id);
    expect(await ids([a])).toEqual([a]);
    expect(await ids([c, a, b])).toEqual([a, b, c]);
    // The same lengths again with other values: the values of this call, not the first one's.
    expect(await ids([b])).toEqual([b]);
    expect(await ids([c, 'none', a], 'First13')).toEqual([a]);
    expect(await ids([])).toEqual([]);
    // An element used for more than its value is refused, as a scalar argument is.
    const shaped = compiledOnce((d: typeof opened.db, list: string[]) =>
      d
        .selectFrom('users')
        .select('id')
        .where(
          'id',
          'in',
          list.map((x) => x.toUpperCase()),
        ),
    );
    await expect(async () => shaped(db(), ['x'])).rejects.toThrow(/not bound as-is|unused/);
  });

  it('refuses an argument that is not bound as a parameter as-is', async () => {
    const lowered = compiledOnce((d: typeof opened.db, email: string) =>
      d.selectFrom('users').select('id').where('email', '=', email.toLowerCase()),
    );
    await expect(async () => lowered(db(), 'X@Y')).rejects.toThrow(/not bound as-is|unused/);
    const unused = compiledOnce((d: typeof opened.db, _id: string) =>
      d.selectFrom('users').select('id'),
    );
    await expect(async () => unused(db(), 'x')).rejects.toThrow(/argument 0 unused/);
  });
});

describe('compiled queries of a group transaction, on the connection directly (SQLite)', () => {
  const everyColumn = compiledOnce((d: typeof opened.db, id: string) =>
    d.selectFrom('users').selectAll().where('id', '=', id),
  );
  const rename = compiledOnce((d: typeof opened.db, name: string, id: string) =>
    d.updateTable('users').set({ firstName: name }).where('id', '=', id),
  );

  it('answers what Kysely answers: the same rows and names, counts, errors', async () => {
    const u = await person(6);
    const throughKysely = (await everyColumn(db(), u.id)).rows;
    const trx = await db().startTransaction().execute();
    runCompiledDirectly(db(), trx);
    const direct = (await everyColumn(trx, u.id)).rows;
    expect(direct).toEqual(throughKysely);
    expect(Object.keys(direct[0]!)).toEqual(Object.keys(throughKysely[0]!));
    expect(Object.keys(direct[0]!)).toContain('rateLimitPerDay');
    const changed = await rename(trx, 'Renamed', u.id);
    expect(changed.numAffectedRows).toBe(1n);
    expect(changed.rows).toEqual([]);
    await expect(
      executeCompiled(trx, CompiledQuery.raw(`insert into users (id) values ('${u.id}')`)),
    ).rejects.toThrow(/NOT NULL|UNIQUE/);
    stopCompiledDirectly(trx);
    await trx.rollback().execute();
    // Rolled back: the direct statements were the transaction's.
    expect((await everyColumn(db(), u.id)).rows[0]?.firstName).toBe('First6');
  });

  it('on the database itself: directly while no transaction is open, else after it, committed only', async () => {
    const u = await person(8);
    const through = vi.spyOn(db(), 'executeQuery');
    try {
      // No transaction open: answered on the connection, past Kysely.
      expect((await everyColumn(db(), u.id)).rows[0]?.firstName).toBe('First8');
      expect(through).not.toHaveBeenCalled();
      // A transaction holds the connection: the read waits for it through Kysely, and sees what
      // it committed, never what it had written before.
      const trx = await db().startTransaction().execute();
      await trx
        .updateTable('users')
        .set({ firstName: 'Uncommitted' })
        .where('id', '=', u.id)
        .execute();
      let answered: string | null | undefined;
      const read = everyColumn(db(), u.id).then((r) => (answered = r.rows[0]?.firstName));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBeUndefined();
      expect(through).toHaveBeenCalledTimes(1);
      await trx
        .updateTable('users')
        .set({ firstName: 'Committed' })
        .where('id', '=', u.id)
        .execute();
      await trx.commit().execute();
      await read;
      expect(answered).toBe('Committed');
      // Closed again: directly once more.
      expect((await everyColumn(db(), u.id)).rows[0]?.firstName).toBe('Committed');
      expect(through).toHaveBeenCalledTimes(1);
    } finally {
      through.mockRestore();
    }
  });

  it('takes the direct path only while allowed: Kysely refuses a committed transaction', async () => {
    const u = await person(7);
    const stopped = await db().startTransaction().execute();
    runCompiledDirectly(db(), stopped);
    expect((await everyColumn(stopped, u.id)).rows).toHaveLength(1);
    stopCompiledDirectly(stopped);
    await stopped.commit().execute();
    await expect(everyColumn(stopped, u.id)).rejects.toThrow(/committed/);
    // Not stopped (the coalescer always stops it before the commit): still direct, so answered.
    const left = await db().startTransaction().execute();
    runCompiledDirectly(db(), left);
    await left.commit().execute();
    expect((await everyColumn(left, u.id)).rows).toHaveLength(1);
    stopCompiledDirectly(left);
  });
});

describe('sessions read with their person', () => {
  it('getSessionWithUser: the data, the person, expiry and idle rules as getSession', async () => {
    const u = await person(3);
    const now = Date.now();
    await setSession(db(), 'live', { userId: u.id, signedInAt: now }, now + DAY);
    await setSession(db(), 'anon', { csrf: 'x' }, now + DAY);
    await setSession(db(), 'expired', { userId: u.id }, now - 1);
    const live = await getSessionWithUser(db(), 'live', { idleMs: DAY });
    expect(live?.data).toEqual({ userId: u.id, signedInAt: now });
    expect(live?.userId).toBe(u.id);
    expect(live?.user).toMatchObject({ id: u.id, email: u.email, firstName: 'First3' });
    const anon = await getSessionWithUser(db(), 'anon');
    expect(anon).toEqual({ data: { csrf: 'x' }, userId: null, user: undefined });
    expect(await getSessionWithUser(db(), 'expired')).toBeUndefined();
    expect(await getSessionWithUser(db(), 'missing')).toBeUndefined();
    // A dead session is deleted on sight.
    const left = await db().selectFrom('sessions').select('id').execute();
    expect(left.map((r) => r.id).sort()).toEqual(['anon', 'live']);
    // Idle beyond the policy: dead and deleted.
    await db()
      .updateTable('sessions')
      .set({ lastSeenAt: now - 2 * DAY })
      .where('id', '=', 'live')
      .execute();
    expect(await getSessionWithUser(db(), 'live', { idleMs: DAY })).toBeUndefined();
    expect(
      await db().selectFrom('sessions').select('id').where('id', '=', 'live').execute(),
    ).toEqual([]);
  });

  it('liveSessionUsers: the live sessions among the ids with their person; dead ones deleted', async () => {
    const u = await person(4);
    const gone = await person(5);
    const now = Date.now();
    await setSession(db(), 's-live', { userId: u.id, signedInAt: now }, now + DAY);
    await setSession(db(), 's-idle', { userId: u.id, signedInAt: now }, now + DAY);
    await setSession(db(), 's-gone', { userId: gone.id, signedInAt: now }, now + DAY);
    await setSession(db(), 's-anon', { csrf: 'y' }, now + DAY);
    await setSession(db(), 's-other', { userId: u.id, signedInAt: now }, now + DAY);
    await db()
      .updateTable('sessions')
      .set({ lastSeenAt: now - 2 * DAY })
      .where('id', '=', 's-idle')
      .execute();
    await db().deleteFrom('users').where('id', '=', gone.id).execute();
    const live = await liveSessionUsers(db(), ['s-live', 's-idle', 's-gone', 's-anon', 'nope'], {
      idleMs: DAY,
    });
    expect([...live]).toEqual([['s-live', u.id]]);
    const ids = (await db().selectFrom('sessions').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain('s-idle');
    expect(ids).toContain('s-other');
    expect(ids).toContain('s-anon');
  });
});
