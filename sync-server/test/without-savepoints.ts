/**
 * A group of writes runs without savepoints until one of its writes fails
 * (mutations/coalesce.ts, WithoutSavepoints), then once more with a savepoint per write. The same
 * tests on SQLite (coalesce.test.ts) and PostgreSQL (coalesce.pg.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { SAVEPOINT_GROUPS_AFTER_FAILURE } from '../src/mutations/coalesce';
import { makeFriends, makeUser, type MadeUser, type TestServer } from './harness';

export function describeGroupsWithoutSavepoints(serverOf: () => TestServer): void {
  /** `n` people, each a friend of the next, and a default prompt's id. */
  async function ring(n: number): Promise<{ people: MadeUser[]; prompt: string }> {
    const people: MadeUser[] = [];
    for (let i = 0; i < n; i++) people.push(await makeUser(serverOf()));
    for (let i = 0; i < n - 1; i++) await makeFriends(people[i]!, people[i + 1]!);
    const prompts = await people[0]!.client.get('/api/prompts/default');
    return { people, prompt: prompts.body[0].id as string };
  }

  /** Holds the server's groups back until `count` writes wait, runs `send`, then lets them go. */
  async function inOneGroup<T>(count: number, send: () => Promise<T>): Promise<T> {
    const coalescer = serverOf().coalescer!;
    const release = coalescer.hold();
    const sent = send();
    for (let i = 0; i < 500 && coalescer.waitingJobs < count; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(coalescer.waitingJobs).toBe(count);
    release();
    return sent;
  }

  /**
   * Sends from `from` to `to`, one group each, until a group opens no savepoint: after an earlier
   * group ran again (an earlier test's), the next SAVEPOINT_GROUPS_AFTER_FAILURE take them first.
   */
  async function untilWithoutSavepoints(from: MadeUser, to: MadeUser, prompt: string) {
    const stats = serverOf().coalescer!.stats;
    for (let i = 0; i <= SAVEPOINT_GROUPS_AFTER_FAILURE; i++) {
      const before = stats.savepoints;
      const sent = await from.client.post('/api/pings', { promptId: prompt, receiverId: to.id });
      expect(sent.status).toBe(201);
      if (stats.savepoints === before) return;
    }
    throw new Error('every group still takes savepoints');
  }

  describe('a group runs without savepoints until a write fails', () => {
    it('writes that all succeed open no savepoint and run once', async () => {
      const { people, prompt } = await ring(6);
      await untilWithoutSavepoints(people[4]!, people[5]!, prompt);
      const stats = serverOf().coalescer!.stats;
      const before = { ...stats };
      const answers = await inOneGroup(5, () =>
        Promise.all(
          people
            .slice(0, 5)
            .map((p, i) =>
              p.client.post('/api/pings', { promptId: prompt, receiverId: people[i + 1]!.id }),
            ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(stats.groups - before.groups).toBe(1);
      expect(stats.savepoints - before.savepoints).toBe(0);
      expect(stats.runAgain - before.runAgain).toBe(0);
    });

    it('a write that fails after it wrote sends the group round again, each write in a savepoint: its half is undone, the others commit', async () => {
      const {
        people: [a, b, c],
        prompt,
      } = await ring(3);
      const headers = { 'Idempotency-Key': `again-${a!.id}` };
      const send = (from: MadeUser, to: MadeUser, h?: Record<string, string>) =>
        from.client.post(
          '/api/pings',
          { promptId: prompt, receiverId: to.id },
          h ? { headers: h } : {},
        );
      await untilWithoutSavepoints(b!, c!, prompt);
      const first = await send(a!, b!, headers);
      expect(first.status).toBe(201);
      const stats = serverOf().coalescer!.stats;
      const before = { ...stats };
      // The replay inserts a ping of its own (the server makes a new id), and only then does its
      // idempotency record meet the stored one: without a savepoint that ping could not be undone
      // alone.
      const [fresh, replay, other] = await inOneGroup(3, () =>
        Promise.all([send(a!, b!), send(a!, b!, headers), send(b!, c!)]),
      );
      expect([fresh.status, replay.status, other.status]).toEqual([201, 201, 201]);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
      expect(stats.groups - before.groups).toBe(1);
      expect(stats.runAgain - before.runAgain).toBe(1);
      expect(stats.savepoints - before.savepoints).toBe(3);
      const toB = (await b!.client.get('/api/pings/recent')).body as { id: string }[];
      expect(toB.map((p) => p.id).sort()).toEqual([first.body.id, fresh.body.id].sort());
      const toC = (await c!.client.get('/api/pings/recent')).body as { id: string }[];
      expect(toC.map((p) => p.id)).toContain(other.body.id);
    });

    it('after a group ran again, the next groups take savepoints from the start, then go without again', async () => {
      const {
        people: [a, b],
        prompt,
      } = await ring(2);
      await untilWithoutSavepoints(a!, b!, prompt);
      const stats = serverOf().coalescer!.stats;
      const headers = { 'Idempotency-Key': `after-${a!.id}` };
      const send = (h?: Record<string, string>) =>
        a!.client.post(
          '/api/pings',
          { promptId: prompt, receiverId: b!.id },
          h ? { headers: h } : {},
        );
      const first = await send(headers);
      const ranAgain = stats.runAgain;
      // A replay alone: its write fails without a savepoint, and its group runs again.
      expect((await send(headers)).body).toEqual(first.body);
      expect(stats.runAgain - ranAgain).toBe(1);
      for (let i = 0; i < SAVEPOINT_GROUPS_AFTER_FAILURE; i++) {
        const before = { ...stats };
        expect((await send()).status).toBe(201);
        expect(stats.savepoints - before.savepoints).toBe(1);
        expect(stats.runAgain - before.runAgain).toBe(0);
      }
      const before = stats.savepoints;
      expect((await send()).status).toBe(201);
      expect(stats.savepoints - before).toBe(0);
    });
  });
}
