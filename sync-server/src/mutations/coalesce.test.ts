/**
 * Group commit of REST writes (mutations/coalesce.ts): concurrent writes share commits, and each
 * is still answered, refused, replayed and announced as if it had been alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '@pingme/shared';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { loadConfig } from '../config';
import { openDatabase, type Db, type OpenedDb } from '../db/connection';
import type { Database } from '../db/schema';
import type { ChangeSet } from '../db/unit-of-work';
import { findUserById } from '../db/users';
import { describeGroupsWithoutSavepoints } from '../../test/without-savepoints';
import { WriteCoalescer } from './coalesce';

let server: TestServer;
let prompt: string;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function ring(n: number): Promise<MadeUser[]> {
  const people: MadeUser[] = [];
  for (let i = 0; i < n; i++) people.push(await makeUser(server));
  for (let i = 0; i < (n === 2 ? 1 : n); i++) await makeFriends(people[i]!, people[(i + 1) % n]!);
  prompt ??= (await people[0]!.client.get('/api/prompts/default')).body[0].id;
  return people;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('REST writes that arrive together', () => {
  it('run one group at a time on SQLite, whatever DATABASE_WRITE_TRANSACTIONS says', async () => {
    // One connection and one writer: a second transaction could not start while one is open.
    const asked = await startTestServer({ DATABASE_WRITE_TRANSACTIONS: '4' });
    try {
      expect(asked.config.databaseWriteTransactions).toBe(4);
      expect(asked.coalescer!.maxLanes).toBe(1);
    } finally {
      await asked.stop();
    }
  });

  it('share commits, and each gets its own answer', async () => {
    const people = await ring(12);
    // Held back as behind a long commit: all twelve queue, then share one commit.
    const release = server.coalescer!.hold();
    const before = { ...server.coalescer!.stats };
    const sent = Promise.all(
      people.map((p, i) =>
        p.client.post('/api/pings', {
          promptId: prompt,
          receiverId: people[(i + 1) % people.length]!.id,
        }),
      ),
    );
    await until(() => server.coalescer!.waitingJobs === 12);
    release();
    const answers = await sent;
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 201));
    answers.forEach((a, i) => {
      expect(a.body.senderId).toBe(people[i]!.id);
      expect(a.body.receiverId).toBe(people[(i + 1) % people.length]!.id);
    });
    const groups = server.coalescer!.stats.groups - before.groups;
    const writes = server.coalescer!.stats.writes - before.writes;
    expect(writes).toBe(12);
    expect(groups).toBe(1);
    // Every answer's ping is stored.
    for (const [i, a] of answers.entries()) {
      const received = await people[(i + 1) % people.length]!.client.get('/api/pings/recent');
      expect(received.body.map((p: { id: string }) => p.id)).toContain(a.body.id);
    }
  });

  it('lets the event loop turn between groups, so nothing else waits for a whole queue of them', async () => {
    const people = await ring(4);
    const release = server.coalescer!.hold();
    const before = server.coalescer!.stats.groups;
    // Four batches of 100 writes: two groups of two (at most MAX_GROUP_WRITES = 200 writes each).
    const sent = Promise.all(
      people.map((p, n) =>
        p.client.post('/api/sync/batch', {
          entries: Array.from({ length: 100 }, (_, i) => ({
            idempotencyKey: `turn-${n}-${i}-${p.id}`,
            name: 'profile.update',
            args: { tagline: `tagline ${i}` },
          })),
        }),
      ),
    );
    await until(() => server.coalescer!.waitingJobs === 4);
    let groupsAtNextTurn = -1;
    release();
    setImmediate(() => (groupsAtNextTurn = server.coalescer!.stats.groups - before));
    const answers = await sent;
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(server.coalescer!.stats.groups - before).toBe(2);
    // The next turn of the event loop came after the first group, not after both.
    expect(groupsAtNextTurn).toBe(1);
  });

  it('a refusal among them is answered alone and rolls back nothing else', async () => {
    const [a, b, c] = await ring(3);
    const stranger = await makeUser(server);
    const [ok1, refused, ok2] = await Promise.all([
      a!.client.post('/api/pings', { promptId: prompt, receiverId: b!.id }),
      a!.client.post('/api/pings', { promptId: prompt, receiverId: stranger.id }),
      b!.client.post('/api/pings', { promptId: prompt, receiverId: c!.id }),
    ]);
    expect([ok1.status, refused.status, ok2.status]).toEqual([201, 403, 201]);
    expect(refused.body.code).toBe('forbidden');
    expect((await stranger.client.get('/api/pings/recent')).body).toEqual([]);
  });

  it('the same Idempotency-Key twice at once: one ping, the same answer, one marked replayed', async () => {
    const [a, b] = await ring(2);
    const headers = { 'Idempotency-Key': `twice-${a!.id}` };
    const send = () =>
      a!.client.post('/api/pings', { promptId: prompt, receiverId: b!.id }, { headers });
    const [first, second] = await Promise.all([send(), send()]);
    expect(first.body).toEqual(second.body);
    expect([first, second].map((r) => r.headers.get('Idempotent-Replayed')).sort()).toEqual(
      ['true', null].sort(),
    );
    expect((await b!.client.get('/api/pings/recent')).body).toHaveLength(1);
  });
});

describeGroupsWithoutSavepoints(() => server);

describe('batches in a group', () => {
  it('a batch stopped by a transient failure stops only its own entries; a REST write beside it commits', async () => {
    const tight = await startTestServer({ INVITE_USE_MAX_PER_USER: '1' });
    try {
      const [a, b, c] = [await makeUser(tight), await makeUser(tight), await makeUser(tight)];
      await makeFriends(a, b);
      await makeFriends(b, c);
      const hug = (await a.client.get('/api/prompts/default')).body[0].id;
      // A's one invite try of the window is spent: the next is a transient 429.
      expect((await a.client.post('/api/invites/nope/use', {})).status).toBe(404);
      // Groups held back (as behind a long commit): the batch and the REST write queue together.
      const release = tight.coalescer!.hold();
      const before = { ...tight.coalescer!.stats };
      const both = Promise.all([
        a.client.post('/api/sync/batch', {
          entries: [
            {
              idempotencyKey: `g1-${a.id}`,
              name: 'ping.send',
              args: { promptId: hug, receiverId: b.id },
            },
            { idempotencyKey: `g2-${a.id}`, name: 'invite.use', args: { code: 'nope-again' } },
            {
              idempotencyKey: `g3-${a.id}`,
              name: 'ping.send',
              args: { promptId: hug, receiverId: b.id },
            },
          ],
        }),
        c.client.post('/api/pings', { promptId: hug, receiverId: b.id }),
      ]);
      await until(() => tight.coalescer!.waitingJobs === 2);
      release();
      const [batch, rest] = await both;
      expect(batch.body.results.map((r: { status: number }) => r.status)).toEqual([201, 429, 0]);
      expect(rest.status).toBe(201);
      // One group: the batch (3 writes) and the REST write.
      expect(tight.coalescer!.stats.writes - before.writes).toBe(4);
      expect(tight.coalescer!.stats.groups - before.groups).toBe(1);
      const received = (await b.client.get('/api/pings/recent')).body as { senderId: string }[];
      expect(received.map((p) => p.senderId).sort()).toEqual([a.id, c.id].sort());
    } finally {
      await tight.stop();
    }
  });
});

/** A person inserted straight into `db`, as the unit of work reads them. */
async function insertUser(db: Db, id: string) {
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id: id,
      email: `${id}@example.test`,
      firstName: 'U',
      lastName: 'One',
      passwordHash: null,
      profileVisibility: 'public',
      onboardingCompleted: 1,
      onboardingStep: null,
      emailVerified: 1,
      isAdmin: 0,
      rateLimitPerDay: 10,
      inviteCode: `code-${id}`,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return (await findUserById(db, id))!;
}

