import { randomUUID } from 'node:crypto';
import { utcDay, uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type MadeUser, type TestServer } from '../../test/harness';
import { SEEDED_PACKS } from '../db/migrations/004-packs';
import { friendshipStrength } from './insights';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

/** A friendship written straight into the table, accepted `msAgo` ago (or pending). */
async function befriend(
  a: MadeUser,
  b: MadeUser,
  msAgo = 0,
  status: 'accepted' | 'pending' = 'accepted',
) {
  const at = iso(msAgo);
  await server.database.db
    .insertInto('friendships')
    .values({
      id: randomUUID(),
      requesterId: a.id,
      addresseeId: b.id,
      status,
      createdAt: at,
      acceptedAt: status === 'accepted' ? at : null,
    })
    .execute();
  return at;
}

interface PingSpec {
  from: MadeUser;
  to: MadeUser;
  msAgo: number;
  /** A prompt ping with this text, or a custom ping when absent. */
  prompt?: string;
  emoji?: string;
}

/** Pings inserted directly, as the ping routes would store them; returns their ids. */
async function insertPings(specs: PingSpec[]): Promise<string[]> {
  const rows = specs.map((s) => ({
    id: uuidv7(Date.now() - s.msAgo),
    senderId: s.from.id,
    receiverId: s.to.id,
    kind: s.prompt ? ('prompt' as const) : ('custom' as const),
    promptId: null,
    promptText: s.prompt ?? null,
    promptEmoji: s.prompt ? (s.emoji ?? '💭') : null,
    customText: s.prompt ? null : 'Thinking of you',
    customEmoji: s.prompt ? null : '💫',
    anchorId: null,
    groupId: null,
    isRead: 0,
    readAt: null,
    createdAt: iso(s.msAgo),
  }));
  if (rows.length) await server.database.db.insertInto('pings').values(rows).execute();
  return rows.map((r) => r.id);
}

async function react(by: MadeUser, pingId: string, msAgo = 0) {
  const createdAt = iso(msAgo);
  await server.database.db
    .insertInto('reactions')
    .values({
      id: uuidv7(),
      pingId,
      userId: by.id,
      reactionType: 'heart',
      createdAt,
    })
    .execute();
  return createdAt;
}

const HUG = 'Ping me when you need a hug';
const MISS = 'Ping me when you miss me';
const TALK = 'Ping me when you want to talk';

