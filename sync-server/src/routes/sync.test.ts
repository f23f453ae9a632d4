import type { PullChange, PullResponse } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type Client,
  pullAll,
  type MadeUser,
  type Pulled,
  type TestServer,
} from '../../test/harness';
import type { Context } from 'koa';
import { recordChange } from '../db/changes';
import { findIdempotent } from '../db/idempotency';
import { mutate } from '../middleware/idempotency';
import { deleteFriendship, findFriendshipBetween } from '../db/friendships';
import { logBounds, pruneChangeLog } from '../sync/pull';

let server: TestServer;
beforeAll(async () => {
  // A minute's wait after the free wrong passwords, so a throttled sign-in stays throttled.
  server = await startTestServer({ LOGIN_FIRST_DELAY_SECONDS: '60' });
});
afterAll(() => server.stop());

const key = (c: Pick<PullChange, 'entity' | 'id'>) => `${c.entity}:${c.id}`;
const find = (p: Pulled, entity: string, id: string) =>
  p.changes.find((c) => c.entity === entity && c.id === id);

async function defaultPrompt(u: MadeUser): Promise<{ id: string; text: string }> {
  const res = await u.client.get('/api/prompts/default');
  expect(res.status).toBe(200);
  return res.body[0];
}

async function ping(from: MadeUser, to: MadeUser): Promise<string> {
  const prompt = await defaultPrompt(from);
  const res = await from.client.post('/api/pings', { promptId: prompt.id, receiverId: to.id });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Ends a friendship as an unfriend route would: the row goes, both people's logs say so. */
async function unfriend(a: MadeUser, b: MadeUser) {
  const { db } = server.database;
  const row = await findFriendshipBetween(db, a.id, b.id);
  if (!row) throw new Error('not friends');
  await db.transaction().execute(async (trx) => {
    await deleteFriendship(trx, row.id);
    await recordChange(trx, [a.id, b.id], 'friendship', row.id, 'delete');
  });
  server.events.emit('changed', [a.id, b.id]);
  return row.id;
}

describe('GET /api/sync/pull', () => {
  it('needs a session', async () => {
    const res = await server.client().get('/api/sync/pull');
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('answers a snapshot from zero, then exactly the later changes the caller may see, once each', async () => {
    const a = await makeUser(server, { firstName: 'Ann' });
    const b = await makeUser(server, { firstName: 'Bob' });
    const c = await makeUser(server, { firstName: 'Cy' });
    const e = await makeUser(server, { firstName: 'Eve' });
    await makeFriends(a, b);
    await makeFriends(b, c);
    const first = await ping(a, b);
    const strangers = await ping(c, b);

    // A device with no cursor: a full snapshot.
    const snap = await pullAll(a.client);
    expect(snap.pages.every((p) => p.reset)).toBe(true);
    expect(snap.changes.every((ch) => ch.op === 'upsert')).toBe(true);
    expect(find(snap, 'user', a.id)?.data).toMatchObject({ relation: 'self', id: a.id });
    expect(find(snap, 'user', b.id)?.data).toMatchObject({ relation: 'friend', firstName: 'Bob' });
    const friendship = snap.changes.find((ch) => ch.entity === 'friendship');
    expect(friendship?.data).toMatchObject({ status: 'accepted', otherUserId: b.id });
    const defaults = (await a.client.get('/api/prompts/default')).body as { id: string }[];
    expect(defaults.length).toBeGreaterThan(0);
    for (const p of defaults) expect(find(snap, 'prompt', p.id)).toBeDefined();
    expect(find(snap, 'ping', first)?.data).toMatchObject({ senderId: a.id, receiverId: b.id });
    // Nothing of the stranger's: not their profile, not their ping to B.
    expect(JSON.stringify(snap.changes)).not.toContain(c.id);
    expect(find(snap, 'ping', strangers)).toBeUndefined();

    // Activity by A, B and the stranger C.
    const fromB = await ping(b, a);
    expect(
      (await a.client.post(`/api/pings/${fromB}/reactions`, { reactionType: 'heart' })).status,
    ).toBe(201);
    const mood = await b.client.post('/api/moods', { friendId: a.id, mood: 'happy', emoji: '😊' });
    expect(mood.status).toBe(201);
    expect((await b.client.put('/api/profile/update', { tagline: 'New tagline' })).status).toBe(
      200,
    );
    const request = await a.client.post('/api/friends/request', { friendId: e.id });
    expect(request.status).toBe(201);
    await ping(c, b);
    expect((await c.client.put('/api/profile/update', { tagline: 'Cy was here' })).status).toBe(
      200,
    );

    const delta = await pullAll(a.client, snap.cursor);
    expect(delta.pages.every((p) => !p.reset)).toBe(true);
    const keys = delta.changes.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [
        `ping:${fromB}`,
        `mood:${mood.body.id}`,
        `user:${b.id}`,
        // B's profile shows in the friendship row too, so it comes along.
        `friendship:${friendship!.id}`,
        `friendship:${request.body.requestId}`,
        // A request shows E's name but not E as a friend: E's 'user' is a (harmless) tombstone.
        `user:${e.id}`,
      ].sort(),
    );
    expect(find(delta, 'ping', fromB)?.data).toMatchObject({
      reactions: [{ userId: a.id, reactionType: 'heart' }],
    });
    expect(find(delta, 'user', b.id)?.data).toMatchObject({ tagline: 'New tagline' });
    expect(find(delta, 'friendship', request.body.requestId)?.data).toMatchObject({
      status: 'pending',
      direction: 'sent',
      other: { id: e.id, firstName: 'Eve' },
    });
    expect(find(delta, 'user', e.id)).toMatchObject({ op: 'delete', data: null });
    expect(JSON.stringify(delta.changes)).not.toContain(c.id);
    expect(delta.cursor).toBeGreaterThan(snap.cursor);

    // Quiet since: nothing, and the cursor stays.
    const again = await pullAll(a.client, delta.cursor);
    expect(again.changes).toEqual([]);
    expect(again.cursor).toBe(delta.cursor);
  });

  it('turns an ex-friend into tombstones where their data is no longer visible', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const shared = await ping(b, a);
    const snap = await pullAll(a.client);
    expect(find(snap, 'user', b.id)?.op).toBe('upsert');

    const friendshipId = await unfriend(a, b);
    const delta = await pullAll(a.client, snap.cursor);
    expect(find(delta, 'friendship', friendshipId)).toMatchObject({ op: 'delete', data: null });
    expect(find(delta, 'user', b.id)).toMatchObject({ op: 'delete', data: null });
    // A ping stays with the two people who exchanged it.
    expect(find(delta, 'ping', shared)).toBeUndefined();
    expect(
      (await pullAll(a.client)).changes.find((ch) => ch.entity === 'user' && ch.id === b.id),
    ).toBeUndefined();
    // The same for B.
    const forB = await pullAll(b.client, snap.cursor);
    expect(find(forB, 'user', a.id)).toMatchObject({ op: 'delete' });
  });

  it('re-sends a pending request when either person changes their card, and pokes the other', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const stranger = await makeUser(server);
    expect((await a.client.post('/api/friends/request', { friendId: b.id })).status).toBe(201);
    const request = await findFriendshipBetween(server.database.db, a.id, b.id);
    const snapA = await pullAll(a.client);
    const snapB = await pullAll(b.client);
    const snapStranger = await pullAll(stranger.client);
    const heard: string[][] = [];
    const listener = (ids: string[]) => heard.push(ids);
    server.events.on('changed', listener);

    // The addressee changes their tagline: the requester's device gets the request again.
    expect((await b.client.put('/api/profile/update', { tagline: 'new card' })).status).toBe(200);
    const forA = await pullAll(a.client, snapA.cursor);
    expect(find(forA, 'friendship', request!.id)).toMatchObject({
      op: 'upsert',
      data: { status: 'pending', direction: 'sent', other: { id: b.id, tagline: 'new card' } },
    });
    // And the other way round.
    expect((await a.client.put('/api/profile/update', { tagline: 'mine too' })).status).toBe(200);
    const forB = await pullAll(b.client, snapB.cursor);
    expect(find(forB, 'friendship', request!.id)).toMatchObject({
      data: { direction: 'received', other: { id: a.id, tagline: 'mine too' } },
    });
    server.events.off('changed', listener);
    expect(heard.map((ids) => [...ids].sort())).toEqual([[a.id, b.id].sort(), [a.id, b.id].sort()]);
    // Someone with no row between them hears nothing.
    expect((await pullAll(stranger.client, snapStranger.cursor)).changes).toEqual([]);
  });

  it('pages with hasMore and a small limit, covering every change once', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const { cursor } = await pullAll(a.client);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push(await ping(b, a));

    const paged = await pullAll(a.client, cursor, 2);
    expect(paged.pages.length).toBe(3);
    expect(paged.pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    for (const p of paged.pages) expect(p.changes.length).toBeLessThanOrEqual(2);
    const cursors = paged.pages.map((p) => p.cursor);
    expect([...cursors].sort((x, y) => x - y)).toEqual(cursors);
    expect(paged.changes.map((c) => c.id)).toEqual(sent);

    // A snapshot in small pages holds exactly what one big page holds.
    const whole = await pullAll(a.client, undefined, 1000);
    const small = await pullAll(a.client, undefined, 3);
    expect(whole.pages.length).toBe(1);
    expect(small.pages.length).toBeGreaterThan(3);
    expect(small.pages.slice(0, -1).every((p) => p.hasMore && p.snapshot)).toBe(true);
    expect(small.pages.every((p) => p.reset && p.cursor === small.cursor)).toBe(true);
    expect(small.changes.map(key).sort()).toEqual(whole.changes.map(key).sort());
  });

  it('delivers after a snapshot what changed while it ran', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const firstPage = await a.client.get<PullResponse>('/api/sync/pull?limit=1');
    expect(firstPage.body).toMatchObject({ reset: true, hasMore: true });
    const during = await ping(b, a);
    let token = firstPage.body.snapshot;
    let last = firstPage.body;
    while (token) {
      last = (await a.client.get<PullResponse>(`/api/sync/pull?snapshot=${token}&limit=50`)).body;
      token = last.snapshot;
    }
    expect(last.cursor).toBe(firstPage.body.cursor);
    const after = await pullAll(a.client, last.cursor);
    expect(find(after, 'ping', during)?.op).toBe('upsert');
  });

  it('resets to a snapshot for an unknown or pruned cursor', async () => {
    const a = await makeUser(server);
    const { newest } = await logBounds(server.database.db, a.id);
    const future = await a.client.get<PullResponse>(`/api/sync/pull?since=${newest + 1000}`);
    expect(future.status).toBe(200);
    expect(future.body.reset).toBe(true);
    expect(future.body.cursor).toBe(newest);
    expect(future.body.changes.some((c) => c.entity === 'user' && c.id === a.id)).toBe(true);

    // Everything before now ages out of the log; a cursor from back then is no longer served.
    await server.database.db
      .updateTable('changes')
      .set({ createdAt: '2000-01-01T00:00:00.000Z' })
      .execute();
    await pruneChangeLog(server.database.db, 24 * 3600_000);
    const bounds = await logBounds(server.database.db, a.id);
    expect(bounds.floor).toBe(bounds.newest);
    const old = await a.client.get<PullResponse>('/api/sync/pull?since=1');
    expect(old.body.reset).toBe(true);
    const current = await a.client.get<PullResponse>(`/api/sync/pull?since=${bounds.newest}`);
    expect(current.body).toMatchObject({ reset: false, changes: [], cursor: bounds.newest });
  });

  it.each([
    ['since=-1', 'since'],
    ['since=abc', 'since'],
    ['limit=0', 'limit'],
    ['limit=100000', 'limit'],
    ['snapshot=not-a-token', null],
  ])('rejects %s with 400', async (query, field) => {
    const a = await makeUser(server);
    const res = await a.client.get(`/api/sync/pull?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    if (field) expect(res.body.issues[0].path).toEqual([field]);
  });
});

describe('POST /api/sync/batch', () => {
  async function pingsReceived(u: MadeUser): Promise<number> {
    return (await u.client.get('/api/pings/total-count')).body.count;
  }

  it('runs each entry as its REST call, in order; a 4xx answers itself and the rest still run', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const prompt = await defaultPrompt(a);
    const before = await pingsReceived(b);
    const batch = {
      entries: [
        {
          idempotencyKey: 'k1-' + a.id,
          method: 'POST',
          path: '/api/pings',
          body: { promptId: prompt.id, receiverId: b.id },
        },
        {
          idempotencyKey: 'k2-' + a.id,
          method: 'POST',
          path: '/api/pings',
          body: { promptId: 'not-an-id', receiverId: b.id },
        },
        {
          idempotencyKey: 'k3-' + a.id,
          method: 'POST',
          path: '/api/pings/custom',
          body: { receiverId: b.id, customText: 'Coffee?' },
        },
      ],
    };
    const res = await a.client.post('/api/sync/batch', batch);
    expect(res.status).toBe(200);
    const results = res.body.results;
    expect(results.map((r: { idempotencyKey: string }) => r.idempotencyKey)).toEqual(
      batch.entries.map((e) => e.idempotencyKey),
    );
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 400, 201]);
    expect(results[0].body).toMatchObject({ senderId: a.id, receiverId: b.id });
    expect(results[1].body).toMatchObject({
      code: 'validation_failed',
      error: 'Must be a valid id',
    });
    expect(results[2].body).toMatchObject({ customText: 'Coffee?' });
    expect(await pingsReceived(b)).toBe(before + 2);

    // Each write applied answers the caller's change number, in the pull's cursor space: a pull
    // from the first one's brings the second write and not the first; a refusal has none.
    expect(results[0].change).toEqual(expect.any(Number));
    expect(results[1].change).toBeUndefined();
    expect(results[2].change).toBeGreaterThan(results[0].change);
    const after = await a.client.get(`/api/sync/pull?since=${results[0].change}`);
    expect(after.body.changes.map((c: { id: string }) => c.id)).toEqual([results[2].body.id]);
    expect(after.body.cursor).toBe(results[2].change);

    // The response was lost: the device sends the same batch again. The stored answers come
    // back, without a change number (they were applied by the first request).
    const replay = await a.client.post('/api/sync/batch', batch);
    expect(replay.body.results).toEqual(
      results.map(({ change: _change, ...rest }: { change?: number }) => rest),
    );
    expect(await pingsReceived(b)).toBe(before + 2);

    // An entry sent over REST first and in a batch later is still one effect.
    const rest = await a.client.post(
      '/api/pings/custom',
      { receiverId: b.id, customText: 'Once' },
      { headers: { 'Idempotency-Key': 'k4-' + a.id } },
    );
    expect(rest.status).toBe(201);
    const later = await a.client.post('/api/sync/batch', {
      entries: [
        {
          idempotencyKey: 'k4-' + a.id,
          method: 'POST',
          path: '/api/pings/custom',
          body: { receiverId: b.id, customText: 'Once' },
        },
      ],
    });
    expect(later.body.results[0]).toMatchObject({ status: 201, body: { id: rest.body.id } });
    expect(await pingsReceived(b)).toBe(before + 3);
  });

  it('stops at a transient failure: later entries are not attempted (status 0)', async () => {
    // Two invite links a person may try per window: the third attempt is a transient 429.
    const tight = await startTestServer({ INVITE_USE_MAX_PER_USER: '2' });
    try {
      const a = await makeUser(tight);
      const b = await makeUser(tight);
      await makeFriends(a, b);
      for (let i = 0; i < 2; i++) {
        expect((await a.client.post('/api/invites/not-a-code/use', {})).status).toBe(404);
      }
      const ping = (n: number) => ({
        idempotencyKey: `transient-${n}-${a.id}`,
        name: 'ping.sendCustom',
        args: { receiverId: b.id, customText: `Message ${n}` },
      });
      const invite = {
        idempotencyKey: `transient-invite-${a.id}`,
        name: 'invite.use',
        args: { code: 'still-not-a-code' },
      };
      const res = await a.client.post('/api/sync/batch', { entries: [ping(1), invite, ping(2)] });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 429, 0]);
      expect(res.body.results[1].body).toMatchObject({ code: 'rate_limited' });
      expect(res.body.results[2].body).toMatchObject({ notAttempted: true });
      const received = await b.client.get('/api/pings/recent');
      expect(received.body.map((p: { customText: string }) => p.customText)).toEqual(['Message 1']);
    } finally {
      await tight.stop();
    }
  });

  it('takes only named mutations: sign-in and unknown names are that entry’s own refusal', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/sync/batch', {
      entries: [
        { idempotencyKey: `n1-${a.id}`, name: 'user.becomeAdmin', args: {} },
        {
          idempotencyKey: `n2-${a.id}`,
          method: 'POST',
          path: '/api/login',
          body: { email: a.email, password: a.password },
        },
        { idempotencyKey: `n3-${a.id}`, name: 'ping.markAllRead', args: [] },
        { idempotencyKey: `n4-${a.id}`, name: 'profile.update', args: { tagline: 'named' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([400, 404, 400, 200]);
    expect(res.body.results[0].body.error).toBe('Unknown mutation: user.becomeAdmin');
    expect(res.body.results[1].body.error).toBe('No such route: POST /api/login');
    expect(res.body.results[2].body.error).toBe('The arguments must be a JSON object');
    expect(res.body.results[3].body).toMatchObject({ tagline: 'named' });
  });

  it("treats a receiver's daily limit as final: the entries after it still run", async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    // B accepts one ping a day from each friend: A's second is refused for the day.
    expect((await b.client.put('/api/profile/update', { rateLimitPerDay: 1 })).status).toBe(200);
    const entry = (
      n: number,
      path = '/api/pings/custom',
      body: unknown = { receiverId: b.id, customText: `Message ${n}` },
    ) => ({
      idempotencyKey: `limit-${n}-${a.id}`,
      method: n === 3 ? ('PUT' as const) : ('POST' as const),
      path,
      body,
    });
    const res = await a.client.post('/api/sync/batch', {
      entries: [
        entry(1),
        entry(2),
        entry(3, '/api/profile/update', { tagline: 'after the limit' }),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 429, 200]);
    expect(res.body.results[1].body).toMatchObject({ code: 'daily_limit_reached' });
    expect(res.body.results[2].body).toMatchObject({ tagline: 'after the limit' });
    expect(await pingsReceived(b)).toBe(1);
  });

  it('refuses a nested batch as that entry’s own 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/sync/batch', {
      entries: [
        {
          idempotencyKey: 'nested-1',
          method: 'POST',
          path: '/api/Sync//Batch/?x=1',
          body: { entries: [] },
        },
        {
          idempotencyKey: 'nested-2',
          method: 'PUT',
          path: '/api/profile/update',
          body: { tagline: 'still runs' },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(res.body.results[1]).toMatchObject({ status: 200, body: { tagline: 'still runs' } });
  });

  it('needs a session and a valid list', async () => {
    const entry = { idempotencyKey: 'x', method: 'POST', path: '/api/logout' };
    expect((await server.client().post('/api/sync/batch', { entries: [entry] })).status).toBe(401);
    const a = await makeUser(server);
    const tooMany = await a.client.post('/api/sync/batch', {
      entries: Array.from({ length: 101 }, (_, i) => ({ ...entry, idempotencyKey: `x${i}` })),
    });
    expect(tooMany.status).toBe(400);
    const bad = await a.client.post('/api/sync/batch', {
      entries: [{ ...entry, method: 'GET' }],
    });
    expect(bad.status).toBe(400);
    const outside = await a.client.post('/api/sync/batch', {
      entries: [{ ...entry, path: '/elsewhere' }],
    });
    expect(outside.status).toBe(400);
  });
});

describe('guarantee 4: atomic acknowledgement', () => {
  it('commits a write, its idempotency record and its change rows together, or none of them', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const { db } = server.database;
    const prompt = await defaultPrompt(a);
    const pending = () => ({
      caller: a.id,
      key: `atomic-${a.id}`,
      requestHash: 'h',
      stored: false,
    });
    const heard: string[][] = [];
    const listener = (ids: string[]) => heard.push(ids);
    server.events.on('changed', listener);
    const fakeCtx = () =>
      ({ state: { idempotency: pending() }, events: server.events }) as unknown as Context;
    const pingId = '01900000-0000-7000-8000-00000000a70c';
    const write = (fail: boolean) =>
      mutate(fakeCtx(), db, async ({ trx, changes }) => {
        await trx
          .insertInto('pings')
          .values({
            id: pingId,
            senderId: a.id,
            receiverId: b.id,
            kind: 'prompt',
            promptId: prompt.id,
            promptText: prompt.text,
            promptEmoji: '💭',
            customText: null,
            customEmoji: null,
            anchorId: null,
            groupId: null,
            isRead: 0,
            readAt: null,
            createdAt: new Date().toISOString(),
          })
          .execute();
        await changes.record([a.id, b.id], 'ping', pingId);
        if (fail) throw new Error('killed half-way');
        return { status: 201, body: { id: pingId } };
      });
    const rowsFor = () =>
      db.selectFrom('changes').select('seq').where('entityId', '=', pingId).execute();

    await expect(write(true)).rejects.toThrow('killed half-way');
    expect(await db.selectFrom('pings').select('id').where('id', '=', pingId).execute()).toEqual(
      [],
    );
    expect(await rowsFor()).toEqual([]);
    expect(await findIdempotent(db, a.id, `atomic-${a.id}`)).toBeUndefined();
    expect(heard).toEqual([]);

    await write(false);
    expect(await rowsFor()).toHaveLength(2);
    expect(await findIdempotent(db, a.id, `atomic-${a.id}`)).toMatchObject({ status: 201 });
    // Announced only after the commit.
    expect(heard).toEqual([[a.id, b.id]]);
    server.events.off('changed', listener);
  });
});

describe('guarantee 8: convergence', () => {
  type Mirror = Map<string, string>;

  /** The device's side of the protocol: snapshot with mark-and-sweep, then deltas. */
  async function sync(client: Client, mirror: Mirror, cursor: number | undefined) {
    const seen = new Set<string>();
    let snapshot: string | null = null;
    let since = cursor;
    for (;;) {
      const q = new URLSearchParams({ limit: '7' });
      if (snapshot) q.set('snapshot', snapshot);
      else if (since !== undefined) q.set('since', String(since));
      const page = (await client.get<PullResponse>(`/api/sync/pull?${q}`)).body;
      for (const c of page.changes) {
        if (c.op === 'upsert') mirror.set(key(c), JSON.stringify(c.data));
        else mirror.delete(key(c));
        if (page.reset) seen.add(key(c));
      }
      since = page.cursor;
      snapshot = page.snapshot;
      if (!page.hasMore) {
        if (page.reset) for (const k of [...mirror.keys()]) if (!seen.has(k)) mirror.delete(k);
        return page.cursor;
      }
    }
  }

  const sorted = (m: Mirror) => new Map([...m].sort());

  async function truth(client: Client): Promise<Mirror> {
    const m: Mirror = new Map();
    await sync(client, m, undefined);
    return m;
  }

  it('keeps each device equal to what the server says its person may see, after random writes', async () => {
    const people = await Promise.all(
      ['Ann', 'Bob', 'Cy', 'Dee'].map((firstName) => makeUser(server, { firstName })),
    );
    const [a] = people as [MadeUser, ...MadeUser[]];
    // mulberry32: a seeded generator, so a failure replays the same way.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n) | 0;
    };
    const pick = () => people[rand(people.length)]!;
    // Two devices of A: one pulls after every write, one rarely (a partition), both from zero.
    const often: Mirror = new Map();
    const rarely: Mirror = new Map();
    let oftenCursor = await sync(a.client, often, undefined);
    let rarelyCursor = await sync(a.client, rarely, undefined);

    const done = new Map<string, number>();
    const count = (what: string, x: MadeUser, y: MadeUser) => {
      if (x === a || y === a) done.set(what, (done.get(what) ?? 0) + 1);
    };
    for (let step = 0; step < 300; step++) {
      // Half of the activity involves A, the rest happens around them.
      const x = rand(4) === 0 ? a : pick();
      const y = rand(3) === 0 ? a : pick();
      if (x === y) continue;
      const link = await findFriendshipBetween(server.database.db, x.id, y.id);
      switch (rand(6)) {
        case 0:
          if (!link) {
            await x.client.post('/api/friends/request', { friendId: y.id });
            count('request', x, y);
          } else if (link.status === 'pending' && link.addresseeId === x.id) {
            await x.client.post('/api/friends/accept', { requestId: link.id });
            count('accept', x, y);
          } else if (link.status === 'pending') {
            await x.client.post('/api/friends/reject', { requestId: link.id });
            count('withdraw', x, y);
          }
          break;
        case 1:
          if (link?.status === 'accepted') {
            await unfriend(x, y);
            count('unfriend', x, y);
          }
          break;
        case 2:
        case 3:
          if (link?.status === 'accepted') {
            const id = await ping(x, y);
            if (rand(2)) await y.client.post(`/api/pings/${id}/reactions`, { reactionType: 'yes' });
            count('ping', x, y);
          }
          break;
        case 4:
          if (link?.status === 'accepted') {
            await x.client.post('/api/moods', { friendId: y.id, mood: 'chill', emoji: '😌' });
            count('mood', x, y);
          }
          break;
        case 5:
          await x.client.put('/api/profile/update', { tagline: `step ${step}` });
          count('profile', x, y);
          // Someone whose card A shows (as a friend, or in a request) changed it.
          if (y === a && link) count(`${link.status} profile`, x, y);
          break;
      }
      // Whenever a device has caught up, it holds exactly what a fresh snapshot holds.
      oftenCursor = await sync(a.client, often, oftenCursor);
      expect(sorted(often)).toEqual(sorted(await truth(a.client)));
      if (rand(15) === 0) rarelyCursor = await sync(a.client, rarely, rarelyCursor);
    }
    oftenCursor = await sync(a.client, often, oftenCursor);
    rarelyCursor = await sync(a.client, rarely, rarelyCursor);

    const kinds = ['request', 'accept', 'withdraw', 'unfriend', 'ping', 'mood', 'profile'];
    for (const what of [...kinds, 'accepted profile', 'pending profile'])
      expect(done.get(what), what).toBeGreaterThan(0);
    const expected = await truth(a.client);
    expect(expected.size).toBeGreaterThan(10);
    expect(sorted(often)).toEqual(sorted(expected));
    expect(sorted(rarely)).toEqual(sorted(expected));
  });
});
