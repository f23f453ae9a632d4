import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { insertDemoPing, insertDemoReaction } from '../db/demo-data';
import { updateUser } from '../db/users';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const db = () => server.database.db;

async function friendshipRows(a: string, b: string) {
  return db()
    .selectFrom('friendships')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('requesterId', '=', a), eb('addresseeId', '=', b)]),
        eb.and([eb('requesterId', '=', b), eb('addresseeId', '=', a)]),
      ]),
    )
    .execute();
}

async function friendshipChanges(entityId: string) {
  return (
    db()
      .selectFrom('changes')
      .select(['userId', 'op'])
      .where('entity', '=', 'friendship')
      .where('entityId', '=', entityId)
      // Numbers count per person: across people, the order is the time of the write.
      .orderBy('createdAt')
      .orderBy('seq')
      .execute()
  );
}

async function request(from: MadeUser, to: MadeUser) {
  const res = await from.client.post('/api/friends/request', { friendId: to.id });
  expect(res.status).toBe(201);
  return res.body.requestId as string;
}

describe('POST /api/friends/request', () => {
  it('creates a pending request (201) that both people see in /pending', async () => {
    const a = await makeUser(server, { firstName: 'Alice' });
    const b = await makeUser(server, { firstName: 'Bob' });
    const res = await a.client.post('/api/friends/request', { friendId: b.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      requestId: expect.any(String),
      status: 'pending',
      autoAccepted: false,
      friend: { id: b.id, firstName: 'Bob', lastName: 'Test', profileImageUrl: null },
    });
    const rows = await friendshipRows(a.id, b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: res.body.requestId,
      requesterId: a.id,
      addresseeId: b.id,
      status: 'pending',
      acceptedAt: null,
    });

    const sent = await a.client.get('/api/friends/pending');
    expect(sent.status).toBe(200);
    expect(sent.body.received).toEqual([]);
    expect(sent.body.sent).toEqual([
      expect.objectContaining({
        requestId: res.body.requestId,
        friendshipId: res.body.requestId,
        id: b.id,
        userId: b.id,
        firstName: 'Bob',
        // not friends yet: the e-mail stays private
        email: null,
      }),
    ]);
    const received = await b.client.get('/api/friends/pending');
    expect(received.body.sent).toEqual([]);
    expect(received.body.received).toHaveLength(1);
    expect(received.body.received[0]).toMatchObject({
      requestId: res.body.requestId,
      id: a.id,
      firstName: 'Alice',
      createdAt: rows[0]!.createdAt,
    });
    // Neither is a friend yet.
    expect((await a.client.get('/api/friends')).body).toEqual([]);
  });

  it('lists pending requests newest first', async () => {
    const me = await makeUser(server);
    const [x, y, z] = [await makeUser(server), await makeUser(server), await makeUser(server)];
    const hoursAgo = { [x.id]: 1, [y.id]: 3, [z.id]: 2 };
    for (const u of [x, y, z]) {
      const requestId = await request(u, me);
      await db()
        .updateTable('friendships')
        .set({ createdAt: new Date(Date.now() - hoursAgo[u.id]! * 3600_000).toISOString() })
        .where('id', '=', requestId)
        .execute();
    }
    const res = await me.client.get('/api/friends/pending');
    expect(res.body.received.map((r: { id: string }) => r.id)).toEqual([x.id, z.id, y.id]);
  });

  it('refuses a request to yourself', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/friends/request', { friendId: a.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('You cannot send a friend request to yourself');
    expect(await friendshipRows(a.id, a.id)).toHaveLength(0);
  });

  it('refuses a second request while one is pending from you (409)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await request(a, b);
    const again = await a.client.post('/api/friends/request', { friendId: b.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'Friend request already sent', code: 'conflict' });
    expect(await friendshipRows(a.id, b.id)).toHaveLength(1);
  });

  it('refuses a request to someone who is already a friend (409)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await from.client.post('/api/friends/request', { friendId: to.id });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('You are already friends');
    }
  });

  it('an unknown user is 404', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/friends/request', { friendId: randomUUID() });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User not found');
  });

  it('a private profile cannot be requested by id: 404 as if it did not exist', async () => {
    const a = await makeUser(server);
    const p = await makeUser(server);
    await updateUser(db(), p.id, { profileVisibility: 'private' });
    const res = await a.client.post('/api/friends/request', { friendId: p.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User not found');
    expect(await friendshipRows(a.id, p.id)).toHaveLength(0);
  });

  it('a private person may still ask others, and the answer-by-request accepts', async () => {
    const p = await makeUser(server);
    const a = await makeUser(server);
    await updateUser(db(), p.id, { profileVisibility: 'private' });
    const requestId = await request(p, a);
    const back = await a.client.post('/api/friends/request', { friendId: p.id });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ requestId, status: 'accepted', autoAccepted: true });
  });

  it('a request to someone who already asked you accepts theirs (200, autoAccepted)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server, { firstName: 'Bea' });
    const requestId = await request(b, a);
    const res = await a.client.post('/api/friends/request', { friendId: b.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requestId,
      status: 'accepted',
      autoAccepted: true,
      friend: expect.objectContaining({ id: b.id, firstName: 'Bea' }),
    });
    const rows = await friendshipRows(a.id, b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: requestId, status: 'accepted' });
    expect(rows[0]!.acceptedAt).not.toBeNull();
    expect((await a.client.get('/api/friends')).body.map((f: { id: string }) => f.id)).toEqual([
      b.id,
    ]);
    expect((await b.client.get('/api/friends')).body.map((f: { id: string }) => f.id)).toEqual([
      a.id,
    ]);
    expect((await b.client.get('/api/friends/pending')).body).toEqual({ sent: [], received: [] });
  });

  it('replays an Idempotency-Key: one row, the same answer, Idempotent-Replayed', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const headers = { 'Idempotency-Key': `req-${randomUUID()}` };
    const first = await a.client.post('/api/friends/request', { friendId: b.id }, { headers });
    const second = await a.client.post('/api/friends/request', { friendId: b.id }, { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await friendshipRows(a.id, b.id)).toHaveLength(1);
    expect(await friendshipChanges(first.body.requestId)).toHaveLength(2);
    // The same key for another request is refused.
    const c = await makeUser(server);
    const other = await a.client.post('/api/friends/request', { friendId: c.id }, { headers });
    expect(other.status).toBe(422);
    expect(await friendshipRows(a.id, c.id)).toHaveLength(0);
  });

  it.each([
    ['a missing friendId', {}, 'Must be a valid id'],
    ['a bad uuid', { friendId: 'not-a-uuid' }, 'Must be a valid id'],
    ['a number', { friendId: 42 }, 'Must be a valid id'],
    ['null', { friendId: null }, 'Must be a valid id'],
    ['an unknown field', { friendId: randomUUID(), note: 'hi' }, 'Unknown field: note'],
  ])('rejects %s with 400', async (_name, body, message) => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/friends/request', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
  });

  it('a body that is not an object is 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.request('POST', '/api/friends/request', undefined, {
      raw: '["x"]',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('POST /api/friends (the alias of /request)', () => {
  it("with status 'pending' sends a request", async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const res = await a.client.post('/api/friends', { friendId: b.id, status: 'pending' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', autoAccepted: false });
    expect(await friendshipRows(a.id, b.id)).toHaveLength(1);
  });

  it.each([
    [{ status: 'accepted' }, "Only status 'pending' is accepted: use /api/friends/request"],
    [{}, "Only status 'pending' is accepted: use /api/friends/request"],
    [{ status: 'pending', extra: true }, 'Unknown field: extra'],
  ])('rejects %j with 400', async (extra, message) => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const res = await a.client.post('/api/friends', { friendId: b.id, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(await friendshipRows(a.id, b.id)).toHaveLength(0);
  });
});

describe('POST /api/friends/accept', () => {
  it('the receiver accepts: both are friends, both see each other', async () => {
    const a = await makeUser(server, { firstName: 'Anna' });
    const b = await makeUser(server, { firstName: 'Ben' });
    const requestId = await request(a, b);
    const res = await b.client.post('/api/friends/accept', { requestId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      requestId,
      outcome: 'accepted',
      friend: { id: a.id, firstName: 'Anna', lastName: 'Test', profileImageUrl: null },
    });
    const [row] = await friendshipRows(a.id, b.id);
    expect(row).toMatchObject({ status: 'accepted' });
    const list = await a.client.get('/api/friends');
    expect(list.body).toEqual([
      expect.objectContaining({
        id: b.id,
        firstName: 'Ben',
        email: b.email,
        friendshipId: requestId,
        friendsSince: row!.acceptedAt,
        profileVisibility: 'public',
      }),
    ]);
    expect(list.body[0]).not.toHaveProperty('passwordHash');
    expect(list.body[0]).not.toHaveProperty('inviteCode');
  });

  it('accepting again is a harmless 200 and records nothing more', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    expect((await b.client.post('/api/friends/accept', { requestId })).status).toBe(200);
    const before = await friendshipChanges(requestId);
    const again = await b.client.post('/api/friends/accept', { requestId });
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('accepted');
    expect(await friendshipChanges(requestId)).toEqual(before);
  });

  it('the sender cannot accept their own request (403)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    const res = await a.client.post('/api/friends/accept', { requestId });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'forbidden',
      error: 'Only the person who received this request can accept it',
    });
    expect((await friendshipRows(a.id, b.id))[0]!.status).toBe('pending');
  });

  it('a third person cannot accept a request between A and B: 404, ids do not leak', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const c = await makeUser(server);
    const requestId = await request(a, b);
    const res = await c.client.post('/api/friends/accept', { requestId });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Friend request not found');
    const unknown = await c.client.post('/api/friends/accept', { requestId: randomUUID() });
    expect(unknown.body).toEqual(res.body);
    expect((await friendshipRows(a.id, b.id))[0]!.status).toBe('pending');
    expect(await friendshipRows(c.id, a.id)).toHaveLength(0);
  });

  it('an unknown requestId is 404', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/friends/accept', { requestId: randomUUID() });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it.each([
    [{}, 'Must be a valid id'],
    [{ requestId: 'abc' }, 'Must be a valid id'],
    [{ requestId: 7 }, 'Must be a valid id'],
    [{ requestId: randomUUID(), friendId: randomUUID() }, 'Unknown field: friendId'],
  ])('rejects %j with 400', async (body, message) => {
    const a = await makeUser(server);
    for (const path of ['/api/friends/accept', '/api/friends/reject']) {
      const res = await a.client.post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    }
  });
});

