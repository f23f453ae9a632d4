/**
 * Block and report (docs/api.md "Safety", docs/security.md "Blocking", "Reports"): who may call
 * each route (signed out, stranger, blocked person, admin), what a block ends and hides, that a
 * blocked person is answered exactly as a stranger, reports and their resolution by admins,
 * idempotent replays, and bad input as 400, never 500.
 */
import { randomUUID } from 'node:crypto';
import type { PullResponse } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  verifyEmailOf,
  type Client,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

const ADMIN_EMAIL = 'safety-admin@example.test';
const PROMPT = '00000000-0000-7000-8000-000000000001';

let server: TestServer;
let admin: MadeUser;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL });
  admin = await verifyEmailOf(server, await makeUser(server, { email: ADMIN_EMAIL }));
});
afterAll(() => server.stop());

const db = () => server.database.db;
const change = (changes: PullResponse['changes'], entity: string, id: string) =>
  changes.find((c) => c.entity === entity && c.id === id);

async function sendPing(from: MadeUser, to: MadeUser) {
  return from.client.post('/api/pings', { promptId: PROMPT, receiverId: to.id });
}

describe('POST /api/blocks: blocking a friend ends everything between the two', () => {
  let a: MadeUser;
  let b: MadeUser;
  let pingId: string;
  let anchorId: string;
  let friendshipId: string;
  let cursorA: number;
  let cursorB: number;

  beforeAll(async () => {
    a = await makeUser(server, { firstName: 'Ariadne' });
    b = await makeUser(server, { firstName: 'Bartholomew' });
    await makeFriends(a, b);
    friendshipId = (await a.client.get('/api/friends')).body[0].friendshipId;
    pingId = (await sendPing(b, a)).body.id;
    const anchor = await a.client.post('/api/profile/anchors', { friendId: b.id, text: 'Hi' });
    anchorId = anchor.body.id;
    await b.client.patch(`/api/profile/anchors/${anchorId}/respond`, { response: 'accept' });
    await a.client.post('/api/prompts/assign', { promptId: PROMPT, friendId: b.id });
    await a.client.post('/api/energy/update-all');
    cursorA = (await pullAll(a.client)).cursor;
    cursorB = (await pullAll(b.client)).cursor;
  });

  it('answers 201 with the blocked person', async () => {
    const res = await a.client.post('/api/blocks', { userId: b.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: b.id,
      user: { id: b.id, firstName: 'Bartholomew' },
    });
    expect(typeof res.body.createdAt).toBe('string');
  });

  it('ends the friendship, the anchor, the assignment and the energy snapshot, in one go', async () => {
    expect((await a.client.get('/api/friends')).body).toEqual([]);
    expect((await b.client.get('/api/friends')).body).toEqual([]);
    expect((await a.client.get('/api/profile/anchors')).body).toEqual([]);
    expect((await b.client.get('/api/profile/anchors')).body).toEqual([]);
    const prompt = (await a.client.get('/api/prompts/default')).body.find(
      (p: { id: string }) => p.id === PROMPT,
    );
    expect(prompt.assignments).toEqual([]);
    const snapshots = await db()
      .selectFrom('energySnapshots')
      .selectAll()
      .where((eb) => eb.or([eb('userId', '=', a.id), eb('userId', '=', b.id)]))
      .execute();
    expect(snapshots).toEqual([]);
  });

  it('tells both devices through the pull: tombstones for the friendship, the anchor and the other’s profile', async () => {
    for (const [me, other, since] of [
      [a, b, cursorA],
      [b, a, cursorB],
    ] as const) {
      const { changes } = await pullAll(me.client, since);
      expect(change(changes, 'friendship', friendshipId)).toMatchObject({ op: 'delete' });
      expect(change(changes, 'anchor', anchorId)).toMatchObject({ op: 'delete' });
      expect(change(changes, 'user', other.id)).toMatchObject({ op: 'delete' });
    }
    const { changes } = await pullAll(a.client, cursorA);
    expect(change(changes, 'prompt', PROMPT)).toMatchObject({ op: 'upsert' });
  });

  it('keeps the pings already exchanged with both (history)', async () => {
    expect(
      (await a.client.get('/api/pings/recent')).body.map((p: { id: string }) => p.id),
    ).toContain(pingId);
  });

  it('blocking again is the same block (200), and a replayed key answers the first answer', async () => {
    const first = await a.client.get('/api/blocks');
    const again = await a.client.post('/api/blocks', { userId: b.id });
    expect(again.status).toBe(200);
    expect(again.body.createdAt).toBe(first.body[0].createdAt);
    const c = await makeUser(server);
    const headers = { 'Idempotency-Key': `block-${randomUUID()}` };
    const one = await a.client.post('/api/blocks', { userId: c.id }, { headers });
    const two = await a.client.post('/api/blocks', { userId: c.id }, { headers });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect((await a.client.post('/api/blocks', { userId: a.id }, { headers })).status).toBe(422);
  });

  it('lists the caller’s own blocks only, newest first', async () => {
    const list = (await a.client.get('/api/blocks')).body;
    expect(list.map((x: { userId: string }) => x.userId)).toContain(b.id);
    expect((await b.client.get('/api/blocks')).body).toEqual([]);
  });
});

