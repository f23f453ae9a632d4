import { randomUUID } from 'node:crypto';
import { uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  pullAll,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { loadAnchors, visibleAnchorIds } from '../db/anchors';
import { isUniqueViolation } from '../db/dialect';
import { ANCHOR_MESSAGES } from '../mutations/anchors';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function friends(n: number): Promise<MadeUser[]> {
  const people = await Promise.all(Array.from({ length: n }, () => makeUser(server)));
  return people;
}

async function changeRows(entityId: string) {
  return server.database.db
    .selectFrom('changes')
    .select(['userId', 'entity', 'op'])
    .where('entityId', '=', entityId)
    .execute();
}

async function anchorRowCount() {
  const r = await server.database.db
    .selectFrom('anchors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const ask = (from: MadeUser, to: MadeUser, extra: Record<string, unknown> = {}, key?: string) =>
  from.client.post(
    '/api/profile/anchors',
    { friendId: to.id, text: 'Ping me when you miss me', ...extra },
    key ? { headers: { 'Idempotency-Key': key } } : {},
  );

describe('anchors: signed out', () => {
  it.each([
    ['GET', '/api/profile/anchors'],
    ['POST', '/api/profile/anchors'],
    ['GET', '/api/profile/anchors/requests'],
    ['GET', '/api/profile/anchors/requests/sent'],
    ['PATCH', `/api/profile/anchors/${uuidv7()}/respond`],
    ['DELETE', `/api/profile/anchors/${uuidv7()}`],
  ])('%s %s is 401 Unauthorized', async (method, path) => {
    const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('POST /api/profile/anchors', () => {
  it('asks a friend: a pending request both sides see, the friend poked', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const poked: string[][] = [];
    const listener = (userIds: string[]) => poked.push(userIds);
    server.events.on('changed', listener);
    const res = await ask(a!, b!, { label: 'Chai buddy' });
    server.events.off('changed', listener);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: a!.id,
      friendId: b!.id,
      text: 'Ping me when you miss me',
      emoji: '⚓',
      color: '#e35120',
      label: 'Chai buddy',
      status: 'pending',
      respondedAt: null,
      autoAccepted: false,
      user: { id: a!.id, firstName: a!.user.firstName, email: a!.email },
      friend: { id: b!.id, firstName: b!.user.firstName, email: b!.email },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(poked.flat()).toContain(b!.id);

    const received = await b!.client.get('/api/profile/anchors/requests');
    expect(received.body.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
    // The label is A's own name for B: B never sees it (issue 15, item 7), in any answer.
    expect(received.body[0].label).toBeNull();
    const pulledByB = await pullAll(b!.client);
    const anchorForB = pulledByB.changes.find((c) => c.id === res.body.id)!.data as {
      label: string | null;
    };
    expect(anchorForB.label).toBeNull();
    const pulledByA = await pullAll(a!.client);
    expect(
      (pulledByA.changes.find((c) => c.id === res.body.id)!.data as { label: string | null }).label,
    ).toBe('Chai buddy');
    const sent = await a!.client.get('/api/profile/anchors/requests/sent');
    expect(sent.body.map((x: { id: string }) => x.id)).toEqual([res.body.id]);
    expect((await a!.client.get('/api/profile/anchors/requests')).body).toEqual([]);
    expect((await b!.client.get('/api/profile/anchors/requests/sent')).body).toEqual([]);
    // Not accepted yet: no active anchors.
    expect((await a!.client.get('/api/profile/anchors')).body).toEqual([]);

    const rows = await changeRows(res.body.id);
    expect(rows.map((r) => r.userId).sort()).toEqual([a!.id, b!.id].sort());
    expect(rows.every((r) => r.entity === 'anchor' && r.op === 'upsert')).toBe(true);
  });

  it('keeps the emoji and colour it is given, and the client id', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const id = uuidv7();
    const res = await ask(a!, b!, { id, emoji: '☕', color: '#00AA11' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, emoji: '☕', color: '#00AA11', label: null });
  });

  it.each([
    [{}, 'Please enter an anchor ping message.'],
    [{ text: '' }, 'Please enter an anchor ping message.'],
    [{ text: '   ' }, 'Please enter an anchor ping message.'],
    [{ text: 42 }, 'Please enter an anchor ping message.'],
    [{ text: 'x'.repeat(101) }, 'Anchor messages must be at most 100 characters'],
    [{ text: 'ok', color: 'red' }, 'Colour must look like #e35120'],
    [{ text: 'ok', emoji: '🎉🎉🎉🎉🎉' }, 'Emoji must be at most 4 characters'],
    [{ text: 'ok', label: 'x'.repeat(41) }, 'Too big: expected string to have <=40 characters'],
    [{ text: 'ok', status: 'accepted' }, 'Unknown field: status'],
    [{ text: 'ok', id: 'not-an-id' }, 'Must be a valid id'],
  ])('rejects %j with "%s"', async (extra, message) => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const res = await a!.client.post('/api/profile/anchors', { friendId: b!.id, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
  });

  it('rejects a bad friend id and a body that is not JSON with 400, never 500', async () => {
    const a = await makeUser(server);
    const bad = await a.client.post('/api/profile/anchors', { friendId: 'x', text: 'hi' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Must be a valid id');
    const raw = await a.client.request('POST', '/api/profile/anchors', undefined, {
      raw: '{"friendId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    const arr = await a.client.post('/api/profile/anchors', [1, 2]);
    expect(arr.status).toBe(400);
  });

  it('only works with a friend: strangers, yourself and unknown people are 403', async () => {
    const [a, stranger] = await friends(2);
    for (const friendId of [stranger!.id, a!.id, randomUUID()]) {
      const res = await a!.client.post('/api/profile/anchors', { friendId, text: 'hi' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(ANCHOR_MESSAGES.notFriends);
    }
    expect((await stranger!.client.get('/api/profile/anchors/requests')).body).toEqual([]);
  });

  it('allows one anchor per pair: asking again while pending or accepted is 409', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const first = await ask(a!, b!);
    expect(first.status).toBe(201);
    const again = await ask(a!, b!, { text: 'Another one' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(ANCHOR_MESSAGES.alreadyAsked(b!.user.firstName + ' Test'));

    const ok = await b!.client.patch(`/api/profile/anchors/${first.body.id}/respond`, {
      response: 'accept',
    });
    expect(ok.status).toBe(200);
    for (const [from, to] of [
      [a!, b!],
      [b!, a!],
    ] as const) {
      const res = await ask(from, to);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/^You already have an anchor with /);
    }
  });

  it('auto-accepts when the friend had already asked you', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const theirs = await ask(b!, a!, { text: 'Ping me when you need me', emoji: '🫂' });
    expect(theirs.status).toBe(201);

    const res = await ask(a!, b!, { text: 'Something else' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: theirs.body.id,
      userId: b!.id,
      friendId: a!.id,
      text: 'Ping me when you need me',
      status: 'accepted',
      autoAccepted: true,
    });
    expect(res.body.respondedAt).toBeTruthy();
    for (const p of [a!, b!]) {
      const list = await p.client.get('/api/profile/anchors');
      expect(list.body.map((x: { id: string }) => x.id)).toEqual([theirs.body.id]);
      expect((await p.client.get('/api/profile/anchors/requests')).body).toEqual([]);
      expect((await p.client.get('/api/profile/anchors/requests/sent')).body).toEqual([]);
    }
    // One row for the pair, recorded for both people twice (asked, then accepted).
    const rows = await changeRows(theirs.body.id);
    expect(rows.filter((r) => r.userId === a!.id)).toHaveLength(2);
    expect(rows.filter((r) => r.userId === b!.id)).toHaveLength(2);
  });

  it('lets a declined anchor be asked again', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const first = await ask(a!, b!);
    const no = await b!.client.patch(`/api/profile/anchors/${first.body.id}/respond`, {
      response: 'decline',
    });
    expect(no.status).toBe(200);
    expect(no.body).toMatchObject({ id: first.body.id, status: 'declined' });
    expect((await b!.client.get('/api/profile/anchors/requests')).body).toEqual([]);
    expect((await a!.client.get('/api/profile/anchors')).body).toEqual([]);

    const again = await ask(a!, b!, { text: 'Please?' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.status).toBe('pending');
    const pending = await b!.client.get('/api/profile/anchors/requests');
    expect(pending.body.map((x: { id: string }) => x.id)).toEqual([again.body.id]);

    // The friend who declined may also ask themselves.
    const [c, d] = await friends(2);
    await makeFriends(c!, d!);
    const cd = await ask(c!, d!);
    await d!.client.patch(`/api/profile/anchors/${cd.body.id}/respond`, { response: 'decline' });
    const dc = await ask(d!, c!);
    expect(dc.status).toBe(201);
    expect(dc.body.autoAccepted).toBe(false);
  });

  it('limits everyone to 5 anchors, counting pending and accepted ones', async () => {
    const me = await makeUser(server);
    const others = await friends(7);
    for (const o of others) await makeFriends(me, o);
    // Two accepted (one each way), three pending from me.
    const a0 = await ask(me, others[0]!);
    await others[0]!.client.patch(`/api/profile/anchors/${a0.body.id}/respond`, {
      response: 'accept',
    });
    const a1 = await ask(others[1]!, me);
    await me.client.patch(`/api/profile/anchors/${a1.body.id}/respond`, { response: 'accept' });
    for (const o of others.slice(2, 5)) expect((await ask(me, o)).status).toBe(201);

    const sixth = await ask(me, others[5]!);
    expect(sixth.status).toBe(409);
    expect(sixth.body.error).toBe('You can have at most 5 anchors');
    // Nobody can push me past 5 by asking me either.
    const theirs = await ask(others[6]!, me);
    expect(theirs.status).toBe(409);
    expect(theirs.body.error).toBe(ANCHOR_MESSAGES.friendLimit(`${me.user.firstName} Test`));
    const before = await anchorRowCount();
    expect((await ask(me, others[5]!)).status).toBe(409);
    expect(await anchorRowCount()).toBe(before);

    // A declined request frees its place.
    const pending = (await me.client.get('/api/profile/anchors/requests/sent')).body;
    const declined = pending.find((p: { friendId: string }) => p.friendId === others[2]!.id);
    await others[2]!.client.patch(`/api/profile/anchors/${declined.id}/respond`, {
      response: 'decline',
    });
    expect((await ask(me, others[5]!)).status).toBe(201);
    expect((await me.client.get('/api/profile/anchors')).body).toHaveLength(2);
  });

  it('replays an Idempotency-Key: one row, the same answer, Idempotent-Replayed', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const before = await anchorRowCount();
    const first = await ask(a!, b!, {}, 'anchor-create-1');
    const second = await ask(a!, b!, {}, 'anchor-create-1');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await anchorRowCount()).toBe(before + 1);
    expect((await ask(a!, b!, { text: 'other' }, 'anchor-create-1')).status).toBe(422);
  });

  it('treats a repeated create with the same id as the same anchor (200, nothing new)', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const id = uuidv7();
    const first = await ask(a!, b!, { id });
    const again = await ask(a!, b!, { id });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Someone else cannot take that id.
    const [c, d] = await friends(2);
    await makeFriends(c!, d!);
    const taken = await ask(c!, d!, { id });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(ANCHOR_MESSAGES.idTaken);
  });
});

describe('PATCH /api/profile/anchors/{id}/respond', () => {
  it('accepts: both people see the anchor, with change-log rows for both', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const req = await ask(a!, b!);
    const res = await b!.client.patch(`/api/profile/anchors/${req.body.id}/respond`, {
      response: 'accept',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: req.body.id, status: 'accepted' });
    expect(res.body).not.toHaveProperty('autoAccepted');
    for (const p of [a!, b!]) {
      const list = await p.client.get('/api/profile/anchors');
      expect(list.body).toEqual([res.body]);
    }
    const rows = await changeRows(req.body.id);
    expect(rows.filter((r) => r.userId === b!.id)).toHaveLength(2);
    expect(rows.filter((r) => r.userId === a!.id)).toHaveLength(2);
  });

  it('only the receiver answers: the sender is 403, a stranger and an unknown id 404', async () => {
    const [a, b, stranger] = await friends(3);
    await makeFriends(a!, b!);
    await makeFriends(a!, stranger!);
    const req = await ask(a!, b!);
    const path = `/api/profile/anchors/${req.body.id}/respond`;
    const bySender = await a!.client.patch(path, { response: 'accept' });
    expect(bySender.status).toBe(403);
    expect(bySender.body.error).toBe(ANCHOR_MESSAGES.onlyReceiver);
    const byStranger = await stranger!.client.patch(path, { response: 'accept' });
    expect(byStranger.status).toBe(404);
    const unknown = await b!.client.patch(`/api/profile/anchors/${uuidv7()}/respond`, {
      response: 'accept',
    });
    expect(unknown.status).toBe(404);
    // Still pending, and the stranger sees none of it.
    expect((await b!.client.get('/api/profile/anchors/requests')).body).toHaveLength(1);
    expect((await stranger!.client.get('/api/profile/anchors')).body).toEqual([]);
    expect((await stranger!.client.get('/api/profile/anchors/requests')).body).toEqual([]);
  });

  it('answering twice is 409', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const req = await ask(a!, b!);
    const path = `/api/profile/anchors/${req.body.id}/respond`;
    expect((await b!.client.patch(path, { response: 'decline' })).status).toBe(200);
    for (const response of ['accept', 'decline']) {
      const res = await b!.client.patch(path, { response });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('This anchor request was already answered');
    }
  });

  it.each([
    [{}, "Response must be 'accept' or 'decline'"],
    [{ response: 'maybe' }, "Response must be 'accept' or 'decline'"],
    [{ response: 'accept', extra: 1 }, 'Unknown field: extra'],
  ])('rejects %j with "%s"', async (body, message) => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const req = await ask(a!, b!);
    const res = await b!.client.patch(`/api/profile/anchors/${req.body.id}/respond`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('rejects an id that is not one with 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.patch('/api/profile/anchors/nope/respond', { response: 'accept' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Must be a valid id');
  });

  it('replays an Idempotency-Key for an answer', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const req = await ask(a!, b!);
    const path = `/api/profile/anchors/${req.body.id}/respond`;
    const headers = { 'Idempotency-Key': 'respond-1' };
    const first = await b!.client.patch(path, { response: 'accept' }, { headers });
    const second = await b!.client.patch(path, { response: 'accept' }, { headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await changeRows(req.body.id)).toHaveLength(4);
  });
});

describe('DELETE /api/profile/anchors/{id}', () => {
  it('either person unpins an accepted anchor: gone for both, with a tombstone each', async () => {
    for (const remover of ['asker', 'friend'] as const) {
      const [a, b] = await friends(2);
      await makeFriends(a!, b!);
      const id = (await ask(a!, b!)).body.id as string;
      expect(
        (await b!.client.patch(`/api/profile/anchors/${id}/respond`, { response: 'accept' }))
          .status,
      ).toBe(200);
      const who = remover === 'asker' ? a! : b!;
      const res = await who.client.del(`/api/profile/anchors/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await a!.client.get('/api/profile/anchors')).body).toEqual([]);
      expect((await b!.client.get('/api/profile/anchors')).body).toEqual([]);
      const rows = await changeRows(id);
      expect(
        rows
          .filter((r) => r.op === 'delete')
          .map((r) => r.userId)
          .sort(),
      ).toEqual([a!.id, b!.id].sort());
      // Anchored again later, as a new anchor.
      expect((await ask(a!, b!)).status).toBe(201);
    }
  });

  it('the asker withdraws a pending request; the person asked answers it instead (403)', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const id = (await ask(a!, b!)).body.id as string;
    const byFriend = await b!.client.del(`/api/profile/anchors/${id}`);
    expect(byFriend.status).toBe(403);
    expect(byFriend.body.error).toBe(ANCHOR_MESSAGES.useRespond);
    expect((await b!.client.get('/api/profile/anchors/requests')).body).toHaveLength(1);
    expect((await a!.client.del(`/api/profile/anchors/${id}`)).status).toBe(200);
    expect((await b!.client.get('/api/profile/anchors/requests')).body).toEqual([]);
  });

  it('is 404 for a stranger, an unknown id and a declined anchor; 400 for a malformed id', async () => {
    const [a, b, stranger] = await friends(3);
    await makeFriends(a!, b!);
    const id = (await ask(a!, b!)).body.id as string;
    const before = await anchorRowCount();
    for (const res of [
      await stranger!.client.del(`/api/profile/anchors/${id}`),
      await a!.client.del(`/api/profile/anchors/${uuidv7()}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(ANCHOR_MESSAGES.notFound);
    }
    await b!.client.patch(`/api/profile/anchors/${id}/respond`, { response: 'decline' });
    expect((await a!.client.del(`/api/profile/anchors/${id}`)).status).toBe(404);
    expect((await a!.client.del('/api/profile/anchors/not-an-id')).status).toBe(400);
    expect(await anchorRowCount()).toBe(before);
  });
});

describe('anchors_active_pair index', () => {
  it('refuses a second pending-or-accepted anchor for a pair, whoever asked, but not a declined one', async () => {
    const [a, b] = await friends(2);
    await makeFriends(a!, b!);
    const first = await ask(a!, b!);
    const row = (userId: string, friendId: string, status: 'pending' | 'declined') => ({
      id: uuidv7(),
      userId,
      friendId,
      label: null,
      text: 'x',
      emoji: '⚓',
      color: '#e35120',
      status,
      createdAt: new Date().toISOString(),
      respondedAt: null,
    });
    const db = server.database.db;
    await expect(
      db
        .insertInto('anchors')
        .values(row(b!.id, a!.id, 'pending'))
        .execute(),
    ).rejects.toSatisfy(isUniqueViolation);
    await db
      .insertInto('anchors')
      .values(row(b!.id, a!.id, 'declined'))
      .execute();
    expect(first.status).toBe(201);
  });
});

describe('sync loaders', () => {
  it('loadAnchors and visibleAnchorIds show an anchor only to its two people', async () => {
    const [a, b, c] = await friends(3);
    await makeFriends(a!, b!);
    const one = await ask(a!, b!);
    const db = server.database.db;
    expect((await loadAnchors(db, a!.id, [one.body.id]))[0]).toMatchObject({
      id: one.body.id,
      status: 'pending',
    });
    expect(await loadAnchors(db, b!.id, [one.body.id, uuidv7()])).toHaveLength(1);
    expect(await loadAnchors(db, c!.id, [one.body.id])).toEqual([]);
    expect(await loadAnchors(db, a!.id, [])).toEqual([]);
    expect(await visibleAnchorIds(db, b!.id, undefined, 10)).toEqual([one.body.id]);
    expect(await visibleAnchorIds(db, b!.id, one.body.id, 10)).toEqual([]);
    expect(await visibleAnchorIds(db, c!.id, undefined, 10)).toEqual([]);
  });
});