describe('POST /api/friends/reject', () => {
  it('the receiver declines: the row is gone and either may ask again', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    const res = await b.client.post('/api/friends/reject', { requestId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      requestId,
      outcome: 'declined',
      friend: { id: a.id },
    });
    expect(await friendshipRows(a.id, b.id)).toHaveLength(0);
    expect((await a.client.get('/api/friends/pending')).body.sent).toEqual([]);
    // Ask again, in either direction.
    const again = await b.client.post('/api/friends/request', { friendId: a.id });
    expect(again.status).toBe(201);
    expect(again.body.requestId).not.toBe(requestId);
    expect(again.body.status).toBe('pending');
  });

  it('the sender may withdraw their own request through /reject', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    const res = await a.client.post('/api/friends/reject', { requestId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, outcome: 'withdrawn', friend: { id: b.id } });
    expect(await friendshipRows(a.id, b.id)).toHaveLength(0);
    expect((await b.client.get('/api/friends/pending')).body.received).toEqual([]);
    expect((await a.client.post('/api/friends/request', { friendId: b.id })).status).toBe(201);
  });

  it('a third person cannot reject a request between A and B (404)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const c = await makeUser(server);
    const requestId = await request(a, b);
    const res = await c.client.post('/api/friends/reject', { requestId });
    expect(res.status).toBe(404);
    expect(await friendshipRows(a.id, b.id)).toHaveLength(1);
  });

  it('an accepted friendship cannot be rejected (409) and stays', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    await b.client.post('/api/friends/accept', { requestId });
    const res = await b.client.post('/api/friends/reject', { requestId });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('This request was already accepted: you are friends');
    expect((await friendshipRows(a.id, b.id))[0]!.status).toBe('accepted');
  });

  it('rejecting a request that is already gone is 404', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    expect((await b.client.post('/api/friends/reject', { requestId })).status).toBe(200);
    expect((await b.client.post('/api/friends/reject', { requestId })).status).toBe(404);
  });
});