describe('insights: signed out', () => {
  it.each([
    ['GET', `/api/analytics/friendship/${uuidv7()}`],
    ['GET', '/api/analytics/pings'],
    ['GET', '/api/profile/metrics'],
    ['GET', '/api/profile/moments'],
    ['GET', '/api/profile/badges'],
    ['GET', '/api/profile/collections'],
    ['POST', `/api/profile/collections/${SEEDED_PACKS[0]!.id}/install`],
  ])('%s %s is 401 Unauthorized', async (method, path) => {
    const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('friendshipStrength', () => {
  it.each([
    [0, 1],
    [2, 1],
    [3, 2],
    [9, 2],
    [10, 3],
    [24, 3],
    [25, 4],
    [49, 4],
    [50, 5],
    [500, 5],
  ])('%i pings exchanged → %i', (n, strength) => {
    expect(friendshipStrength(n)).toBe(strength);
  });
});

describe('GET /api/analytics/friendship/{friendId}', () => {
  it('counts the last 30 days of pings between the two, from the tables', async () => {
    const [a, b, c] = await Promise.all([makeUser(server), makeUser(server), makeUser(server)]);
    await befriend(a, b);
    await befriend(a, c);
    await insertPings([
      { from: a, to: b, msAgo: HOUR, prompt: HUG, emoji: '🤗' },
      { from: a, to: b, msAgo: 2 * DAY, prompt: HUG, emoji: '🤗' },
      { from: a, to: b, msAgo: 3 * DAY, prompt: MISS, emoji: '💕' },
      { from: b, to: a, msAgo: 2 * DAY, prompt: HUG, emoji: '🤗' },
      { from: b, to: a, msAgo: 10 * DAY },
      // Outside the window, or with someone else: not counted.
      { from: a, to: b, msAgo: 45 * DAY, prompt: HUG },
      { from: a, to: c, msAgo: 1000, prompt: TALK },
      { from: c, to: b, msAgo: 1000, prompt: TALK },
    ]);

    const res = await a.client.get(`/api/analytics/friendship/${b.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      friendId: b.id,
      pingsSentToFriend: 3,
      pingsReceivedFromFriend: 2,
      totalPingsExchanged: 5,
      friendshipStrength: 2,
      favoritePrompts: [
        { prompt: { text: HUG, emoji: '🤗' }, count: 3 },
        { prompt: { text: MISS, emoji: '💕' }, count: 1 },
      ],
    });
    expect(Date.parse(res.body.lastInteraction)).toBeGreaterThan(Date.now() - HOUR - 60_000);
    const history: { date: string; pingsExchanged: number }[] = res.body.interactionHistory;
    expect(history).toHaveLength(30);
    expect(history.at(-1)!.date).toBe(utcDay(Date.now()));
    expect(history[0]!.date).toBe(utcDay(Date.now() - 29 * DAY));
    expect(history.reduce((s, d) => s + d.pingsExchanged, 0)).toBe(5);
    const twoDaysAgo = history.find((d) => d.date === utcDay(Date.now() - 2 * DAY))!;
    expect(twoDaysAgo.pingsExchanged).toBeGreaterThanOrEqual(2);

    // The friend sees the mirror image.
    const mirror = await b.client.get(`/api/analytics/friendship/${a.id}`);
    expect(mirror.body).toMatchObject({ pingsSentToFriend: 2, pingsReceivedFromFriend: 3 });
  });

  it('is strength 1 with an empty, zero-filled history for a quiet friendship', async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    await befriend(b, a);
    const res = await a.client.get(`/api/analytics/friendship/${b.id}`);
    expect(res.body).toMatchObject({
      friendshipStrength: 1,
      totalPingsExchanged: 0,
      lastInteraction: null,
      favoritePrompts: [],
    });
    expect(
      res.body.interactionHistory.every((d: { pingsExchanged: number }) => d.pingsExchanged === 0),
    ).toBe(true);
  });

  it('reaches strength 5 at 50 pings exchanged', async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    await befriend(a, b);
    await insertPings(
      Array.from({ length: 50 }, (_, i) => ({
        from: i % 2 ? a : b,
        to: i % 2 ? b : a,
        msAgo: i * HOUR,
        prompt: HUG,
      })),
    );
    const res = await a.client.get(`/api/analytics/friendship/${b.id}`);
    expect(res.body.totalPingsExchanged).toBe(50);
    expect(res.body.friendshipStrength).toBe(5);
  });

  it('is 404 for a stranger, yourself and unknown people; 400 for a bad id', async () => {
    const [a, b, stranger] = await Promise.all([
      makeUser(server),
      makeUser(server),
      makeUser(server),
    ]);
    await befriend(a, b);
    await insertPings([{ from: a, to: b, msAgo: HOUR, prompt: HUG }]);
    for (const id of [a.id, randomUUID()]) {
      expect((await stranger.client.get(`/api/analytics/friendship/${id}`)).status).toBe(404);
    }
    expect((await a.client.get(`/api/analytics/friendship/${a.id}`)).status).toBe(404);
    const bad = await a.client.get('/api/analytics/friendship/123');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Must be a valid id');
  });
});

/** a sent 5 (4 this week, one custom) and received 3 (2 this week), reacting to 2 of them. */
async function analyticsScenario() {
  const [a, b, c] = await Promise.all([makeUser(server), makeUser(server), makeUser(server)]);
  await befriend(a, b);
  await befriend(c, a);
  const sent = await insertPings([
    { from: a, to: b, msAgo: HOUR, prompt: HUG, emoji: '🤗' },
    { from: a, to: c, msAgo: 2 * DAY, prompt: HUG, emoji: '🤗' },
    { from: a, to: b, msAgo: 3 * DAY, prompt: MISS, emoji: '💕' },
    { from: a, to: b, msAgo: 10 * DAY, prompt: TALK, emoji: '💬' },
    { from: a, to: c, msAgo: DAY },
  ]);
  const received = await insertPings([
    { from: b, to: a, msAgo: HOUR, prompt: HUG },
    { from: b, to: a, msAgo: 8 * DAY, prompt: MISS },
    { from: c, to: a, msAgo: 2 * DAY },
  ]);
  await react(a, received[0]!);
  await react(a, received[2]!);
  // b's reaction to a's ping is b's, not a's.
  await react(b, sent[0]!);
  return { a, b, c };
}

describe('GET /api/analytics/pings', () => {
  it('answers totals, this week, reactions, response rate and top prompts from the tables', async () => {
    const { a } = await analyticsScenario();
    const res = await a.client.get('/api/analytics/pings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalPingsSent: 5,
      pingsSentThisWeek: 4,
      totalPingsReceived: 3,
      pingsReceivedThisWeek: 2,
      totalReactions: 2,
      responseRate: 67,
      mostUsedPrompts: [
        { prompt: { text: HUG, emoji: '🤗' }, count: 2 },
        { prompt: { text: MISS, emoji: '💕' }, count: 1 },
        { prompt: { text: TALK, emoji: '💬' }, count: 1 },
      ],
    });
    expect(typeof res.body.computedAt).toBe('string');
  });

  it('is all zeros for someone who has done nothing yet', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/analytics/pings');
    expect(res.body).toMatchObject({
      totalPingsSent: 0,
      pingsSentThisWeek: 0,
      totalPingsReceived: 0,
      pingsReceivedThisWeek: 0,
      totalReactions: 0,
      responseRate: 0,
      mostUsedPrompts: [],
    });
  });
});

describe('GET /api/profile/metrics', () => {
  it("answers this week's sent and received, top themes and new connections", async () => {
    const { a } = await analyticsScenario();
    const [d, e, f] = await Promise.all([makeUser(server), makeUser(server), makeUser(server)]);
    await befriend(a, d, 10 * DAY);
    await befriend(e, a, 40 * DAY);
    await befriend(a, f, 0, 'pending');
    const res = await a.client.get('/api/profile/metrics');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      pingsSent: 4,
      pingsReceived: 2,
      topThemes: [HUG, MISS],
      // b and c (today) and d (10 days ago); not e (40 days) nor the pending f.
      newConnections: 3,
    });
  });
});

describe('GET /api/profile/moments', () => {
  it("lists only the caller's moments, newest first", async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    await befriend(a, b);
    const [p1, p2] = await insertPings([
      { from: b, to: a, msAgo: 3 * DAY, prompt: HUG },
      { from: b, to: a, msAgo: DAY, prompt: MISS },
    ]);
    const moment = (user: MadeUser, pingId: string, title: string, msAgo: number) => ({
      id: uuidv7(Date.now() - msAgo),
      userId: user.id,
      pingId,
      title,
      description: title === 'Old' ? null : 'Made me smile',
      createdAt: iso(msAgo),
    });
    const rows = [
      moment(a, p1!, 'Old', 2 * DAY),
      moment(a, p2!, 'New', HOUR),
      moment(b, p1!, 'Theirs', 0),
    ];
    await server.database.db.insertInto('moments').values(rows).execute();
    const res = await a.client.get('/api/profile/moments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: rows[1]!.id,
        pingId: p2,
        title: 'New',
        description: 'Made me smile',
        createdAt: rows[1]!.createdAt,
      },
      {
        id: rows[0]!.id,
        pingId: p1,
        title: 'Old',
        description: null,
        createdAt: rows[0]!.createdAt,
      },
    ]);
    expect((await (await makeUser(server)).client.get('/api/profile/moments')).body).toEqual([]);
  });
});

describe('GET /api/profile/badges', () => {
  it('has none for a new person', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/profile/badges');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('earns badges from real activity, each dated when it was earned, newest first', async () => {
    const a = await makeUser(server);
    const fr = await Promise.all(Array.from({ length: 5 }, () => makeUser(server)));
    const friendedAt: string[] = [];
    for (let i = 0; i < 5; i++) friendedAt.push(await befriend(a, fr[i]!, (20 - i) * DAY));
    // 7 consecutive days ending today: one ping a day for 6 days, then 4 more today.
    const sinceMidnight = Date.now() % DAY;
    const specs: PingSpec[] = [];
    for (let d = 6; d >= 1; d--) specs.push({ from: a, to: fr[0]!, msAgo: d * DAY, prompt: HUG });
    for (let i = 4; i >= 1; i--)
      specs.push({
        from: a,
        to: fr[1]!,
        msAgo: Math.floor((sinceMidnight * i) / 10),
        prompt: MISS,
      });
    const ids = await insertPings(specs);
    const pings = await server.database.db
      .selectFrom('pings')
      .select(['id', 'createdAt'])
      .where('id', 'in', ids)
      .orderBy('createdAt')
      .execute();
    const reply = await insertPings([{ from: fr[2]!, to: a, msAgo: 3 * DAY }]);
    const reactedAt = await react(a, reply[0]!, 2 * DAY);
    // An accepted anchor.
    const anchorAt = iso(5 * DAY);
    await server.database.db
      .insertInto('anchors')
      .values({
        id: uuidv7(),
        userId: fr[3]!.id,
        friendId: a.id,
        label: null,
        text: 'Ping me when you need me',
        emoji: '⚓',
        color: '#e35120',
        status: 'accepted',
        createdAt: iso(6 * DAY),
        respondedAt: anchorAt,
      })
      .execute();

    const res = await a.client.get('/api/profile/badges');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(
      res.body.map((b: { id: string; earnedAt: string }) => [b.id, b.earnedAt]),
    );
    const todayFirst = pings.find((p) => p.createdAt.slice(0, 10) === utcDay(Date.now()))!;
    expect(byId).toEqual({
      'first-ping': pings[0]!.createdAt,
      'ten-pings': pings[9]!.createdAt,
      'first-reaction': reactedAt,
      'first-anchor': anchorAt,
      'five-friends': friendedAt[4],
      'week-streak': todayFirst.createdAt,
    });
    // Newest first.
    const times = res.body.map((b: { earnedAt: string }) => b.earnedAt);
    expect([...times].sort().reverse()).toEqual(times);
    for (const b of res.body) expect(b.title && b.description).toBeTruthy();
  });

  it('awards the 100-pings milestone at the 100th ping, and nothing for a 6-day streak', async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    await befriend(a, b);
    // Days -8..-3 (six in a row), a gap, then the rest within the last 101 seconds.
    const specs = Array.from({ length: 101 }, (_, i) => ({
      from: a,
      to: b,
      msAgo: i < 6 ? (8 - i) * DAY : (101 - i) * 1000,
      prompt: HUG,
    }));
    await insertPings(specs);
    const ordered = await server.database.db
      .selectFrom('pings')
      .select('createdAt')
      .where('senderId', '=', a.id)
      .orderBy('createdAt')
      .execute();
    const res = await a.client.get('/api/profile/badges');
    const ids = res.body.map((x: { id: string }) => x.id);
    expect(ids).toContain('hundred-pings');
    expect(res.body.find((x: { id: string }) => x.id === 'hundred-pings').earnedAt).toBe(
      ordered[99]!.createdAt,
    );
    expect(ids).not.toContain('week-streak');
    expect(ids).not.toContain('five-friends');
  });
});

describe('ping packs', () => {
  async function defaultTexts(): Promise<Set<string>> {
    const rows = await server.database.db
      .selectFrom('prompts')
      .select('text')
      .where('ownerId', 'is', null)
      .execute();
    return new Set(rows.map((r) => r.text.toLowerCase()));
  }

  it('lists the seeded packs, each with 4-6 prompts and tags, not installed', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/profile/collections');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(3);
    expect(res.body.map((c: { id: string }) => c.id)).toEqual(SEEDED_PACKS.map((p) => p.id));
    for (const c of res.body) {
      expect(c.prompts.length).toBeGreaterThanOrEqual(4);
      expect(c.prompts.length).toBeLessThanOrEqual(6);
      expect(c.tags.length).toBeGreaterThan(0);
      expect(c).toMatchObject({ isOwn: false, installed: false });
      expect(typeof c.installCount).toBe('number');
    }
  });

  it("installs a pack: its prompts become the person's custom prompts, once", async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    const pack = SEEDED_PACKS[1]!;
    const before = (await a.client.get('/api/profile/collections')).body.find(
      (c: { id: string }) => c.id === pack.id,
    ).installCount;
    const res = await a.client.post(`/api/profile/collections/${pack.id}/install`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: pack.id,
      installed: true,
      installCount: before + 1,
      isOwn: false,
    });

    const defaults = await defaultTexts();
    const expected = pack.prompts.filter((p) => !defaults.has(p.text.toLowerCase()));
    const mine = await server.database.db
      .selectFrom('prompts')
      .selectAll()
      .where('ownerId', '=', a.id)
      .orderBy('position')
      .execute();
    expect(mine.map((p) => ({ text: p.text, emoji: p.emoji }))).toEqual(expected);
    expect(mine.every((p) => p.isDefault === 0)).toBe(true);
    const changes = await server.database.db
      .selectFrom('changes')
      .select(['userId', 'entity', 'entityId'])
      .where(
        'entityId',
        'in',
        mine.map((p) => p.id),
      )
      .execute();
    expect(changes).toHaveLength(mine.length);
    expect(changes.every((c) => c.userId === a.id && c.entity === 'prompt')).toBe(true);

    // Installing again is harmless.
    const again = await a.client.post(`/api/profile/collections/${pack.id}/install`);
    expect(again.status).toBe(200);
    expect(again.body.installCount).toBe(before + 1);
    const count = await server.database.db
      .selectFrom('prompts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ownerId', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(mine.length);

    // Someone else's install counts too; each sees their own installed flag.
    const other = await b.client.post(`/api/profile/collections/${pack.id}/install`);
    expect(other.body.installCount).toBe(before + 2);
    const list = (await a.client.get('/api/profile/collections')).body;
    expect(list.find((c: { id: string }) => c.id === pack.id)).toMatchObject({
      installed: true,
      installCount: before + 2,
    });
    expect(list.filter((c: { installed: boolean }) => c.installed)).toHaveLength(1);
  });

  it('replays an Idempotency-Key for an install', async () => {
    const a = await makeUser(server);
    const pack = SEEDED_PACKS[2]!;
    const headers = { 'Idempotency-Key': 'install-1' };
    const first = await a.client.post(
      `/api/profile/collections/${pack.id}/install`,
      {},
      { headers },
    );
    const second = await a.client.post(
      `/api/profile/collections/${pack.id}/install`,
      {},
      { headers },
    );
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it("shows a person's own pack only to them; others cannot install it", async () => {
    const [a, b] = await Promise.all([makeUser(server), makeUser(server)]);
    const id = uuidv7();
    await server.database.db
      .insertInto('packs')
      .values({
        id,
        ownerId: a.id,
        title: 'Mine',
        description: null,
        tags: '["personal"]',
        prompts: JSON.stringify([{ text: 'Ping me when the kettle is on', emoji: '🫖' }]),
        installCount: 0,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const mine = (await a.client.get('/api/profile/collections')).body;
    expect(mine.at(-1)).toMatchObject({
      id,
      title: 'Mine',
      isOwn: true,
      tags: ['personal'],
      installed: false,
    });
    const theirs = (await b.client.get('/api/profile/collections')).body;
    expect(theirs.some((c: { id: string }) => c.id === id)).toBe(false);
    const res = await b.client.post(`/api/profile/collections/${id}/install`);
    expect(res.status).toBe(404);
  });

  it('is 404 for an unknown pack, 400 for a bad id or a body with fields', async () => {
    const a = await makeUser(server);
    expect((await a.client.post(`/api/profile/collections/${uuidv7()}/install`)).status).toBe(404);
    const bad = await a.client.post('/api/profile/collections/abc/install');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Must be a valid id');
    const extra = await a.client.post(`/api/profile/collections/${SEEDED_PACKS[0]!.id}/install`, {
      all: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe('Unknown field: all');
  });
});