/** SQLite whose COMMIT fails (as a full disk makes it): the transaction is rolled back. */
class FailingCommit extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.commitTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    };
    return driver;
  }
}

function failingCommit(opened: OpenedDb): Db {
  return new Kysely<Database>({
    dialect: new FailingCommit({ database: opened.sqlite }),
    plugins: [new CamelCasePlugin()],
  });
}

describe('a group whose commit fails', () => {
  let dir: string;
  let opened: OpenedDb;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-coalesce-'));
    opened = await openDatabase(path.join(dir, 'db.sqlite'));
  });
  afterAll(async () => {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails every write of the group, keeps none of them, and announces nothing', async () => {
    const config = loadConfig({ DATA_DIR: dir, PORT: '0' });
    const me = await insertUser(opened.db, 'u-1');
    const announced: ChangeSet[][] = [];
    const coalescer = new WriteCoalescer(failingCommit(opened), {
      announce: (sets) => void announced.push([...sets]),
    });
    const write = (tagline: string) =>
      coalescer.run({
        caller: { me, config, ip: '127.0.0.1' },
        items: [
          { entry: { name: 'profile.update', args: { tagline }, requestHash: `h-${tagline}` } },
        ],
        stopOnTransient: false,
      });
    const results = await Promise.allSettled([write('first'), write('second')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_IOERR' });
    expect((await findUserById(opened.db, 'u-1'))!.tagline).toBeNull();
    expect(announced).toEqual([]);
    expect(coalescer.stats.groups).toBe(0);
  });
});