describe('a blocked person is answered exactly as a stranger, both ways', () => {
  let a: MadeUser; // blocks b
  let b: MadeUser;
  let stranger: MadeUser; // never linked to anyone here
  let oldPing: string;

  beforeAll(async () => {
    a = await makeUser(server, { firstName: 'Zelda', lastName: 'Quartz' });
    b = await makeUser(server, { firstName: 'Yorick', lastName: 'Quartz' });
    stranger = await makeUser(server, { firstName: 'Xavier', lastName: 'Quartz' });
    await makeFriends(a, b);
    oldPing = (await sendPing(a, b)).body.id;
    expect((await a.client.post('/api/blocks', { userId: b.id })).status).toBe(201);
  });

  /** What `who` gets when acting on a person, reduced to status and error text. */
  async function answers(who: MadeUser, target: { id: string; inviteCode: string }) {
    const r = (res: { status: number; body: any }) => [res.status, res.body?.error ?? null];
    const invite = await who.client.get(`/api/invites/${target.inviteCode}`);
    return {
      profile: r(await who.client.get(`/api/users/${target.id}/profile`)),
      request: r(await who.client.post('/api/friends/request', { friendId: target.id })),
      alias: r(await who.client.post('/api/friends', { friendId: target.id, status: 'pending' })),
      inviteCheck: [invite.status, invite.body.valid, invite.body.message],
      inviteUse: r(await who.client.post(`/api/invites/${target.inviteCode}/use`)),
      ping: r(await who.client.post('/api/pings', { promptId: PROMPT, receiverId: target.id })),
      custom: r(
        await who.client.post('/api/pings/custom', { receiverId: target.id, customText: 'hi' }),
      ),
      group: r(
        await who.client.post('/api/pings/group', { promptId: PROMPT, receiverIds: [target.id] }),
      ),
      anchor: r(await who.client.post('/api/profile/anchors', { friendId: target.id, text: 'x' })),
      mood: r(
        await who.client.post('/api/moods', { friendId: target.id, mood: 'happy', emoji: '😊' }),
      ),
      friend: r(await who.client.get(`/api/friends/${target.id}`)),
      pingsWith: r(await who.client.get(`/api/pings/with/${target.id}`)),
      latestMood: r(await who.client.get(`/api/moods/${target.id}/latest`)),
    };
  }
  const of = (u: MadeUser) => ({ id: u.id, inviteCode: u.user.inviteCode as string });
  /** Someone who does not exist: an unknown id and an unknown invite code. */
  const nobody = () => ({ id: randomUUID(), inviteCode: 'not-a-real-code' });

  it('the blocked person (b) acting on the blocker (a)', async () => {
    const got = await answers(b, of(a));
    expect(got).toEqual(await answers(b, nobody()));
    expect(got.profile).toEqual([404, 'User not found']);
    expect(got.request).toEqual([404, 'User not found']);
    expect(got.inviteCheck).toEqual([200, false, expect.any(String)]);
    expect(got.inviteUse[0]).toBe(404);
    expect(got.ping).toEqual([403, 'You can only ping friends']);
    expect(JSON.stringify(got)).not.toMatch(/block/i);
  });

  it('the blocker (a) acting on the blocked person (b)', async () => {
    expect(await answers(a, of(b))).toEqual(await answers(a, nobody()));
  });

  it('leaves nothing behind from those attempts', async () => {
    const rows = await db()
      .selectFrom('friendships')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('requesterId', '=', a.id), eb('addresseeId', '=', b.id)]),
          eb.and([eb('requesterId', '=', b.id), eb('addresseeId', '=', a.id)]),
        ]),
      )
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses reactions on the old pings between them as if the ping were unknown', async () => {
    // From the blocked person and from the blocker alike.
    for (const who of [b, a]) {
      const res = await who.client.post(`/api/pings/${oldPing}/reactions`, {
        reactionType: 'heart',
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Ping not found');
    }
  });

  it('hides each from the other’s search and suggestions', async () => {
    const names = async (c: Client, path: string) =>
      (await c.get(path)).body.map((p: { id: string }) => p.id);
    expect(await names(b.client, '/api/users/search?q=quartz')).not.toContain(a.id);
    expect(await names(a.client, '/api/users/search?q=quartz')).not.toContain(b.id);
    expect(await names(b.client, `/api/users/search?q=${encodeURIComponent(a.email)}`)).toEqual([]);
    expect(await names(b.client, '/api/users/search?q=quartz')).toContain(stranger.id);
    expect(await names(b.client, '/api/users/suggestions')).not.toContain(a.id);
    expect(await names(a.client, '/api/users/suggestions')).not.toContain(b.id);
    expect(await names(a.client, '/api/users/suggestions')).toContain(stranger.id);
  });

  it('a report by the blocked person about the blocker is 404, as for an unknown person', async () => {
    const res = await b.client.post('/api/reports', { userId: a.id, reason: 'spam' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('User not found');
  });
});