describe('DELETE /api/friends/{friendId}: unfriend', () => {
  it('ends the friendship for both, with anchors and assignments; pings stay as history', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const hug = (await a.client.get('/api/prompts/default')).body[0].id;
    const sent = await a.client.post('/api/pings', { promptId: hug, receiverId: b.id });
    expect(sent.status).toBe(201);
    const anchor = await a.client.post('/api/profile/anchors', { friendId: b.id, text: 'Tea?' });
    expect(anchor.status).toBe(201);
    const own = await a.client.post('/api/prompts', { text: 'Only for B', emoji: '🫖' });
    await a.client.post('/api/prompts/assign', { promptId: own.body.id, friendId: b.id });
    const before = await pullAll(b.client);

    const res = await b.client.del(`/api/friends/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await friendshipRows(a.id, b.id)).toHaveLength(0);
    expect((await a.client.get('/api/friends')).body).toEqual([]);
    expect((await b.client.get('/api/profile/anchors/requests')).body).toEqual([]);
    const prompt = (await a.client.get('/api/prompts/user')).body.find(
      (p: { id: string }) => p.id === own.body.id,
    );
    expect(prompt.assignments).toEqual([]);
    // The ping is history: still there for both.
    expect((await b.client.get('/api/pings/recent')).body.map((p: { id: string }) => p.id)).toEqual(
      [sent.body.id],
    );
    // B's device drops the friendship, A's profile and the anchor.
    const after = await pullAll(b.client, before.cursor);
    const gone = after.changes.filter((c) => c.op === 'delete').map((c) => `${c.entity}:${c.id}`);
    expect(gone).toEqual(expect.arrayContaining([`user:${a.id}`, `anchor:${anchor.body.id}`]));
    expect(gone.some((g) => g.startsWith('friendship:'))).toBe(true);
    // Either may ask again.
    expect((await a.client.post('/api/friends/request', { friendId: b.id })).status).toBe(201);
  });

  it('is 404 for someone who is not a friend (a stranger, a pending request, oneself)', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const stranger = await makeUser(server);
    await request(a, b);
    for (const [who, target] of [
      [a, b],
      [b, a],
      [a, stranger],
      [a, a],
    ] as const) {
      const res = await who.client.del(`/api/friends/${target.id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Friend not found');
    }
    expect(await friendshipRows(a.id, b.id)).toHaveLength(1);
    expect((await a.client.del('/api/friends/not-an-id')).status).toBe(400);
  });
});

