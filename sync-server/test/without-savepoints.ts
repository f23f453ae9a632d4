/**
 * A group of writes runs without savepoints until one of its writes fails
 * (mutations/coalesce.ts, WithoutSavepoints), then once more with a savepoint per write. The same
 * tests on SQLite (coalesce.test.ts) and PostgreSQL (coalesce.pg.test.ts).
 */
import { describe, expect, it } from 'vitest';
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

  describe('a group runs without savepoints until a write fails', () => {
    it('writes that all succeed open no savepoint and run once', async () => {
      const { people, prompt } = await ring(6);
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
      expect(toC.map((p) => p.id)).toEqual([other.body.id]);
    });
  });
}