describe('read marks after a block stay with the reader', () => {
  let a: MadeUser;
  let b: MadeUser;
  let readBefore: string;
  let readAfter: string;
  let readByAll: string;
  let cursorA: number;

  beforeAll(async () => {
    a = await makeUser(server, { firstName: 'Wilhelmina' });
    b = await makeUser(server, { firstName: 'Valentin' });
    await makeFriends(a, b);
    readBefore = (await sendPing(a, b)).body.id;
    readAfter = (await sendPing(a, b)).body.id;
    readByAll = (await sendPing(a, b)).body.id;
    expect((await b.client.patch(`/api/pings/${readBefore}/read`)).status).toBe(200);
    // Whoever blocks, the other is not told: here the sender is the one who blocked.
    expect((await a.client.post('/api/blocks', { userId: b.id })).status).toBe(201);
    cursorA = (await pullAll(a.client)).cursor;
  });

  /**
   * The ping as the sender's sources show it: the snapshot, and the REST answer of a route that
   * returns it (a bookmark of their own history, which only they see).
   */
  async function asSenderSees(id: string) {
    const snapshot = (await pullAll(a.client)).changes.find((c) => c.id === id)?.data;
    const rest = (await a.client.patch(`/api/pings/${id}/bookmark`, { bookmarked: true })).body;
    return { rest, snapshot };
  }

  it('the receiver still marks them read, and sees them read', async () => {
    const one = await b.client.patch(`/api/pings/${readAfter}/read`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: readAfter, isRead: true });
    const all = await b.client.patch('/api/pings/mark-all-read');
    expect(all.body).toEqual({ count: 1 });
    const mine = (await b.client.get('/api/pings/recent')).body as {
      id: string;
      isRead: boolean;
    }[];
    expect(mine.filter((p) => [readAfter, readByAll].includes(p.id))).toEqual([
      expect.objectContaining({ isRead: true }),
      expect.objectContaining({ isRead: true }),
    ]);
  });

  it('the sender is told nothing: no change row, and every answer shows them unread', async () => {
    const { changes } = await pullAll(a.client, cursorA);
    expect(changes.filter((c) => c.entity === 'ping')).toEqual([]);
    for (const id of [readAfter, readByAll]) {
      const seen = await asSenderSees(id);
      expect(seen.rest).toMatchObject({ id, isRead: false, readAt: null });
      expect(seen.snapshot).toMatchObject({ id, isRead: false, readAt: null });
    }
  });

  it('a read before the block stays as it was', async () => {
    const seen = await asSenderSees(readBefore);
    expect(seen.rest).toMatchObject({ id: readBefore, isRead: true });
    expect(seen.snapshot).toMatchObject({ id: readBefore, isRead: true });
  });

  it('once unblocked, the sender’s device is told of the reads it may now see, as a snapshot shows them', async () => {
    const { cursor } = await pullAll(a.client);
    expect((await a.client.del(`/api/blocks/${b.id}`)).status).toBe(200);
    const { changes } = await pullAll(a.client, cursor);
    const told = changes.filter((c) => c.entity === 'ping');
    expect(told.map((c) => c.id).sort()).toEqual([readAfter, readByAll].sort());
    const snapshot = (await pullAll(a.client)).changes;
    for (const c of told) {
      expect(c.data).toMatchObject({ isRead: true });
      expect(c.data).toEqual(snapshot.find((x) => x.id === c.id)?.data);
    }
  });
});