describe('the change log', () => {
  it("holds 'friendship' rows for both people after request, accept and reject", async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    const both = (op: string) =>
      expect.arrayContaining([
        { userId: a.id, op },
        { userId: b.id, op },
      ]);
    const afterRequest = await friendshipChanges(requestId);
    expect(afterRequest).toHaveLength(2);
    expect(afterRequest).toEqual(both('upsert'));

    await b.client.post('/api/friends/accept', { requestId });
    const afterAccept = await friendshipChanges(requestId);
    expect(afterAccept).toHaveLength(4);
    expect(afterAccept.slice(2)).toEqual(both('upsert'));

    const c = await makeUser(server);
    const second = await request(c, a);
    await a.client.post('/api/friends/reject', { requestId: second });
    const afterReject = await friendshipChanges(second);
    expect(afterReject).toHaveLength(4);
    expect(afterReject.slice(2)).toEqual(
      expect.arrayContaining([
        { userId: a.id, op: 'delete' },
        { userId: c.id, op: 'delete' },
      ]),
    );
  });

  it('a refused action records nothing', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const requestId = await request(a, b);
    await a.client.post('/api/friends/accept', { requestId }); // 403
    await a.client.post('/api/friends/request', { friendId: b.id }); // 409
    expect(await friendshipChanges(requestId)).toHaveLength(2);
  });
});

