/**
 * Sessions kept in memory on PostgreSQL (session-cache.ts, docs/security.md "Sessions"): a node
 * answers a session it has read without a statement, and sees every change to it or its person at
 * once when it made the change itself, and as soon as the database's notice arrives when another
 * node (or any tool) made it. While it cannot hear those notices, it does not use what it keeps.
 * Each test fails with its mechanism taken out: the pool's drop of what a connection wrote when it
 * goes back to the pool, migration 010's trigger, the bus's epoch (the connection down, a new
 * connection, a silent heartbeat, another node's heartbeat), the check of the epoch when a read
 * is kept.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { within } from '../../test/poll';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { personRow, pingRow } from '../../test/rows';
import { HEARTBEAT_SILENCE_MS, PostgresBus } from '../realtime/bus';
import { deleteAccountRows } from './account';
import { openDatabase, type Db, type OpenedDb } from './connection';
import { sendTargetAndInsert } from './ping-sends';
import { sessionCacheOf, type IdentityWatch, type SessionCache } from './session-cache';
import { destroySession, destroyUserSessions, getSessionWithUser, setSession } from './sessions';
import { updateUser } from './users';

const HOUR = 3600_000;
const policy = { idleMs: 30 * 24 * HOUR, touchEveryMs: HOUR };

let url: string;
/** Another node: its own pool, no bus (its cache is never used), writing the same rows. */
let other: OpenedDb;

beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
  other = await openDatabase(url, { poolSize: 2 });
});
afterAll(async () => {
  await other?.close();
  await dropDatabase(url);
});

let node: OpenedDb;
let statements: number;
let cache: SessionCache;

const signIn = (db: Db, id: string, userId: string) =>
  setSession(db, id, { userId, signedInAt: Date.now() }, Date.now() + 24 * HOUR);
const read = (id: string) => getSessionWithUser(node.db, id, policy);
/** A read answered from memory makes no statement. */
async function readCounting(id: string) {
  const before = statements;
  const found = await read(id);
  return { found, statements: statements - before };
}

async function openNode() {
  statements = 0;
  node = await openDatabase(url, { poolSize: 3, onQuery: () => (statements += 1) });
  cache = sessionCacheOf(node.db)!;
  await other.db.deleteFrom('sessions').execute();
  await other.db.deleteFrom('users').execute();
  await other.db
    .insertInto('users')
    .values([personRow('ada'), personRow('bo')])
    .execute();
  await signIn(other.db, 's-ada', 'ada');
  await signIn(other.db, 's-ada-2', 'ada');
  await signIn(other.db, 's-bo', 'bo');
}

/** `other`'s write, with triggers off for its connection: nobody hears of it. */
async function quietly(write: (db: Db) => Promise<unknown>) {
  await other.db.connection().execute(async (db) => {
    await sql`set session_replication_role = replica`.execute(db);
    try {
      await write(db);
    } finally {
      await sql`set session_replication_role = origin`.execute(db);
    }
  });
}