describe('DELETE /api/blocks/{userId}', () => {
  it('lifts the caller’s own block; the friendship does not come back; they may ask again', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    await a.client.post('/api/blocks', { userId: b.id });
    // b cannot lift a's block.
    const byB = await b.client.del(`/api/blocks/${a.id}`);
    expect(byB.status).toBe(200);
    expect(byB.body).toEqual({ success: true, wasBlocked: false });
    expect((await b.client.get(`/api/users/${a.id}/profile`)).status).toBe(404);
    const byA = await a.client.del(`/api/blocks/${b.id}`);
    expect(byA.body).toEqual({ success: true, wasBlocked: true });
    expect((await a.client.get('/api/blocks')).body).toEqual([]);
    const profile = await b.client.get(`/api/users/${a.id}/profile`);
    expect(profile.status).toBe(200);
    expect(profile.body.areFriends).toBe(false);
    const ask = await b.client.post('/api/friends/request', { friendId: a.id });
    expect(ask.status).toBe(201);
  });

  it('unblocking someone not blocked is a harmless 200', async () => {
    const a = await makeUser(server);
    const res = await a.client.del(`/api/blocks/${randomUUID()}`);
    expect(res.body).toEqual({ success: true, wasBlocked: false });
  });

  it('a block the other person made stays when both had blocked', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await a.client.post('/api/blocks', { userId: b.id });
    expect((await b.client.post('/api/blocks', { userId: a.id })).status).toBe(201);
    await a.client.del(`/api/blocks/${b.id}`);
    expect((await a.client.get(`/api/users/${b.id}/profile`)).status).toBe(404);
  });
});