describe('GET /api/friends, /api/friends/{id} and /stats', () => {
  let me: MadeUser;
  let zoe: MadeUser;
  let bob: MadeUser;
  let amy: MadeUser;
  beforeAll(async () => {
    me = await makeUser(server, { firstName: 'Me' });
    zoe = await makeUser(server, { firstName: 'zoe', lastName: 'Zed' });
    bob = await makeUser(server, { firstName: 'Bob', lastName: 'Brown' });
    amy = await makeUser(server, { firstName: 'Amy', lastName: 'Adams' });
    await makeFriends(me, zoe);
    await makeFriends(bob, me);
    await makeFriends(me, amy);
    // a pending request is not a friend
    await request(me, await makeUser(server, { firstName: 'Aaron' }));
  });

  it('lists accepted friends by first name, case-insensitively', async () => {
    const res = await me.client.get('/api/friends');
    expect(res.status).toBe(200);
    expect(res.body.map((f: { firstName: string }) => f.firstName)).toEqual(['Amy', 'Bob', 'zoe']);
    for (const f of res.body) {
      expect(f).toEqual(
        expect.objectContaining({
          friendshipId: expect.any(String),
          friendsSince: expect.any(String),
          email: expect.stringContaining('@'),
          handle: null,
          tagline: null,
          createdAt: expect.any(String),
        }),
      );
    }
  });

  it('GET /api/friends/{id} answers one friend', async () => {
    const res = await me.client.get(`/api/friends/${bob.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: bob.id, firstName: 'Bob', email: bob.email });
  });

  it('GET /api/friends/{id} is 404 for a non-friend, a pending request and an unknown id', async () => {
    const stranger = await makeUser(server);
    const pending = await makeUser(server);
    await request(pending, me);
    for (const id of [stranger.id, pending.id, randomUUID(), me.id]) {
      const res = await me.client.get(`/api/friends/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Friend not found');
      const stats = await me.client.get(`/api/friends/${id}/stats`);
      expect(stats.status).toBe(404);
      expect(stats.body.error).toBe('Friend not found');
    }
  });

  it("another person cannot see A's friend B through /api/friends/{B} or its stats", async () => {
    const c = await makeUser(server);
    expect((await c.client.get(`/api/friends/${bob.id}`)).status).toBe(404);
    expect((await c.client.get(`/api/friends/${bob.id}/stats`)).status).toBe(404);
  });

  it('a bad id is 400', async () => {
    for (const path of ['/api/friends/not-a-uuid', '/api/friends/123/stats']) {
      const res = await me.client.get(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Must be a valid id');
    }
  });

  it('stats count pings both ways, reactions by either, and whole days connected', async () => {
    const mine = (await me.client.get(`/api/friends/${amy.id}`)).body;
    // Friends since 3 days and 5 hours ago.
    await db()
      .updateTable('friendships')
      .set({ acceptedAt: new Date(Date.now() - (3 * 24 + 5) * 3600_000).toISOString() })
      .where('id', '=', mine.friendshipId)
      .execute();
    const ping = (senderId: string, receiverId: string) =>
      insertDemoPing(db(), {
        senderId,
        receiverId,
        promptText: 'Ping me when you need a hug',
        promptEmoji: '🤗',
        createdAt: new Date(),
        read: false,
      });
    const p1 = await ping(me.id, amy.id);
    const p2 = await ping(amy.id, me.id);
    await ping(amy.id, me.id);
    // Not between us: ignored.
    const elsewhere = await ping(amy.id, bob.id);
    await ping(me.id, zoe.id);
    const react = (pingId: string, userId: string) =>
      insertDemoReaction(db(), {
        pingId,
        userId,
        reactionType: 'heart',
        createdAt: new Date(),
      });
    await react(p1, amy.id);
    await react(p2, me.id);
    await react(elsewhere, bob.id);

    const res = await me.client.get(`/api/friends/${amy.id}/stats`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalPings: 3, totalReactions: 2, daysConnected: 3 });
    const theirs = await amy.client.get(`/api/friends/${me.id}/stats`);
    expect(theirs.body).toEqual(res.body);
    const fresh = await me.client.get(`/api/friends/${zoe.id}/stats`);
    expect(fresh.body).toEqual({ totalPings: 1, totalReactions: 0, daysConnected: 0 });
  });
});

describe('signed out', () => {
  it.each([
    ['GET', '/api/friends'],
    ['GET', '/api/friends/pending'],
    ['GET', `/api/friends/${randomUUID()}`],
    ['GET', `/api/friends/${randomUUID()}/stats`],
    ['POST', '/api/friends/request'],
    ['POST', '/api/friends'],
    ['POST', '/api/friends/accept'],
    ['POST', '/api/friends/reject'],
  ])('%s %s is 401 Unauthorized', async (method, path) => {
    const res = await server
      .client()
      .request(method, path, method === 'POST' ? { friendId: randomUUID() } : undefined);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
  });
});
