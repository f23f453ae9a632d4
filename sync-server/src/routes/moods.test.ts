import { randomUUID } from 'node:crypto';
import { MOODS, uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { loadMoods, visibleMoodIds } from '../db/moods';
import { MOOD_MESSAGES } from '../mutations/moods';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function pair(): Promise<[MadeUser, MadeUser]> {
  const a = await makeUser(server);
  const b = await makeUser(server);
  await makeFriends(a, b);
  return [a, b];
}

async function moodCount() {
  const r = await server.database.db
    .selectFrom('moods')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const share = (from: MadeUser, to: MadeUser, extra: Record<string, unknown> = {}, key?: string) =>
  from.client.post(
    '/api/moods',
    { friendId: to.id, mood: 'happy', emoji: '😊', ...extra },
    key ? { headers: { 'Idempotency-Key': key } } : {},
  );

describe('moods: signed out', () => {
  it.each([
    ['POST', '/api/moods'],
    ['GET', `/api/moods/${uuidv7()}/latest`],
  ])('%s %s is 401 Unauthorized', async (method, path) => {
    const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('POST /api/moods', () => {
  it('shares a mood with a friend, who then reads it as the latest; change rows for both', async () => {
    const [a, b] = await pair();
    const res = await share(a, b, { mood: 'grateful', emoji: '🙏', note: '  Thanks for today ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: a.id,
      friendId: b.id,
      mood: 'grateful',
      emoji: '🙏',
      note: 'Thanks for today',
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const latest = await b.client.get(`/api/moods/${a.id}/latest`);
    expect(latest.status).toBe(200);
    expect(latest.body).toEqual(res.body);

    const rows = await server.database.db
      .selectFrom('changes')
      .select(['userId', 'entity', 'op'])
      .where('entityId', '=', res.body.id)
      .execute();
    expect(rows.map((r) => r.userId).sort()).toEqual([a.id, b.id].sort());
    expect(rows.every((r) => r.entity === 'mood' && r.op === 'upsert')).toBe(true);
  });

  it('accepts every one of the 24 moods, a null note and a client id', async () => {
    const [a, b] = await pair();
    for (const mood of MOODS) expect((await share(a, b, { mood, note: null })).status).toBe(201);
    const id = uuidv7();
    const res = await share(a, b, { id, mood: 'mischievous' });
    expect(res.body).toMatchObject({ id, note: null });
  });

  it.each([
    [{ mood: undefined }, 'Please select a mood to share'],
    [{ mood: '' }, 'Please select a mood to share'],
    [{ mood: 'hangry' }, 'Please select a mood to share'],
    [{ note: 'x'.repeat(201) }, 'Notes must be at most 200 characters'],
    [{ emoji: '😀😀😀😀😀' }, 'Emoji must be at most 4 characters'],
    [{ friendId: 'nope' }, 'Must be a valid id'],
    [{ visibleTo: 'everyone' }, 'Unknown field: visibleTo'],
    [{ id: 12 }, 'Must be a valid id'],
  ])('rejects %j with "%s" and stores nothing', async (extra, message) => {
    const [a, b] = await pair();
    const before = await moodCount();
    const res = await share(a, b, extra);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
    expect(await moodCount()).toBe(before);
  });

  it('rejects a missing emoji and a body that is not JSON with 400, never 500', async () => {
    const [a, b] = await pair();
    const noEmoji = await a.client.post('/api/moods', { friendId: b.id, mood: 'happy' });
    expect(noEmoji.status).toBe(400);
    const raw = await a.client.request('POST', '/api/moods', undefined, {
      raw: 'mood=happy',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe('malformed_json');
  });

  it('is only for friends: a stranger, yourself or an unknown person is 403', async () => {
    const a = await makeUser(server);
    const stranger = await makeUser(server);
    for (const friendId of [stranger.id, a.id, randomUUID()]) {
      const res = await a.client.post('/api/moods', { friendId, mood: 'happy', emoji: '😊' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(MOOD_MESSAGES.notFriends);
    }
  });

  it('replays an Idempotency-Key: one row, the same answer, Idempotent-Replayed', async () => {
    const [a, b] = await pair();
    const before = await moodCount();
    const first = await share(a, b, { mood: 'cozy' }, 'mood-key-1');
    const second = await share(a, b, { mood: 'cozy' }, 'mood-key-1');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await moodCount()).toBe(before + 1);
    expect((await share(a, b, { mood: 'busy' }, 'mood-key-1')).status).toBe(422);
  });

  it('treats a repeated create with the same id as the same mood; another author cannot reuse it', async () => {
    const [a, b] = await pair();
    const id = uuidv7();
    const first = await share(a, b, { id });
    const again = await share(a, b, { id });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const taken = await share(b, a, { id });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(MOOD_MESSAGES.idTaken);
  });
});

describe('GET /api/moods/{friendId}/latest', () => {
  it('answers the newest mood that friend shared with you, and null when there is none', async () => {
    const [a, b] = await pair();
    const none = await b.client.get(`/api/moods/${a.id}/latest`);
    expect(none.status).toBe(200);
    expect(none.text).toBe('null');
    expect(none.headers.get('content-type')).toMatch(/application\/json/);

    await share(a, b, { mood: 'tired' });
    const newest = await share(a, b, { mood: 'excited' });
    // What b shares with a is not "a's latest mood" for b.
    await share(b, a, { mood: 'sleepy' });
    const latest = await b.client.get(`/api/moods/${a.id}/latest`);
    expect(latest.body).toEqual(newest.body);
    const back = await a.client.get(`/api/moods/${b.id}/latest`);
    expect(back.body.mood).toBe('sleepy');
  });

  it('never shows a mood shared with someone else, and is 404 for a non-friend', async () => {
    const [a, b] = await pair();
    const c = await makeUser(server);
    await makeFriends(a, c);
    await share(a, b, { mood: 'romantic' });
    // c is a's friend, but a shared nothing with c.
    const forC = await c.client.get(`/api/moods/${a.id}/latest`);
    expect(forC.status).toBe(200);
    expect(forC.body).toBeNull();
    // c is not b's friend.
    const notFriend = await c.client.get(`/api/moods/${b.id}/latest`);
    expect(notFriend.status).toBe(404);
    expect(notFriend.body.error).toBe(MOOD_MESSAGES.friendNotFound);
    expect((await a.client.get(`/api/moods/${a.id}/latest`)).status).toBe(404);
    expect((await a.client.get(`/api/moods/${randomUUID()}/latest`)).status).toBe(404);
  });

  it('rejects an id that is not one with 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/moods/not-an-id/latest');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Must be a valid id');
  });
});

describe('sync loaders', () => {
  it('loadMoods and visibleMoodIds show a mood only to its sharer and its friend', async () => {
    const [a, b] = await pair();
    const c = await makeUser(server);
    const m = await share(a, b);
    const db = server.database.db;
    expect(await loadMoods(db, a.id, [m.body.id])).toEqual([m.body]);
    expect(await loadMoods(db, b.id, [m.body.id, uuidv7()])).toEqual([m.body]);
    expect(await loadMoods(db, c.id, [m.body.id])).toEqual([]);
    expect(await loadMoods(db, c.id, [])).toEqual([]);
    expect(await visibleMoodIds(db, b.id, undefined, 10)).toEqual([m.body.id]);
    expect(await visibleMoodIds(db, a.id, m.body.id, 10)).toEqual([]);
    expect(await visibleMoodIds(db, c.id, undefined, 10)).toEqual([]);
  });
});