describe('POST /api/reports', () => {
  let a: MadeUser;
  let b: MadeUser;
  let fromB: string;
  let fromA: string;
  beforeAll(async () => {
    a = await makeUser(server);
    b = await makeUser(server);
    await makeFriends(a, b);
    fromB = (await sendPing(b, a)).body.id;
    fromA = (await sendPing(a, b)).body.id;
  });

  it('stores a report about a person (201), without telling them', async () => {
    const res = await a.client.post('/api/reports', {
      userId: b.id,
      reason: 'harassment',
      details: '  keeps pinging at night  ',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: b.id,
      pingId: null,
      reason: 'harassment',
      details: 'keeps pinging at night',
      status: 'open',
    });
    const { changes } = await pullAll(b.client, 0);
    expect(JSON.stringify(changes)).not.toContain(res.body.id);
  });

  it('a report about a received ping names its sender', async () => {
    const res = await a.client.post('/api/reports', { pingId: fromB, reason: 'inappropriate' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userId: b.id, pingId: fromB });
    const both = await a.client.post('/api/reports', {
      pingId: fromB,
      userId: b.id,
      reason: 'spam',
    });
    expect(both.status).toBe(201);
  });

  it('a stranger may report a person they can see, and is answered 201 too', async () => {
    const stranger = await makeUser(server);
    const res = await stranger.client.post('/api/reports', { userId: b.id, reason: 'other' });
    expect(res.status).toBe(201);
  });

  it('only pings the reporter can see: someone else’s ping is 404, your own ping is 400', async () => {
    const stranger = await makeUser(server);
    const other = await stranger.client.post('/api/reports', { pingId: fromB, reason: 'spam' });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('Ping not found');
    const own = await a.client.post('/api/reports', { pingId: fromA, reason: 'spam' });
    expect(own.status).toBe(400);
    const unknown = await a.client.post('/api/reports', { pingId: randomUUID(), reason: 'spam' });
    expect(unknown.status).toBe(404);
  });

  it('a person who blocked you first may still be reported by you (block and report)', async () => {
    const x = await makeUser(server);
    await a.client.post('/api/blocks', { userId: x.id });
    expect((await a.client.post('/api/reports', { userId: x.id, reason: 'spam' })).status).toBe(
      201,
    );
  });

  it('replays: the same Idempotency-Key answers the first report; the same id again is that report', async () => {
    const headers = { 'Idempotency-Key': `report-${randomUUID()}` };
    const body = { userId: b.id, reason: 'spam' };
    const one = await a.client.post('/api/reports', body, { headers });
    const two = await a.client.post('/api/reports', body, { headers });
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    const id = randomUUID();
    const first = await a.client.post('/api/reports', { ...body, id });
    const again = await a.client.post('/api/reports', { ...body, id });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const theirs = await b.client.post('/api/reports', { userId: a.id, reason: 'spam', id });
    expect(theirs.status).toBe(409);
    const count = await db().selectFrom('reports').select('id').where('id', '=', id).execute();
    expect(count).toHaveLength(1);
  });

  it.each([
    [{ reason: 'spam' }, 'Say which person or which ping you are reporting'],
    [{ userId: 'nope', reason: 'spam' }, 'Must be a valid id'],
    [{ userId: '00000000-0000-4000-8000-000000000000', reason: 'rude' }, /Choose a reason/],
    [{ userId: '00000000-0000-4000-8000-000000000000' }, /Choose a reason/],
    [
      { userId: '00000000-0000-4000-8000-000000000000', reason: 'spam', details: 'x'.repeat(501) },
      'Details must be at most 500 characters',
    ],
    [
      { userId: '00000000-0000-4000-8000-000000000000', reason: 'spam', details: 5 },
      'Details must be text',
    ],
    [
      { userId: '00000000-0000-4000-8000-000000000000', reason: 'spam', extra: true },
      'Unknown field: extra',
    ],
    [[1, 2], /./],
    ['"text"', /./],
  ])('bad input %j is 400', async (body, message) => {
    const res = await a.client.post('/api/reports', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      message instanceof RegExp ? message : new RegExp(`^${message}$`),
    );
  });

  it('reporting yourself is 400; an unknown person is 404', async () => {
    expect((await a.client.post('/api/reports', { userId: a.id, reason: 'spam' })).status).toBe(
      400,
    );
    expect(
      (await a.client.post('/api/reports', { userId: randomUUID(), reason: 'spam' })).status,
    ).toBe(404);
  });
});

