import { randomUUID } from 'node:crypto';
import { ENERGY_TIPS, energyLevel, energyScore, energyTips, uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
/** A moment earlier today (UTC), however soon after midnight the test runs. */
const earlierToday = () => Math.floor((Date.now() % DAY) / 2);

async function ping(from: MadeUser, to: MadeUser, msAgo: number): Promise<string> {
  const id = uuidv7(Date.now() - msAgo);
  await server.database.db
    .insertInto('pings')
    .values({
      id,
      senderId: from.id,
      receiverId: to.id,
      kind: 'prompt',
      promptId: null,
      promptText: 'Ping me when you need a hug',
      promptEmoji: '🤗',
      customText: null,
      customEmoji: null,
      anchorId: null,
      groupId: null,
      isRead: 0,
      readAt: null,
      createdAt: iso(msAgo),
    })
    .execute();
  return id;
}

async function react(by: MadeUser, pingId: string) {
  await server.database.db
    .insertInto('reactions')
    .values({ id: uuidv7(), pingId, userId: by.id, reactionType: 'heart', createdAt: iso(0) })
    .execute();
}

async function mood(from: MadeUser, to: MadeUser, msAgo: number) {
  await server.database.db
    .insertInto('moods')
    .values({
      id: uuidv7(),
      userId: from.id,
      friendId: to.id,
      mood: 'happy',
      emoji: '😊',
      note: null,
      createdAt: iso(msAgo),
    })
    .execute();
}

/**
 * a and b: 3 pings both ways this week on today, yesterday and the day before (a streak of 3),
 * one older; b sent a 2 pings in 30 days and a reacted to one (50 %); one mood in 30 days.
 */
async function scenario() {
  const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
  await makeFriends(a, b);
  await ping(a, b, earlierToday());
  const fromB = await ping(b, a, DAY);
  await ping(a, b, 2 * DAY);
  await ping(a, b, 8 * DAY);
  await ping(b, a, 10 * DAY);
  await react(a, fromB);
  await mood(a, b, DAY);
  await mood(b, a, 40 * DAY);
  return { a, b };
}

describe('energy: signed out', () => {
  it.each([
    ['GET', '/api/energy/all'],
    ['GET', `/api/energy/friendship/${uuidv7()}`],
    ['POST', '/api/energy/update-all'],
  ])('%s %s is 401 Unauthorized', async (method, path) => {
    const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('GET /api/energy/all', () => {
  it('is empty without friends', async () => {
    const a = await makeUser(server);
    expect((await a.client.get('/api/energy/all')).body).toEqual([]);
    expect((await a.client.post('/api/energy/update-all')).body).toEqual([]);
  });

  it('computes a fresh entry for a friend without a snapshot', async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    await makeFriends(b, a);
    const res = await a.client.get('/api/energy/all');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        friendId: b.id,
        friend: {
          id: b.id,
          firstName: b.user.firstName,
          lastName: b.user.lastName,
          profileImageUrl: null,
        },
        energyScore: 0,
        energyLevel: 'Low',
        metrics: { pingFrequency: 0, responseRate: 0, moodSharingCount: 0, streakDays: 0 },
        tips: [
          ENERGY_TIPS.morePings,
          ENERGY_TIPS.react,
          ENERGY_TIPS.shareMood,
          ENERGY_TIPS.dailyContact,
        ],
        computedAt: expect.any(String),
      },
    ]);
  });

  it('measures frequency, response rate, mood shares and streak from the tables', async () => {
    const { a, b } = await scenario();
    const res = await a.client.get('/api/energy/all');
    const metrics = { pingFrequency: 3, responseRate: 50, moodSharingCount: 1, streakDays: 3 };
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      friendId: b.id,
      metrics,
      energyScore: energyScore(metrics),
      energyLevel: energyLevel(energyScore(metrics)),
      tips: energyTips(metrics),
    });
    expect(res.body[0].energyScore).toBe(33);
    expect(res.body[0].energyLevel).toBe('Low-Medium');
    // b's side: b reacted to none of a's pings.
    const theirs = (await b.client.get('/api/energy/all')).body[0];
    expect(theirs.metrics).toEqual({ ...metrics, responseRate: 0 });
  });

  it('answers the stored snapshot until a refresh recomputes it after new activity', async () => {
    const { a, b } = await scenario();
    const refreshed = await a.client.post('/api/energy/update-all');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toHaveLength(1);
    const stored = await server.database.db
      .selectFrom('energySnapshots')
      .selectAll()
      .where('userId', '=', a.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ friendId: b.id, score: 33, level: 'Low-Medium' });

    // New activity: a sends 11 more pings today, and b shares three moods.
    for (let i = 0; i < 11; i++) await ping(a, b, earlierToday());
    for (let i = 0; i < 3; i++) await mood(b, a, HOUR);
    const cached = await a.client.get('/api/energy/all');
    expect(cached.body).toEqual(refreshed.body);

    const again = await a.client.post('/api/energy/update-all');
    expect(again.body[0].metrics).toEqual({
      pingFrequency: 14,
      responseRate: 50,
      moodSharingCount: 4,
      streakDays: 3,
    });
    // 40 + 12.5 + 15 + 8.57, rounded.
    expect(again.body[0].energyScore).toBe(76);
    expect(again.body[0].energyLevel).toBe('High');
    expect(again.body[0].computedAt >= refreshed.body[0].computedAt).toBe(true);
    expect((await a.client.get('/api/energy/all')).body).toEqual(again.body);
    expect((await a.client.get(`/api/energy/friendship/${b.id}`)).body).toEqual(again.body[0]);
  });

  it('lists every friend, highest energy first, mixing snapshots and fresh entries', async () => {
    const { a, b } = await scenario();
    await a.client.post('/api/energy/update-all');
    const c = await makeUser(server);
    await makeFriends(c, a);
    const res = await a.client.get('/api/energy/all');
    expect(res.body.map((e: { friendId: string }) => e.friendId)).toEqual([b.id, c.id]);
    expect(res.body[1]).toMatchObject({ energyScore: 0, energyLevel: 'Low' });
  });

  it("never shows a stranger's friendships", async () => {
    const { a } = await scenario();
    const stranger = await makeUser(server);
    await a.client.post('/api/energy/update-all');
    expect((await stranger.client.get('/api/energy/all')).body).toEqual([]);
    expect((await stranger.client.post('/api/energy/update-all')).body).toEqual([]);
  });
});

