import { randomUUID } from 'node:crypto';
import { uuidv7, type Ping } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { loadPings, visiblePingIds } from '../db/pings';
import { ID_TAKEN } from '../services/pings';
import { loadMoments, visibleMomentIds } from '../db/moments';

let server: TestServer;
let alice: MadeUser;
let bob: MadeUser;
let carol: MadeUser;
let eve: MadeUser; // a stranger to everyone

const HUG = '00000000-0000-7000-8000-000000000001';
const PROUD = '00000000-0000-7000-8000-000000000002';

beforeAll(async () => {
  server = await startTestServer();
  alice = await makeUser(server, { firstName: 'Alice' });
  bob = await makeUser(server, { firstName: 'Bob' });
  carol = await makeUser(server, { firstName: 'Carol' });
  eve = await makeUser(server, { firstName: 'Eve' });
  await makeFriends(alice, bob);
  await makeFriends(alice, carol);
  await makeFriends(carol, bob);
});
afterAll(() => server.stop());

const db = () => server.database.db;

/** Three fresh people: a and b friends, c friends with b only. */
async function trio() {
  const a = await makeUser(server, { firstName: 'Ann' });
  const b = await makeUser(server, { firstName: 'Ben' });
  const c = await makeUser(server, { firstName: 'Cid' });
  await makeFriends(a, b);
  await makeFriends(c, b);
  return { a, b, c };
}

async function setDailyLimit(u: MadeUser, n: number) {
  const res = await u.client.put('/api/profile/update', { rateLimitPerDay: n });
  if (res.status !== 200) {
    await db().updateTable('users').set({ rateLimitPerDay: n }).where('id', '=', u.id).execute();
  }
  const row = await db()
    .selectFrom('users')
    .select('rateLimitPerDay')
    .where('id', '=', u.id)
    .executeTakeFirstOrThrow();
  expect(row.rateLimitPerDay).toBe(n);
}

async function pingRowsFrom(senderId: string) {
  return db().selectFrom('pings').selectAll().where('senderId', '=', senderId).execute();
}

async function changes(entityId: string) {
  return (
    db()
      .selectFrom('changes')
      .select(['userId', 'entity', 'op'])
      .where('entityId', '=', entityId)
      // Numbers count per person: across people, the order is the time of the write.
      .orderBy('createdAt')
      .orderBy('seq')
      .execute()
  );
}

async function send(from: MadeUser, to: MadeUser, promptId = HUG): Promise<Ping> {
  const res = await from.client.post('/api/pings', { promptId, receiverId: to.id });
  expect(res.status).toBe(201);
  return res.body;
}

const summary = (u: MadeUser) => ({
  id: u.id,
  firstName: u.user.firstName,
  lastName: u.user.lastName,
  profileImageUrl: null,
});