describe('admin: GET /api/admin/reports and PATCH /api/admin/reports/{id}', () => {
  let reporter: MadeUser;
  let reported: MadeUser;
  let reportId: string;
  beforeAll(async () => {
    reporter = await makeUser(server, { firstName: 'Rita' });
    reported = await makeUser(server, { firstName: 'Rex' });
    await makeFriends(reporter, reported);
    const pingId = (await sendPing(reported, reporter)).body.id;
    const res = await reporter.client.post('/api/reports', {
      pingId,
      reason: 'harassment',
      details: 'not nice',
    });
    reportId = res.body.id;
  });

  it('lists open reports with both people and the ping for an admin', async () => {
    const res = await admin.client.get('/api/admin/reports');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const r = res.body.find((x: { id: string }) => x.id === reportId);
    expect(r).toMatchObject({
      status: 'open',
      reason: 'harassment',
      details: 'not nice',
      reporter: { id: reporter.id, firstName: 'Rita', email: reporter.email },
      user: { id: reported.id, firstName: 'Rex', email: reported.email },
      ping: { kind: 'prompt', text: 'Ping me when you need a hug' },
      note: null,
      resolvedAt: null,
    });
  });

  it('is 401 signed out and 403 for everyone else, the reporter and the reported included', async () => {
    expect((await server.client().get('/api/admin/reports')).status).toBe(401);
    for (const u of [reporter, reported]) {
      const res = await u.client.get('/api/admin/reports');
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Access denied. Admin privileges required.');
      const patch = await u.client.patch(`/api/admin/reports/${reportId}`, { status: 'resolved' });
      expect(patch.status).toBe(403);
    }
    expect(
      (await server.client().patch(`/api/admin/reports/${reportId}`, { status: 'resolved' }))
        .status,
    ).toBe(401);
  });

  it('resolves a report with a note; resolving again keeps the first resolution', async () => {
    const res = await admin.client.patch(`/api/admin/reports/${reportId}`, {
      status: 'resolved',
      note: 'warned them',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: reportId,
      status: 'resolved',
      note: 'warned them',
      resolvedBy: admin.id,
    });
    const again = await admin.client.patch(`/api/admin/reports/${reportId}`, {
      status: 'resolved',
      note: 'second thoughts',
    });
    expect(again.status).toBe(200);
    expect(again.body.note).toBe('warned them');
    const open = (await admin.client.get('/api/admin/reports?status=open')).body;
    expect(open.map((x: { id: string }) => x.id)).not.toContain(reportId);
    const resolved = (await admin.client.get('/api/admin/reports?status=resolved')).body;
    expect(resolved.map((x: { id: string }) => x.id)).toContain(reportId);
    const all = (await admin.client.get('/api/admin/reports?status=all')).body;
    expect(all.map((x: { id: string }) => x.id)).toContain(reportId);
  });

  it.each([
    ['GET', '/api/admin/reports?status=closed', undefined],
    ['PATCH', `/api/admin/reports/not-an-id`, { status: 'resolved' }],
    ['PATCH', `/api/admin/reports/${randomUUID()}`, { status: 'open' }],
    ['PATCH', `/api/admin/reports/${randomUUID()}`, {}],
    ['PATCH', `/api/admin/reports/${randomUUID()}`, { status: 'resolved', note: 'x'.repeat(501) }],
    ['PATCH', `/api/admin/reports/${randomUUID()}`, { status: 'resolved', by: 'me' }],
  ])('bad input (%s %s) is 400', async (method, path, body) => {
    const res = await admin.client.request(method, path, body);
    expect(res.status).toBe(400);
  });

  it('an unknown report is 404', async () => {
    const res = await admin.client.patch(`/api/admin/reports/${randomUUID()}`, {
      status: 'resolved',
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Report not found');
  });
});

describe('authorization and bad input of the block routes', () => {
  it('every route is 401 signed out', async () => {
    const c = server.client();
    expect((await c.get('/api/blocks')).status).toBe(401);
    expect((await c.post('/api/blocks', { userId: randomUUID() })).status).toBe(401);
    expect((await c.del(`/api/blocks/${randomUUID()}`)).status).toBe(401);
    expect((await c.post('/api/reports', { userId: randomUUID(), reason: 'spam' })).status).toBe(
      401,
    );
  });

  it('an admin has no special power over blocks: their own list, their own blocks', async () => {
    const x = await makeUser(server);
    const y = await makeUser(server);
    await x.client.post('/api/blocks', { userId: y.id });
    expect((await admin.client.get('/api/blocks')).body).toEqual([]);
    await admin.client.del(`/api/blocks/${y.id}`);
    expect((await x.client.get('/api/blocks')).body).toHaveLength(1);
  });

  it.each([
    [{}, 'Must be a valid id'],
    [{ userId: 'x' }, 'Must be a valid id'],
    [{ userId: 12 }, 'Must be a valid id'],
    [{ userId: randomUUID(), why: 'because' }, 'Unknown field: why'],
    [null, /./],
  ])('POST /api/blocks %j is 400', async (body, message) => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/blocks', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('blocking yourself is 400, an unknown person 404; DELETE with a bad id is 400', async () => {
    const a = await makeUser(server);
    expect((await a.client.post('/api/blocks', { userId: a.id })).status).toBe(400);
    const unknown = await a.client.post('/api/blocks', { userId: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('User not found');
    expect((await a.client.del('/api/blocks/not-an-id')).status).toBe(400);
  });
});