describe('this node’s own writes (a watch that hears nobody else)', () => {
  // Others' writes are never heard here: what is seen comes from the node's own statements.
  const deaf: IdentityWatch = { epoch: () => 1 };
  beforeEach(async () => {
    await openNode();
    cache.watchWith(deaf);
  });
  afterEach(() => node.close());

  it('answers a session read before without a statement, and never without an attached watch', async () => {
    expect((await readCounting('s-ada')).statements).toBeGreaterThan(0);
    const again = await readCounting('s-ada');
    expect(again.statements).toBe(0);
    expect(again.found?.user?.email).toBe('ada@example.test');
    expect(Object.isFrozen(again.found?.user)).toBe(true);
    // As opened (no bus attached), nothing is kept.
    const plain = await openDatabase(url, { poolSize: 1 });
    try {
      await getSessionWithUser(plain.db, 's-ada', policy);
      expect(sessionCacheOf(plain.db)!.size).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it('keeps every session through a ping send, whose one statement reads people and writes a ping', async () => {
    for (const id of ['s-ada', 's-bo']) await read(id);
    const now = new Date().toISOString();
    await other.db
      .insertInto('friendships')
      .values({
        id: 'f-ada-bo',
        requesterId: 'ada',
        addresseeId: 'bo',
        status: 'accepted',
        createdAt: now,
        acceptedAt: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const sent = await sendTargetAndInsert(node.db, new Date(0).toISOString(), {
      ...pingRow(`p-${Date.now()}`, 'ada', 'bo', now),
    });
    expect(sent.inserted).toBe(1);
    expect((await readCounting('s-ada')).statements).toBe(0);
    expect((await readCounting('s-bo')).statements).toBe(0);
  });

  it('sees its own change to a person or a session at once', async () => {
    for (const id of ['s-ada', 's-ada-2', 's-bo']) await read(id);
    await updateUser(node.db, 'ada', { firstName: 'Ada' });
    expect((await read('s-ada'))?.user?.firstName).toBe('Ada');
    expect((await readCounting('s-bo')).statements).toBe(0);
    await destroySession(node.db, 's-ada');
    expect(await read('s-ada')).toBeUndefined();
    expect(await read('s-ada-2')).toBeDefined();
    await destroyUserSessions(node.db, 'ada');
    expect(await read('s-ada-2')).toBeUndefined();
    await node.db
      .updateTable('users')
      .set({ isAdmin: 1 })
      .where('email', '=', 'bo@example.test')
      .execute();
    expect((await read('s-bo'))?.user?.isAdmin).toBe(1);
    await deleteAccountRows(node.db, 'bo', { exact: [], prefixes: [] });
    expect(await read('s-bo')).toBeUndefined();
  });

  it('does not keep past the commit what another connection read before it', async () => {
    await read('s-ada');
    await node.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ firstName: 'Committed' })
        .where('id', '=', 'ada')
        .execute();
      // Another connection of the pool: the write is not committed yet, so this reads it as it
      // was, and keeps it.
      expect((await read('s-ada'))?.user?.firstName).toBeNull();
    });
    expect((await read('s-ada'))?.user?.firstName).toBe('Committed');
  });
});

describe('other nodes’ writes (the change bus)', () => {
  let bus: PostgresBus;
  beforeEach(async () => {
    await openNode();
    bus = new PostgresBus(url, node.db);
    await bus.start();
    bus.attachSessionCache(cache);
    await within(2_000, () => bus.epoch(Date.now()) !== undefined);
  });
  afterEach(async () => {
    await bus.close();
    await node.close();
  });
  /**
   * Until a heartbeat sent from now on has come back: every notice committed before it has been
   * heard too (PostgreSQL delivers them in commit order).
   */
  async function heardEverythingUntilNow() {
    const now = Date.now();
    await within(3_000, () => bus.epoch(now + HEARTBEAT_SILENCE_MS) !== undefined);
  }

  it('drops a person or a session another node changed, once the database’s notice arrives', async () => {
    for (const id of ['s-ada', 's-bo']) await read(id);
    expect((await readCounting('s-ada')).statements).toBe(0);
    await updateUser(other.db, 'ada', { firstName: 'Changed elsewhere' });
    await within(2_000, async () => (await read('s-ada'))?.user?.firstName === 'Changed elsewhere');
    await destroySession(other.db, 's-bo');
    await within(2_000, async () => (await read('s-bo')) === undefined);
    // The notice drops only what it names: s-ada-2 read now, then kept across bo's removal.
    await read('s-ada-2');
    await other.db.deleteFrom('users').where('id', '=', 'bo').execute();
    await heardEverythingUntilNow();
    expect((await readCounting('s-ada-2')).statements).toBe(0);
  });

  it('drops everything for a change to a session nobody is signed in to', async () => {
    await setSession(other.db, 's-anon', { state: 'x' }, Date.now() + HOUR);
    expect((await read('s-anon'))?.data.state).toBe('x');
    await read('s-ada');
    expect((await readCounting('s-ada')).statements).toBe(0);
    await setSession(other.db, 's-anon', { state: 'y' }, Date.now() + HOUR);
    await heardEverythingUntilNow();
    expect((await read('s-anon'))?.data.state).toBe('y');
    expect((await readCounting('s-ada')).statements).toBeGreaterThan(0);
  });

  it('drops everything when another node empties the sessions table', async () => {
    await read('s-ada');
    await read('s-bo');
    expect((await readCounting('s-bo')).statements).toBe(0);
    await sql`truncate sessions`.execute(other.db);
    await heardEverythingUntilNow();
    expect(await read('s-ada')).toBeUndefined();
    expect(await read('s-bo')).toBeUndefined();
  });

  it('a write nobody hears of stays unseen while the bus hears (which is why the trigger matters)', async () => {
    await read('s-ada');
    await quietly((db) => updateUser(db, 'ada', { firstName: 'Unheard' }));
    await heardEverythingUntilNow();
    expect((await read('s-ada'))?.user?.firstName).toBeNull();
  });

  it('uses nothing kept while the bus is down, and drops it all when a new connection listens', async () => {
    await read('s-ada');
    await read('s-bo');
    // Missed in the gap: a new LISTEN connection cannot know what it did not hear.
    await quietly((db) => updateUser(db, 'ada', { firstName: 'During the gap' }));
    const pid = bus.backendPid;
    await sql`select pg_terminate_backend(${pid})`.execute(other.db);
    await within(5_000, () => bus.listening && bus.backendPid !== pid);
    expect((await read('s-ada'))?.user?.firstName).toBe('During the gap');

    // While it is down, every lookup reads the database.
    await read('s-bo');
    const pid2 = bus.backendPid;
    await sql`select pg_terminate_backend(${pid2})`.execute(other.db);
    await within(2_000, () => !bus.listening);
    await quietly((db) => updateUser(db, 'bo', { firstName: 'While down' }));
    const down = await readCounting('s-bo');
    expect(down.found?.user?.firstName).toBe('While down');
    expect(down.statements).toBeGreaterThan(0);
    expect((await readCounting('s-bo')).statements).toBeGreaterThan(0);
    await within(5_000, () => bus.listening);
  });

  it('uses nothing kept once its heartbeat has not come back for HEARTBEAT_SILENCE_MS', async () => {
    await read('s-ada');
    expect(cache.get('s-ada')).toBeDefined();
    expect(bus.epoch(Date.now() + HEARTBEAT_SILENCE_MS + 1_500)).toBeUndefined();
    expect(cache.get('s-ada', Date.now() + HEARTBEAT_SILENCE_MS + 1_500)).toBeUndefined();
    // A heartbeat keeps coming back every second meanwhile.
    const heard = bus.epoch(Date.now());
    expect(heard).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_SILENCE_MS + 500));
    expect(bus.epoch(Date.now())).toBe(heard);
  });

  it('counts only its own heartbeat: another node’s does not keep it trusted', async () => {
    const stranger = new pg.Client({ connectionString: url });
    await stranger.connect();
    try {
      await stranger.query(`select pg_notify('pingme_identity', $1)`, [
        `b:someone-else:${Date.now() + 60_000}`,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bus.epoch(Date.now() + HEARTBEAT_SILENCE_MS + 1_500)).toBeUndefined();
    } finally {
      await stranger.end();
    }
  });
});
