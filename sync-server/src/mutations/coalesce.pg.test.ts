/**
 * Group commit on PostgreSQL (mutations/coalesce.ts): a node runs several groups of writes at once
 * when DATABASE_WRITE_TRANSACTIONS asks (here 2), each in its own transaction, so one group that
 * waits (on a lock, or on the network) does not hold back the writes that arrived after it. Fails
 * with one group at a time: the second write then waits behind the first.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { within } from '../../test/poll';
import { describeGroupsWithoutSavepoints } from '../../test/without-savepoints';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ DATABASE_WRITE_TRANSACTIONS: '2' });
});
afterAll(() => server.stop());

/** `p`, or a failure naming `what` after `ms`. */
async function answeredWithin<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `n` new people. */
async function newPeople(n: number): Promise<MadeUser[]> {
  const made: MadeUser[] = [];
  for (let i = 0; i < n; i++) made.push(await makeUser(server));
  return made;
}

/**
 * Runs `body` while another session holds `userId`'s change counter: a write that records a
 * change for them waits on it at its flush, just before its commit, with its group's transaction
 * open. `body` ends the hold with `outside.query('commit')`; it ends anyway afterwards.
 */
async function withChangeCounterHeld(
  userId: string,
  body: (outside: pg.Client) => Promise<void>,
): Promise<void> {
  const outside = new pg.Client({ connectionString: server.config.databaseUrl });
  await outside.connect();
  try {
    await outside.query('begin');
    await outside.query('select seq from change_counters where user_id = $1 for update', [userId]);
    await body(outside);
  } finally {
    await outside.query('rollback').catch(() => undefined);
    await outside.end();
  }
}

describe('groups of writes on PostgreSQL', () => {
  it('runs DATABASE_WRITE_TRANSACTIONS groups at once', () => {
    expect(server.config.databaseWriteTransactions).toBe(2);
    expect(server.coalescer!.maxLanes).toBe(2);
  });

  it('answers every write of many at once, still sharing commits', async () => {
    const people = await newPeople(16);
    for (let i = 0; i < people.length; i++) await makeFriends(people[i]!, people[(i + 1) % 16]!);
    const prompt = (await people[0]!.client.get('/api/prompts/default')).body[0].id as string;
    const before = { ...server.coalescer!.stats };
    const answers = await Promise.all(
      people.map((p, i) =>
        p.client.post('/api/pings', { promptId: prompt, receiverId: people[(i + 1) % 16]!.id }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 201));
    expect(server.coalescer!.stats.writes - before.writes).toBe(16);
    expect(server.coalescer!.stats.groups - before.groups).toBeLessThan(16);
    for (const [i, a] of answers.entries()) {
      const received = await people[(i + 1) % 16]!.client.get('/api/pings/recent');
      expect(received.body.map((p: { id: string }) => p.id)).toEqual([a.body.id]);
    }
  });

  it('commits a later write while an earlier group waits on a lock', async () => {
    const [ana, ben, cy, dan] = await newPeople(4);
    await makeFriends(ana!, ben!);
    await makeFriends(cy!, dan!);
    const prompt = (await ana!.client.get('/api/prompts/default')).body[0].id as string;

    // Another session holds ben's change counter: the write to ben waits on it.
    await withChangeCounterHeld(ben!.id, async (outside) => {
      let first: { status: number } | undefined;
      const toBen = ana!.client
        .post('/api/pings', { promptId: prompt, receiverId: ben!.id })
        .then((r) => (first = r));
      // The first group is inside the database, waiting for the lock.
      await within(10_000, async () => (await sessionsWaitingOnLocks(outside)) === 1);

      const toDan = await answeredWithin(
        10_000,
        'the second write',
        cy!.client.post('/api/pings', { promptId: prompt, receiverId: dan!.id }),
      );
      expect(toDan.status).toBe(201);
      expect(first).toBeUndefined();
      const seen = await dan!.client.get('/api/pings/recent');
      expect(seen.body.map((p: { id: string }) => p.id)).toContain(toDan.body.id);

      await outside.query('commit');
      const answered = await answeredWithin(
        10_000,
        'the first write, once the lock is gone',
        toBen,
      );
      expect(answered.status).toBe(201);
      const received = await ben!.client.get('/api/pings/recent');
      expect(received.body).toHaveLength(1);
    });
  });

  it('never runs more groups than DATABASE_WRITE_TRANSACTIONS: a third write waits while two do', async () => {
    const [ana, ben, eve, cy, dan] = await newPeople(5);
    await makeFriends(ana!, ben!);
    await makeFriends(eve!, ben!);
    await makeFriends(cy!, dan!);
    const prompt = (await ana!.client.get('/api/prompts/default')).body[0].id as string;
    const send = (from: MadeUser, to: MadeUser) =>
      from.client.post('/api/pings', { promptId: prompt, receiverId: to.id });

    await withChangeCounterHeld(ben!.id, async (outside) => {
      // Two groups, each waiting on ben's counter: every group this node may run.
      const toBen = [send(ana!, ben!)];
      await within(10_000, async () => (await sessionsWaitingOnLocks(outside)) === 1);
      toBen.push(send(eve!, ben!));
      await within(10_000, async () => (await sessionsWaitingOnLocks(outside)) === 2);
      expect(server.coalescer!.running).toBe(2);

      const toDan = send(cy!, dan!);
      await within(10_000, () => server.coalescer!.waitingJobs === 1);
      // Some turns of the event loop later it still waits: no third group took it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.coalescer!.waitingJobs).toBe(1);
      expect(server.coalescer!.running).toBe(2);

      await outside.query('commit');
      const answers = await answeredWithin(
        10_000,
        'the three writes',
        Promise.all([...toBen, toDan]),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      expect(server.coalescer!.waitingJobs).toBe(0);
    });
  });
});

/** How many sessions of this database wait on a lock. */
async function sessionsWaitingOnLocks(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

describeGroupsWithoutSavepoints(() => server);