describe('POST /api/pings', () => {
  it('delivers a prompt ping to a friend in the Ping shape', async () => {
    const res = await alice.client.post('/api/pings', { promptId: HUG, receiverId: bob.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      kind: 'prompt',
      senderId: alice.id,
      receiverId: bob.id,
      sender: summary(alice),
      receiver: summary(bob),
      prompt: { id: HUG, text: 'Ping me when you need a hug', emoji: '🤗' },
      customText: null,
      customEmoji: null,
      anchorId: null,
      groupId: null,
      createdAt: expect.any(String),
      writtenAt: expect.any(String),
      isRead: false,
      readAt: null,
      isBookmarked: false,
      reactions: [],
    });
    const recent = await bob.client.get('/api/pings/recent');
    expect(recent.body[0]).toEqual(res.body);
  });

  it('honours the client id', async () => {
    const id = uuidv7();
    const res = await alice.client.post('/api/pings', { id, promptId: PROUD, receiverId: bob.id });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(id);
  });

  it('keeps the prompt text as it read when sent', async () => {
    const p = await alice.client.post('/api/prompts', { text: 'Ping me when tea', emoji: '🍵' });
    const ping = await send(alice, bob, p.body.id);
    await alice.client.put(`/api/prompts/${p.body.id}`, { text: 'Ping me when coffee' });
    await alice.client.del(`/api/prompts/${p.body.id}`);
    const [stored] = await loadPings(db(), bob.id, [ping.id]);
    expect(stored!.prompt).toEqual({ id: p.body.id, text: 'Ping me when tea', emoji: '🍵' });
  });

  it('is 403 "You can only ping friends" for a stranger, and writes nothing', async () => {
    const before = (await pingRowsFrom(eve.id)).length;
    const res = await eve.client.post('/api/pings', { promptId: HUG, receiverId: bob.id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You can only ping friends');
    const self = await eve.client.post('/api/pings', { promptId: HUG, receiverId: eve.id });
    expect(self.status).toBe(403);
    const ghost = await eve.client.post('/api/pings', { promptId: HUG, receiverId: uuidv7() });
    expect(ghost.status).toBe(403);
    expect(await pingRowsFrom(eve.id)).toHaveLength(before);
  });

  it('is 404 for an unknown prompt and for someone else’s custom prompt', async () => {
    const unknown = await alice.client.post('/api/pings', {
      promptId: uuidv7(),
      receiverId: bob.id,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Prompt not found');
    const carols = await carol.client.post('/api/prompts', { text: 'Carol’s own' });
    const res = await alice.client.post('/api/pings', {
      promptId: carols.body.id,
      receiverId: bob.id,
    });
    expect(res.status).toBe(404);
  });

  it.each([
    [{ promptId: HUG }, 'Please select a friend to send the ping to.'],
    [{ receiverId: HUG }, 'Please choose a prompt'],
    [{ promptId: HUG, receiverId: 'bob' }, 'Must be a valid id'],
    [{ promptId: 1, receiverId: HUG }, 'Must be a valid id'],
    [{ promptId: HUG, receiverId: { id: HUG } }, 'Must be a valid id'],
    [{ promptId: HUG, receiverId: HUG, senderId: HUG }, 'Unknown field: senderId'],
  ])('rejects %j with 400 "%s"', async (body, message) => {
    const res = await alice.client.post('/api/pings', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
  });

  it('rejects a huge id with 400', async () => {
    const res = await alice.client.post('/api/pings', {
      id: 'x'.repeat(40_000),
      promptId: HUG,
      receiverId: bob.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Must be a valid id');
  });

  it('is 401 signed out', async () => {
    const res = await server.client().post('/api/pings', { promptId: HUG, receiverId: bob.id });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('replays an Idempotency-Key: one row, the same body, Idempotent-Replayed', async () => {
    const { a, b } = await trio();
    const headers = { 'Idempotency-Key': `p-${randomUUID()}` };
    const body = { promptId: HUG, receiverId: b.id };
    const one = await a.client.post('/api/pings', body, { headers });
    const two = await a.client.post('/api/pings', body, { headers });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect(await pingRowsFrom(a.id)).toHaveLength(1);
    const other = await a.client.post(
      '/api/pings',
      { promptId: PROUD, receiverId: b.id },
      { headers },
    );
    expect(other.status).toBe(422);
  });

  it('replays an Idempotency-Key with the stored answer when the write would be refused now', async () => {
    const { a, b } = await trio();
    const headers = { 'Idempotency-Key': `p-${randomUUID()}` };
    const body = { promptId: HUG, receiverId: b.id };
    const one = await a.client.post('/api/pings', body, { headers });
    expect(one.status).toBe(201);
    expect((await a.client.del(`/api/friends/${b.id}`)).status).toBe(200);
    // Not friends any more: the same write new would be 403; its replay is what it answered.
    expect((await a.client.post('/api/pings', body)).status).toBe(403);
    const two = await a.client.post('/api/pings', body, { headers });
    expect(two.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    const other = await a.client.post(
      '/api/pings',
      { promptId: PROUD, receiverId: b.id },
      { headers },
    );
    expect(other.status).toBe(422);
    expect(await pingRowsFrom(a.id)).toHaveLength(1);
  });

  it('replays an Idempotency-Key of a write that would succeed again without applying it', async () => {
    const { a, b } = await trio();
    const p = await send(a, b);
    const headers = { 'Idempotency-Key': `b-${randomUUID()}` };
    const path = `/api/pings/${p.id}/bookmark`;
    const one = await b.client.patch(path, { bookmarked: true }, { headers });
    expect(one.body).toMatchObject({ isBookmarked: true });
    expect((await b.client.patch(path, { bookmarked: false })).body.isBookmarked).toBe(false);
    // The replay answers the stored bookmark and leaves the ping as the later write left it.
    const two = await b.client.patch(path, { bookmarked: true }, { headers });
    expect(two.status).toBe(200);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    const [now] = await loadPings(db(), b.id, [p.id]);
    expect(now!.isBookmarked).toBe(false);
  });

  it('answers the stored ping with 200 when the same client id arrives again', async () => {
    const { a, b } = await trio();
    const id = uuidv7();
    const one = await a.client.post('/api/pings', { id, promptId: HUG, receiverId: b.id });
    const two = await a.client.post('/api/pings', { id, promptId: HUG, receiverId: b.id });
    expect(one.status).toBe(201);
    expect(two.status).toBe(200);
    expect(two.body).toEqual(one.body);
    expect(await pingRowsFrom(a.id)).toHaveLength(1);
    expect(await changes(id)).toHaveLength(2);
    const stolen = await carol.client.post('/api/pings', { id, promptId: HUG, receiverId: bob.id });
    expect(stolen.status).toBe(409);
  });

  it('answers the stored ping for its client id even where the send would be refused now', async () => {
    const { a, b } = await trio();
    const id = uuidv7();
    const custom = { id, receiverId: b.id, customText: 'See you at 6' };
    const one = await a.client.post('/api/pings/custom', custom);
    expect(one.status).toBe(201);
    expect((await a.client.del(`/api/friends/${b.id}`)).status).toBe(200);
    const two = await a.client.post('/api/pings/custom', custom);
    expect(two.status).toBe(200);
    expect(two.body).toEqual(one.body);
    // A new id to the same person is refused: they are not friends any more.
    expect((await a.client.post('/api/pings/custom', { ...custom, id: uuidv7() })).status).toBe(
      403,
    );
    expect(await pingRowsFrom(a.id)).toHaveLength(1);
    expect(await changes(id)).toHaveLength(2);
  });

  it('records a ping change for sender and receiver', async () => {
    const ping = await send(alice, bob);
    const rows = await changes(ping.id);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.userId))).toEqual(new Set([alice.id, bob.id]));
    for (const r of rows) expect(r).toMatchObject({ entity: 'ping', op: 'create' });
  });

  it('announces the ping, with its sender, to the receiver after commit', async () => {
    const seen: [string, Ping][] = [];
    const listener = (receiverId: string, ping: unknown) => seen.push([receiverId, ping as Ping]);
    server.events.on('newPing', listener);
    try {
      const ping = await send(carol, bob, PROUD);
      const rejected = await eve.client.post('/api/pings', { promptId: HUG, receiverId: bob.id });
      expect(rejected.status).toBe(403);
      expect(seen).toHaveLength(1);
      const [receiverId, announced] = seen[0]!;
      expect(receiverId).toBe(bob.id);
      expect(announced).toEqual(ping);
      expect(announced.sender).toEqual(summary(carol));
    } finally {
      server.events.off('newPing', listener);
    }
  });
});

describe('writtenAt: when the sender wrote a ping (issue 15, item 12)', () => {
  it('keeps the device time of a ping written earlier, and the receiver pulls it', async () => {
    const { a, b } = await trio();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    const res = await a.client.post('/api/pings', {
      promptId: HUG,
      receiverId: b.id,
      writtenAt: twoHoursAgo,
    });
    expect(res.status).toBe(201);
    expect(res.body.writtenAt).toBe(twoHoursAgo);
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.parse(twoHoursAgo));
    const pulled = await pullAll(b.client);
    const ping = pulled.changes.find((c) => c.id === res.body.id)!.data as Ping;
    expect(ping.writtenAt).toBe(twoHoursAgo);
    expect((await b.client.get('/api/pings/recent')).body[0].writtenAt).toBe(twoHoursAgo);
  });

  it('does not believe a clock ahead of the server: a future time becomes the arrival time', async () => {
    const { a, b } = await trio();
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    const res = await a.client.post('/api/pings/custom', {
      receiverId: b.id,
      customText: 'from the future',
      writtenAt: tomorrow,
    });
    expect(res.status).toBe(201);
    expect(res.body.writtenAt).toBe(res.body.createdAt);
  });

  it('without it, writtenAt is the arrival time; a group ping keeps it for every receiver', async () => {
    const { a, b, c } = await trio();
    await makeFriends(a, c);
    const plain = await send(a, b);
    expect(plain.writtenAt).toBe(plain.createdAt);
    const earlier = new Date(Date.now() - 60_000).toISOString();
    const group = await a.client.post('/api/pings/group', {
      promptId: HUG,
      receiverIds: [b.id, c.id],
      writtenAt: earlier,
    });
    expect(group.status).toBe(201);
    expect(group.body.pings.map((p: Ping) => p.writtenAt)).toEqual([earlier, earlier]);
  });

  it('refuses a writtenAt that is not an ISO time', async () => {
    const { a, b } = await trio();
    const res = await a.client.post('/api/pings', {
      promptId: HUG,
      receiverId: b.id,
      writtenAt: 'yesterday',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('writtenAt must be an ISO time');
    expect(await pingRowsFrom(a.id)).toEqual([]);
  });
});

describe('the daily limit', () => {
  it('stops the third ping when the receiver allows 2, naming them, with Retry-After', async () => {
    const { a, b, c } = await trio();
    await setDailyLimit(b, 2);
    await send(a, b);
    await send(a, b, PROUD);
    const third = await a.client.post('/api/pings', { promptId: HUG, receiverId: b.id });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('daily_limit_reached');
    expect(third.body.error).toBe(
      'Ben has set a daily limit of 2 pings from each friend. Try again tomorrow.',
    );
    const retry = Number(third.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(23 * 3600);
    expect(retry).toBeLessThanOrEqual(24 * 3600);
    expect(await pingRowsFrom(a.id)).toHaveLength(2);
    // Custom pings count against the same limit.
    const custom = await a.client.post('/api/pings/custom', { receiverId: b.id, customText: 'hi' });
    expect(custom.status).toBe(429);
    // The limit is per sender: another friend still gets through.
    await send(c, b);
  });

  it('is a rolling 24-hour window', async () => {
    const { a, b } = await trio();
    await setDailyLimit(b, 2);
    const first = await send(a, b);
    await send(a, b);
    expect((await a.client.post('/api/pings', { promptId: HUG, receiverId: b.id })).status).toBe(
      429,
    );
    // The oldest ping leaves the window 24 hours after it was sent.
    const old = new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString();
    await db().updateTable('pings').set({ createdAt: old }).where('id', '=', first.id).execute();
    await send(a, b);
    expect((await a.client.post('/api/pings', { promptId: HUG, receiverId: b.id })).status).toBe(
      429,
    );
  });
});

describe('POST /api/pings/group', () => {
  it('sends one ping per friend, sharing a group id, in the order given', async () => {
    const res = await alice.client.post('/api/pings/group', {
      promptId: PROUD,
      receiverIds: [carol.id, bob.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.pings.map((p: Ping) => p.receiverId)).toEqual([carol.id, bob.id]);
    for (const p of res.body.pings as Ping[]) {
      expect(p).toMatchObject({ groupId: res.body.groupId, senderId: alice.id, kind: 'prompt' });
      expect(p.prompt?.text).toBe("Ping me when you're proud of something");
      expect(new Set((await changes(p.id)).map((c) => c.userId))).toEqual(
        new Set([alice.id, p.receiverId]),
      );
    }
  });

  it('honours client group and ping ids', async () => {
    const groupId = uuidv7();
    const ids = [uuidv7(), uuidv7()];
    const res = await alice.client.post('/api/pings/group', {
      groupId,
      ids,
      promptId: HUG,
      receiverIds: [bob.id, carol.id],
    });
    expect(res.status).toBe(201);
    expect(res.body.groupId).toBe(groupId);
    expect(res.body.pings.map((p: Ping) => p.id)).toEqual(ids);
  });

  it('is all or nothing: one non-friend fails the call with 403 and writes no ping', async () => {
    const { a, b } = await trio();
    const seen: unknown[] = [];
    const listener = (...args: unknown[]) => seen.push(args);
    server.events.on('newPing', listener);
    try {
      const res = await a.client.post('/api/pings/group', {
        promptId: HUG,
        receiverIds: [b.id, eve.id],
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('You can only ping friends');
    } finally {
      server.events.off('newPing', listener);
    }
    expect(await pingRowsFrom(a.id)).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });

  it('is all or nothing: one receiver over their limit fails the call with 429', async () => {
    const { b, c } = await trio();
    const d = await makeUser(server, { firstName: 'Dee' });
    await makeFriends(c, d);
    await setDailyLimit(d, 1);
    await send(c, d);
    const res = await c.client.post('/api/pings/group', {
      promptId: HUG,
      receiverIds: [b.id, d.id],
    });
    expect(res.status).toBe(429);
    expect(res.body.error).toBe(
      'Dee has set a daily limit of 1 pings from each friend. Try again tomorrow.',
    );
    expect(await pingRowsFrom(c.id)).toHaveLength(1);
  });

  it('replays an Idempotency-Key and a repeated group id without creating pings', async () => {
    const { a, b, c } = await trio();
    await makeFriends(a, c);
    const headers = { 'Idempotency-Key': `g-${randomUUID()}` };
    const body = { promptId: HUG, receiverIds: [b.id, c.id] };
    const one = await a.client.post('/api/pings/group', body, { headers });
    const two = await a.client.post('/api/pings/group', body, { headers });
    expect(one.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect(await pingRowsFrom(a.id)).toHaveLength(2);

    const again = await a.client.post('/api/pings/group', { ...body, groupId: one.body.groupId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(one.body);
    const byIds = await a.client.post('/api/pings/group', {
      ...body,
      ids: one.body.pings.map((p: Ping) => p.id),
    });
    expect(byIds.status).toBe(200);
    expect(byIds.body).toEqual(one.body);
    expect(await pingRowsFrom(a.id)).toHaveLength(2);
    const foreign = await bob.client.post('/api/pings/group', {
      groupId: one.body.groupId,
      promptId: HUG,
      receiverIds: [carol.id],
    });
    expect(foreign.status).toBe(409);
  });

  it.each([
    [{ promptId: HUG, receiverIds: [] }, 'Please select at least one friend to ping'],
    [{ promptId: HUG }, 'Please select at least one friend to ping'],
    [{ promptId: HUG, receiverIds: 'everyone' }, 'Please select at least one friend to ping'],
    [{ promptId: HUG, receiverIds: [HUG, HUG] }, 'Each friend can be chosen only once'],
    [{ promptId: HUG, receiverIds: [HUG], ids: [] }, 'Give one id per receiver'],
    [{ promptId: HUG, receiverIds: ['nope'] }, 'Must be a valid id'],
    [{ receiverIds: [HUG] }, 'Please choose a prompt'],
    [{ promptId: HUG, receiverIds: [HUG], to: 'all' }, 'Unknown field: to'],
  ])('rejects %j with 400 "%s"', async (body, message) => {
    const res = await alice.client.post('/api/pings/group', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('rejects more than 50 receivers and is 401 signed out', async () => {
    const many = Array.from({ length: 51 }, () => uuidv7());
    const res = await alice.client.post('/api/pings/group', { promptId: HUG, receiverIds: many });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('A group ping goes to at most 50 friends');
    const out = await server
      .client()
      .post('/api/pings/group', { promptId: HUG, receiverIds: [bob.id] });
    expect(out.status).toBe(401);
  });
});

describe('POST /api/pings/custom', () => {
  it('sends a custom ping with the default emoji', async () => {
    const res = await alice.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: '  Lunch tomorrow?  ',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'custom',
      prompt: null,
      customText: 'Lunch tomorrow?',
      customEmoji: '💭',
      anchorId: null,
      sender: summary(alice),
    });
  });

  it('sends a surprise with 💫 unless an emoji is chosen', async () => {
    const res = await alice.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: 'Surprise!',
      surprise: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'surprise', customEmoji: '💫' });
    const chosen = await alice.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: 'Fire',
      customEmoji: '🔥',
      surprise: true,
    });
    expect(chosen.body.customEmoji).toBe('🔥');
  });

  it('is an anchor ping only for an accepted anchor between the two', async () => {
    const anchor = async (status: 'accepted' | 'pending', userId: string, friendId: string) => {
      const id = uuidv7();
      await db()
        .insertInto('anchors')
        .values({
          id,
          userId,
          friendId,
          label: null,
          text: 'Ping me when you miss me',
          emoji: '💕',
          color: '#e35120',
          status,
          createdAt: new Date().toISOString(),
          respondedAt: null,
        })
        .execute();
      return id;
    };
    const { a, b, c } = await trio();
    const accepted = await anchor('accepted', b.id, a.id);
    const res = await a.client.post('/api/pings/custom', {
      receiverId: b.id,
      customText: 'I miss you',
      anchorId: accepted,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'anchor', anchorId: accepted });
    const pending = await anchor('pending', c.id, b.id);
    const notYet = await c.client.post('/api/pings/custom', {
      receiverId: b.id,
      customText: 'I miss you',
      anchorId: pending,
    });
    expect(notYet.status).toBe(201);
    expect(notYet.body).toMatchObject({ kind: 'custom', anchorId: null });
    const theirs = await anchor('accepted', carol.id, bob.id);
    const foreign = await alice.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: 'borrowed',
      anchorId: theirs,
    });
    expect(foreign.status).toBe(201);
    expect(foreign.body).toMatchObject({ kind: 'custom', anchorId: null });
  });

  it('is 403 for a stranger and answers a repeated client id with 200', async () => {
    const res = await eve.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: 'hi',
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You can only ping friends');
    const { a, b } = await trio();
    const id = uuidv7();
    const one = await a.client.post('/api/pings/custom', { id, receiverId: b.id, customText: 'x' });
    const two = await a.client.post('/api/pings/custom', { id, receiverId: b.id, customText: 'x' });
    expect([one.status, two.status]).toEqual([201, 200]);
    expect(two.body).toEqual(one.body);
    expect(await pingRowsFrom(a.id)).toHaveLength(1);
    const headers = { 'Idempotency-Key': `c-${randomUUID()}` };
    const k1 = await a.client.post(
      '/api/pings/custom',
      { receiverId: b.id, customText: 'k' },
      { headers },
    );
    const k2 = await a.client.post(
      '/api/pings/custom',
      { receiverId: b.id, customText: 'k' },
      { headers },
    );
    expect(k2.body).toEqual(k1.body);
    expect(k2.headers.get('idempotent-replayed')).toBe('true');
    expect(await pingRowsFrom(a.id)).toHaveLength(2);
  });

  it.each([
    [{ receiverId: HUG }, 'Please write a message to send'],
    [{ receiverId: HUG, customText: '   ' }, 'Please write a message to send'],
    [{ receiverId: HUG, customText: 5 }, 'Please write a message to send'],
    [
      { receiverId: HUG, customText: `${'y'.repeat(200)}!` },
      'Messages must be at most 200 characters',
    ],
    [{ customText: 'hi' }, 'Please select a friend to send the ping to.'],
    [
      { receiverId: HUG, customText: 'hi', customEmoji: '🎉🎉🎉🎉🎉' },
      'Emoji must be at most 4 characters',
    ],
    [{ receiverId: HUG, customText: 'hi', surprise: 'yes' }, undefined],
    [{ receiverId: HUG, customText: 'hi', anchorId: 'anchor' }, 'Must be a valid id'],
    [{ receiverId: HUG, customText: 'hi', kind: 'anchor' }, 'Unknown field: kind'],
  ])('rejects %j with 400', async (body, message) => {
    const res = await alice.client.post('/api/pings/custom', body);
    expect(res.status).toBe(400);
    if (message) expect(res.body.error).toBe(message);
  });

  it('is 401 signed out', async () => {
    const res = await server
      .client()
      .post('/api/pings/custom', { receiverId: bob.id, customText: 'x' });
    expect(res.status).toBe(401);
  });
});

describe('reading pings', () => {
  it('GET /api/pings/recent lists received pings only, newest first, at most 50', async () => {
    const { a, b } = await trio();
    await setDailyLimit(b, 100);
    const sent: string[] = [];
    for (let i = 0; i < 52; i++) sent.push((await send(a, b)).id);
    await send(b, a); // sent by b: not in b's recent list
    const res = await b.client.get('/api/pings/recent');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(50);
    expect(res.body.map((p: Ping) => p.id)).toEqual(sent.reverse().slice(0, 50));
    for (const p of res.body as Ping[]) expect(p.receiverId).toBe(b.id);
    expect((await server.client().get('/api/pings/recent')).status).toBe(401);
  });

  it('counts unread pings, marks one read for the receiver only, idempotently', async () => {
    const { a, b } = await trio();
    const p1 = await send(a, b);
    await send(a, b);
    expect((await b.client.get('/api/pings/unread-count')).body).toEqual({ count: 2 });
    expect((await a.client.get('/api/pings/unread-count')).body).toEqual({ count: 0 });

    expect((await a.client.patch(`/api/pings/${p1.id}/read`)).status).toBe(404);
    expect((await eve.client.patch(`/api/pings/${p1.id}/read`)).status).toBe(404);
    expect((await b.client.patch(`/api/pings/${uuidv7()}/read`)).status).toBe(404);
    expect((await b.client.patch('/api/pings/not-an-id/read')).status).toBe(400);
    expect((await server.client().patch(`/api/pings/${p1.id}/read`)).status).toBe(401);

    const read = await b.client.patch(`/api/pings/${p1.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: p1.id, isRead: true, readAt: expect.any(String) });
    const again = await b.client.patch(`/api/pings/${p1.id}/read`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(read.body);
    expect(await changes(p1.id)).toHaveLength(4); // created and read, each for both
    expect((await b.client.get('/api/pings/unread-count')).body).toEqual({ count: 1 });
    expect((await server.client().get('/api/pings/unread-count')).status).toBe(401);
  });

  it('PATCH /api/pings/mark-all-read marks the caller’s received pings only', async () => {
    const { a, b } = await trio();
    const p = await send(a, b);
    await send(a, b);
    const mine = await send(b, a);
    const res = await b.client.patch('/api/pings/mark-all-read');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 2 });
    expect((await b.client.patch('/api/pings/mark-all-read')).body).toEqual({ count: 0 });
    expect((await b.client.get('/api/pings/unread-count')).body).toEqual({ count: 0 });
    expect((await a.client.get('/api/pings/unread-count')).body).toEqual({ count: 1 });
    const [still] = await loadPings(db(), a.id, [mine.id]);
    expect(still!.isRead).toBe(false);
    expect(new Set((await changes(p.id)).map((c) => c.userId))).toEqual(new Set([a.id, b.id]));
    expect(await changes(p.id)).toHaveLength(4);
    expect((await server.client().patch('/api/pings/mark-all-read')).status).toBe(401);
  });

  it('GET /api/pings/total-count counts sent plus received', async () => {
    const { a, b, c } = await trio();
    await send(a, b);
    await send(b, a);
    await send(b, a);
    await send(c, b);
    expect((await a.client.get('/api/pings/total-count')).body).toEqual({ count: 3 });
    expect((await b.client.get('/api/pings/total-count')).body).toEqual({ count: 4 });
    expect((await c.client.get('/api/pings/total-count')).body).toEqual({ count: 1 });
    expect((await server.client().get('/api/pings/total-count')).status).toBe(401);
  });

  it('GET /api/pings/with/{friendId} lists both directions, newest first, friends only', async () => {
    const { a, b, c } = await trio();
    const p1 = await send(a, b);
    const p2 = await send(b, a);
    await send(c, b);
    const res = await a.client.get(`/api/pings/with/${b.id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((p: Ping) => p.id)).toEqual([p2.id, p1.id]);
    const stranger = await a.client.get(`/api/pings/with/${c.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error).toBe('Friend not found');
    expect((await eve.client.get(`/api/pings/with/${b.id}`)).status).toBe(404);
    expect((await a.client.get('/api/pings/with/bob')).status).toBe(400);
    expect((await server.client().get(`/api/pings/with/${b.id}`)).status).toBe(401);
  });
});

describe('reactions', () => {
  it('answers the ping as the reacting person sees it everywhere else, their bookmark included', async () => {
    const { a, b } = await trio();
    const p = await send(a, b);
    await a.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'yes' });
    expect((await b.client.patch(`/api/pings/${p.id}/bookmark`, { bookmarked: true })).status).toBe(
      200,
    );
    const reacted = await b.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'wow' });
    expect(reacted.status).toBe(201);
    expect(reacted.body.isBookmarked).toBe(true);
    expect(reacted.body.sender).toMatchObject({ id: a.id, firstName: expect.any(String) });
    expect(reacted.body.reactions.map((r: { userId: string }) => r.userId)).toEqual([a.id, b.id]);
    const listed = await b.client.get(`/api/pings/with/${a.id}`);
    expect(listed.body).toEqual([reacted.body]);
    // The sender has no bookmark of it: their answer says so.
    const theirs = await a.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'heart' });
    expect(theirs.body.isBookmarked).toBe(false);
    expect(theirs.body).toEqual((await a.client.get(`/api/pings/with/${b.id}`)).body[0]);
  });

  it('adds a reaction, replaces it on a second one, and answers the ping', async () => {
    const { a, b } = await trio();
    const p = await send(a, b);
    const first = await b.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'heart' });
    expect(first.status).toBe(201);
    expect(first.body.id).toBe(p.id);
    expect(first.body.reactions).toEqual([
      {
        id: expect.any(String),
        pingId: p.id,
        userId: b.id,
        reactionType: 'heart',
        createdAt: expect.any(String),
      },
    ]);
    const second = await b.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'wow' });
    expect(second.body.reactions).toHaveLength(1);
    expect(second.body.reactions[0]).toMatchObject({ userId: b.id, reactionType: 'wow' });
    // The replacement is a new reaction: a new id, stored as answered.
    expect(second.body.reactions[0].id).not.toBe(first.body.reactions[0].id);
    const stored = await db()
      .selectFrom('reactions')
      .selectAll()
      .where('pingId', '=', p.id)
      .where('userId', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual(second.body.reactions[0]);
    const theirs = await a.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'yes' });
    expect(theirs.body.reactions.map((r: { userId: string }) => r.userId)).toEqual([b.id, a.id]);
    const rows = await db()
      .selectFrom('reactions')
      .selectAll()
      .where('pingId', '=', p.id)
      .execute();
    expect(rows).toHaveLength(2);
    // created + three reactions, each recorded for both people
    const log = await changes(p.id);
    expect(log).toHaveLength(8);
    expect(log.filter((c) => c.userId === a.id)).toHaveLength(4);
    expect(log.filter((c) => c.userId === b.id)).toHaveLength(4);
  });

  it('is 404 for anyone but the sender and the receiver', async () => {
    const p = await send(alice, bob);
    const res = await eve.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'heart' });
    expect(res.status).toBe(404);
    const c = await carol.client.post(`/api/pings/${p.id}/reactions`, { reactionType: 'heart' });
    expect(c.status).toBe(404);
    const unknown = await bob.client.post(`/api/pings/${uuidv7()}/reactions`, {
      reactionType: 'heart',
    });
    expect(unknown.status).toBe(404);
    expect(
      await db().selectFrom('reactions').selectAll().where('pingId', '=', p.id).execute(),
    ).toEqual([]);
  });

  it('replays a client id with 200 and an Idempotency-Key with the stored answer', async () => {
    const p = await send(alice, bob);
    const id = uuidv7();
    const one = await bob.client.post(`/api/pings/${p.id}/reactions`, { id, reactionType: 'yes' });
    const two = await bob.client.post(`/api/pings/${p.id}/reactions`, { id, reactionType: 'yes' });
    expect([one.status, two.status]).toEqual([201, 200]);
    expect(two.body).toEqual(one.body);
    expect(one.body.reactions[0].id).toBe(id);
    const stolen = await alice.client.post(`/api/pings/${p.id}/reactions`, {
      id,
      reactionType: 'yes',
    });
    expect(stolen.status).toBe(409);
    const headers = { 'Idempotency-Key': `r-${randomUUID()}` };
    const k1 = await alice.client.post(
      `/api/pings/${p.id}/reactions`,
      { reactionType: 'wow' },
      { headers },
    );
    const k2 = await alice.client.post(
      `/api/pings/${p.id}/reactions`,
      { reactionType: 'wow' },
      { headers },
    );
    expect(k2.body).toEqual(k1.body);
    expect(k2.headers.get('idempotent-replayed')).toBe('true');
    const rows = await db()
      .selectFrom('reactions')
      .selectAll()
      .where('pingId', '=', p.id)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('refuses with 409 a client id that a reaction on another ping has, and writes nothing', async () => {
    const p = await send(alice, bob);
    const q = await send(alice, bob);
    const id = uuidv7();
    expect(
      (await bob.client.post(`/api/pings/${p.id}/reactions`, { id, reactionType: 'yes' })).status,
    ).toBe(201);
    for (const who of [bob, alice]) {
      const again = await who.client.post(`/api/pings/${q.id}/reactions`, {
        id,
        reactionType: 'wow',
      });
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(ID_TAKEN);
    }
    const rows = await db().selectFrom('reactions').selectAll().where('id', '=', id).execute();
    expect(rows.map((r) => [r.pingId, r.reactionType])).toEqual([[p.id, 'yes']]);
    expect(
      await db().selectFrom('reactions').selectAll().where('pingId', '=', q.id).execute(),
    ).toEqual([]);
  });

  it.each([
    [{ reactionType: 'love' }, 'Reaction must be heart, yes or wow'],
    [{}, 'Reaction must be heart, yes or wow'],
    [{ reactionType: ['heart'] }, 'Reaction must be heart, yes or wow'],
    [{ reactionType: 'heart', userId: HUG }, 'Unknown field: userId'],
    [{ reactionType: 'heart', id: 'r1' }, 'Must be a valid id'],
  ])('rejects %j with 400 "%s"', async (body, message) => {
    const p = await send(alice, bob);
    const res = await bob.client.post(`/api/pings/${p.id}/reactions`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('is 400 for a malformed ping id and 401 signed out', async () => {
    expect(
      (await bob.client.post('/api/pings/123/reactions', { reactionType: 'heart' })).status,
    ).toBe(400);
    const out = await server
      .client()
      .post(`/api/pings/${uuidv7()}/reactions`, { reactionType: 'heart' });
    expect(out.status).toBe(401);
  });

  it('GET /api/pings/reactions lists reactions on the caller’s pings, newest first', async () => {
    const { a, b, c } = await trio();
    const p1 = await send(a, b);
    const p2 = await send(b, a);
    const p3 = await send(c, b);
    await b.client.post(`/api/pings/${p1.id}/reactions`, { reactionType: 'heart' });
    await a.client.post(`/api/pings/${p2.id}/reactions`, { reactionType: 'wow' });
    await b.client.post(`/api/pings/${p3.id}/reactions`, { reactionType: 'yes' });
    const res = await a.client.get('/api/pings/reactions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        pingId: p2.id,
        userId: a.id,
        reactionType: 'wow',
        createdAt: expect.any(String),
        user: summary(a),
      },
      {
        id: expect.any(String),
        pingId: p1.id,
        userId: b.id,
        reactionType: 'heart',
        createdAt: expect.any(String),
        user: summary(b),
      },
    ]);
    expect((await b.client.get('/api/pings/reactions')).body).toHaveLength(3);
    expect((await eve.client.get('/api/pings/reactions')).body).toEqual([]);
    expect((await server.client().get('/api/pings/reactions')).status).toBe(401);
  });
});

describe('PATCH /api/pings/{id}/bookmark', () => {
  it('bookmarks as a moment titled by the prompt, for the bookmarking person only', async () => {
    const { a, b } = await trio();
    const p = await send(a, b);
    const res = await b.client.patch(`/api/pings/${p.id}/bookmark`, { bookmarked: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, isBookmarked: true });
    const [senderView] = await loadPings(db(), a.id, [p.id]);
    expect(senderView!.isBookmarked).toBe(false);
    const moments = await db()
      .selectFrom('moments')
      .selectAll()
      .where('pingId', '=', p.id)
      .execute();
    expect(moments).toHaveLength(1);
    expect(moments[0]).toMatchObject({ userId: b.id, title: 'Ping me when you need a hug' });
    const momentLog = await changes(moments[0]!.id);
    expect(momentLog).toEqual([{ userId: b.id, entity: 'moment', op: 'upsert' }]);
    const [loaded] = await loadMoments(db(), b.id, [moments[0]!.id]);
    expect(loaded).toEqual({
      id: moments[0]!.id,
      pingId: p.id,
      title: 'Ping me when you need a hug',
      description: null,
      createdAt: expect.any(String),
    });
    expect(await loadMoments(db(), a.id, [moments[0]!.id])).toEqual([]);
    // bookmarking again changes nothing
    const again = await b.client.patch(`/api/pings/${p.id}/bookmark`, { bookmarked: true });
    expect(again.body.isBookmarked).toBe(true);
    expect(
      await db().selectFrom('moments').selectAll().where('pingId', '=', p.id).execute(),
    ).toHaveLength(1);
  });

  it('takes a title, description and client moment id; un-bookmarking leaves a tombstone', async () => {
    const { a, b } = await trio();
    const p = await a.client.post('/api/pings/custom', { receiverId: b.id, customText: 'Sunset!' });
    const momentId = uuidv7();
    const res = await a.client.patch(`/api/pings/${p.body.id}/bookmark`, {
      bookmarked: true,
      momentId,
      title: 'Golden hour',
      description: 'The day we watched it together',
    });
    expect(res.body.isBookmarked).toBe(true);
    const [m] = await loadMoments(db(), a.id, [momentId]);
    expect(m).toMatchObject({
      title: 'Golden hour',
      description: 'The day we watched it together',
    });
    const ids = await visibleMomentIds(db(), a.id, undefined, 10);
    expect(ids).toEqual([momentId]);

    const off = await a.client.patch(`/api/pings/${p.body.id}/bookmark`, { bookmarked: false });
    expect(off.status).toBe(200);
    expect(off.body.isBookmarked).toBe(false);
    expect(await loadMoments(db(), a.id, [momentId])).toEqual([]);
    expect(await changes(momentId)).toEqual([
      { userId: a.id, entity: 'moment', op: 'upsert' },
      { userId: a.id, entity: 'moment', op: 'delete' },
    ]);
  });

  it('titles a custom ping’s moment by its text', async () => {
    const p = await alice.client.post('/api/pings/custom', {
      receiverId: bob.id,
      customText: 'Tacos?',
    });
    await bob.client.patch(`/api/pings/${p.body.id}/bookmark`, {});
    const [m] = await db()
      .selectFrom('moments')
      .selectAll()
      .where('pingId', '=', p.body.id)
      .execute();
    expect(m?.title).toBe('Tacos?');
  });

  it('is 404 for anyone but the sender and the receiver', async () => {
    const p = await send(alice, bob);
    const res = await eve.client.patch(`/api/pings/${p.id}/bookmark`, { bookmarked: true });
    expect(res.status).toBe(404);
    expect(
      await db().selectFrom('moments').selectAll().where('pingId', '=', p.id).execute(),
    ).toEqual([]);
    expect((await server.client().patch(`/api/pings/${p.id}/bookmark`, {})).status).toBe(401);
  });

  it.each([
    [{ bookmarked: 'yes' }, 'bookmarked must be true or false'],
    [{ title: 't'.repeat(101) }, 'Titles must be at most 100 characters'],
    [{ description: 'd'.repeat(201) }, 'Descriptions must be at most 200 characters'],
    [{ title: 7 }, 'Title must be text'],
    [{ momentId: 'm1' }, 'Must be a valid id'],
    [{ pinned: true }, 'Unknown field: pinned'],
  ])('rejects %j with 400 "%s"', async (body, message) => {
    const p = await send(alice, bob);
    const res = await bob.client.patch(`/api/pings/${p.id}/bookmark`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });
});

describe('bad input never causes a 500', () => {
  const routes: [string, string][] = [
    ['POST', '/api/pings'],
    ['POST', '/api/pings/group'],
    ['POST', '/api/pings/custom'],
    ['POST', `/api/pings/${HUG}/reactions`],
    ['PATCH', `/api/pings/${HUG}/bookmark`],
    ['POST', '/api/prompts'],
    ['PUT', `/api/prompts/${HUG}`],
    ['POST', '/api/prompts/assign'],
  ];
  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    { id: null },
    { promptId: null, receiverId: null },
    { receiverIds: [null] },
    { text: { nested: true } },
    { reactionType: 'x'.repeat(30_000) },
    { customText: '\u0000'.repeat(100) },
    { __proto__: { admin: true } },
    { constructor: 'x' },
  ];
  it('answers 4xx (400 for a bad body) for every malformed body on every route', async () => {
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const res = await alice.client.request(method, path, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
      const broken = await alice.client.request(method, path, undefined, {
        raw: '{"promptId":',
        headers: { 'content-type': 'application/json' },
      });
      expect(broken.status).toBe(400);
      const huge = await alice.client.request(method, path, { text: 'x'.repeat(70 * 1024) });
      expect(huge.status).toBe(413);
    }
  });
});

describe('loadPings and visiblePingIds (the pull contract)', () => {
  it('loads only the viewer’s pings, in the order asked, with everyone’s reactions', async () => {
    const { a, b, c } = await trio();
    const p1 = await send(a, b);
    const p2 = await send(c, b);
    await b.client.post(`/api/pings/${p1.id}/reactions`, { reactionType: 'heart' });
    await a.client.post(`/api/pings/${p1.id}/reactions`, { reactionType: 'yes' });
    await b.client.patch(`/api/pings/${p1.id}/bookmark`, {});
    const forB = await loadPings(db(), b.id, [p2.id, uuidv7(), p1.id]);
    expect(forB.map((p) => p.id)).toEqual([p2.id, p1.id]);
    expect(forB[1]!.isBookmarked).toBe(true);
    expect(forB[1]!.reactions.map((r) => r.reactionType)).toEqual(['heart', 'yes']);
    const forA = await loadPings(db(), a.id, [p2.id, p1.id]);
    expect(forA.map((p) => p.id)).toEqual([p1.id]);
    expect(forA[0]!.isBookmarked).toBe(false);
    expect(forA[0]!.reactions).toHaveLength(2);
    expect(await loadPings(db(), eve.id, [p1.id, p2.id])).toEqual([]);
  });

  it('pages visible ping ids in ascending order, without gaps or repeats', async () => {
    const { a, b, c } = await trio();
    const ids = [(await send(a, b)).id, (await send(b, a)).id, (await send(c, b)).id];
    await send(b, c);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await visiblePingIds(db(), a.id, after, 1);
      if (page.length === 0) break;
      seen.push(...page);
      after = page[0];
    }
    expect(seen).toEqual(ids.slice(0, 2).sort());
    expect(await visiblePingIds(db(), b.id, undefined, 10)).toHaveLength(4);
  });
});