describe('the idempotency records of a group', () => {
  let dir: string;
  let opened: OpenedDb;
  const statements: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-coalesce-keys-'));
    opened = await openDatabase(path.join(dir, 'db.sqlite'), {
      onQuery: (_kind, _ms, sql) => void statements.push(sql),
    });
  });
  afterAll(async () => {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the keyed profile writes in one group; answers each job's outcome. */
  async function inOneGroup(userId: string, writes: { key: string; tagline: string }[]) {
    const config = loadConfig({ DATA_DIR: dir, PORT: '0' });
    const me = await insertUser(opened.db, userId);
    const coalescer = new WriteCoalescer(opened.db, undefined);
    const release = coalescer.hold();
    const jobs = writes.map(({ key, tagline }) =>
      coalescer.run({
        caller: { me, config, ip: '127.0.0.1' },
        items: [
          {
            entry: { name: 'profile.update', args: { tagline }, key, requestHash: `h-${tagline}` },
          },
        ],
        stopOnTransient: false,
      }),
    );
    await until(() => coalescer.waitingJobs === writes.length);
    statements.length = 0;
    release();
    const outcomes = (await Promise.all(jobs)).map((o) => o[0]!);
    const stored = await opened.db
      .selectFrom('idempotencyKeys')
      .select(['key', 'body'])
      .where('caller', '=', userId)
      .orderBy('key')
      .execute();
    return { outcomes, stored, stats: coalescer.stats };
  }

  const inserts = () => statements.filter((s) => s.startsWith('insert into "idempotency_keys"'));

  it('are stored together, in one statement before the commit', async () => {
    const writes = [1, 2, 3, 4, 5].map((i) => ({ key: `k${i}`, tagline: `t${i}` }));
    const { outcomes, stored, stats } = await inOneGroup(uuidv7(), writes);
    expect(outcomes.map((o) => ('answer' in o ? o.answer.status : o))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(stats).toMatchObject({ groups: 1, runAgain: 0, savepoints: 0 });
    expect(inserts()).toHaveLength(1);
    expect(stored.map((r) => r.key)).toEqual(['k1', 'k2', 'k3', 'k4', 'k5']);
    expect(stored.map((r) => r.body)).toEqual(
      outcomes.map((o) => ('answer' in o ? o.answer.json : undefined)),
    );
  });

  it('a key used twice in one group: the group runs again, and the second is the replay of the first', async () => {
    const { outcomes, stored, stats } = await inOneGroup(uuidv7(), [
      { key: 'same', tagline: 'once' },
      { key: 'other', tagline: 'other' },
      { key: 'same', tagline: 'once' },
    ]);
    const [first, other, second] = outcomes.map((o) => ('answer' in o ? o.answer : undefined));
    expect([first?.status, other?.status, second?.status]).toEqual([200, 200, 200]);
    expect(first?.replayed).toBeUndefined();
    expect(second?.replayed).toBe(true);
    expect(second?.json).toBe(first?.json);
    expect(stats).toMatchObject({ groups: 1, runAgain: 1 });
    expect(stored.map((r) => r.key)).toEqual(['other', 'same']);
    // Run again with a savepoint each, each write stores its record on its own.
    expect(inserts().length).toBeGreaterThan(1);
  });
});