describe('GET /api/energy/friendship/{id}', () => {
  it("answers one friend's entry", async () => {
    const { a, b } = await scenario();
    const res = await a.client.get(`/api/energy/friendship/${b.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ friendId: b.id, energyScore: 33 });
  });

  it('is 404 for a non-friend, yourself and unknown ids; 400 for a bad id', async () => {
    const { a, b } = await scenario();
    const stranger = await makeUser(server);
    for (const [who, id] of [
      [stranger, b.id],
      [stranger, a.id],
      [a, a.id],
      [a, randomUUID()],
    ] as const) {
      const res = await who.client.get(`/api/energy/friendship/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Friend not found');
    }
    const bad = await a.client.get('/api/energy/friendship/xyz');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Must be a valid id');
  });
});

describe('POST /api/energy/update-all', () => {
  it('works without any body, as the refresh button sends it', async () => {
    const { a, b } = await scenario();
    const res = await a.client.request('POST', '/api/energy/update-all');
    expect(res.status).toBe(200);
    expect(res.body[0].friendId).toBe(b.id);
  });

  it('replays an Idempotency-Key with the stored answer', async () => {
    const { a, b } = await scenario();
    const headers = { 'Idempotency-Key': 'energy-1' };
    const first = await a.client.post('/api/energy/update-all', {}, { headers });
    await ping(b, a, 1000);
    const second = await a.client.post('/api/energy/update-all', {}, { headers });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const fresh = await a.client.post(
      '/api/energy/update-all',
      {},
      {
        headers: { 'Idempotency-Key': 'energy-2' },
      },
    );
    expect(fresh.body[0].metrics.pingFrequency).toBe(4);
  });

  it('rejects a body with fields, and bad JSON, with 400', async () => {
    const a = await makeUser(server);
    const extra = await a.client.post('/api/energy/update-all', { force: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe('Unknown field: force');
    const raw = await a.client.request('POST', '/api/energy/update-all', undefined, {
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
  });
});
