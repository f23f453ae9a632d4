import { randomUUID } from 'node:crypto';
import { uuidv7 } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { loadPrompts, visiblePromptIds } from '../db/prompts';
import { DEFAULT_PROMPTS } from '../db/migrations/003-default-prompts';

let server: TestServer;
let alice: MadeUser;
let bob: MadeUser;
let carol: MadeUser;
let eve: MadeUser; // a stranger to everyone

beforeAll(async () => {
  server = await startTestServer();
  alice = await makeUser(server, { firstName: 'Alice' });
  bob = await makeUser(server, { firstName: 'Bob' });
  carol = await makeUser(server, { firstName: 'Carol' });
  eve = await makeUser(server, { firstName: 'Eve' });
  await makeFriends(alice, bob);
  await makeFriends(carol, bob);
});
afterAll(() => server.stop());

const db = () => server.database.db;
const FIRST_DEFAULT = '00000000-0000-7000-8000-000000000001';

async function promptRows(ownerId: string) {
  return db().selectFrom('prompts').selectAll().where('ownerId', '=', ownerId).execute();
}

async function changesFor(userId: string, entityId: string) {
  return db()
    .selectFrom('changes')
    .select(['userId', 'entity', 'op'])
    .where('entityId', '=', entityId)
    .where('userId', '=', userId)
    .orderBy('seq')
    .execute();
}

async function createPrompt(u: MadeUser, text: string, emoji?: string) {
  const res = await u.client.post('/api/prompts', { text, ...(emoji ? { emoji } : {}) });
  expect(res.status).toBe(201);
  return res.body;
}

describe('GET /api/prompts/default', () => {
  it('answers at least 12 seeded prompts with stable ids, in position order', async () => {
    const res = await alice.client.get('/api/prompts/default');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(12);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(DEFAULT_PROMPTS.map((p) => p.id));
    expect(res.body[0]).toEqual({
      id: FIRST_DEFAULT,
      text: 'Ping me when you need a hug',
      emoji: '🤗',
      isDefault: true,
      ownerId: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      assignments: [],
    });
    const texts = res.body.map((p: { text: string }) => p.text);
    expect(texts).toContain("Ping me when you're proud of something");
    expect(texts).toContain('Ping me when you miss me');
    const pingMeWhen = texts.filter((t: string) => t.startsWith('Ping me when '));
    expect(pingMeWhen.length).toBeGreaterThan(texts.length / 2);
    for (const p of res.body) expect(p.emoji.length).toBeGreaterThan(0);
  });

  it('is the same for everyone and holds no custom prompts', async () => {
    await createPrompt(bob, 'Ping me when Bob-only');
    const a = await alice.client.get('/api/prompts/default');
    const b = await bob.client.get('/api/prompts/default');
    expect(b.body).toEqual(a.body);
    expect(a.body.some((p: { text: string }) => p.text.includes('Bob-only'))).toBe(false);
  });

  it('is 401 signed out', async () => {
    const res = await server.client().get('/api/prompts/default');
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('POST /api/prompts', () => {
  it('creates a custom prompt with the client id, trimmed text and the default emoji', async () => {
    const id = uuidv7();
    const res = await alice.client.post('/api/prompts', { id, text: '  Ping me when it rains  ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id,
      text: 'Ping me when it rains',
      emoji: '💭',
      isDefault: false,
      ownerId: alice.id,
      assignments: [],
    });
    expect(await changesFor(alice.id, id)).toEqual([
      { userId: alice.id, entity: 'prompt', op: 'upsert' },
    ]);
    expect(await changesFor(bob.id, id)).toEqual([]);
  });

  it('makes a UUIDv7 when the client sends none, and keeps the emoji given', async () => {
    const res = await alice.client.post('/api/prompts', { text: 'Ping me at dawn', emoji: '🌅' });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
    expect(res.body.emoji).toBe('🌅');
  });

  it('lists the caller’s own custom prompts newest first in GET /api/prompts/user', async () => {
    const u = await makeUser(server);
    const first = await createPrompt(u, 'first');
    const second = await createPrompt(u, 'second');
    const res = await u.client.get('/api/prompts/user');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    const others = await eve.client.get('/api/prompts/user');
    expect(others.body.some((p: { id: string }) => p.id === first.id)).toBe(false);
    expect((await server.client().get('/api/prompts/user')).status).toBe(401);
  });

  it.each([
    [{}, 'Please enter a prompt text'],
    [{ text: '   ' }, 'Please enter a prompt text'],
    [{ text: 42 }, 'Please enter a prompt text'],
    [{ text: null }, 'Please enter a prompt text'],
    [{ text: 'x'.repeat(101) }, 'Prompt text must be at most 100 characters'],
    [{ text: 'ok', emoji: '🎉🎉🎉🎉🎉' }, 'Emoji must be at most 4 characters'],
    [{ text: 'ok', emoji: 7 }, undefined],
    [{ text: 'ok', id: 'not-a-uuid' }, 'Must be a valid id'],
    [{ text: 'ok', id: 12 }, 'Must be a valid id'],
    [{ text: 'ok', isDefault: true }, 'Unknown field: isDefault'],
    [{ text: 'ok', ownerId: randomUUID() }, 'Unknown field: ownerId'],
  ])('rejects %j with 400 and writes nothing', async (body, message) => {
    const u = await makeUser(server);
    const res = await u.client.post('/api/prompts', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    if (message) expect(res.body.error).toBe(message);
    expect(await promptRows(u.id)).toHaveLength(0);
  });

  it('rejects huge strings with 400, and a body over 64 KB with 413, writing nothing', async () => {
    const u = await makeUser(server);
    const long = await u.client.post('/api/prompts', { text: 'x'.repeat(50_000) });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Prompt text must be at most 100 characters');
    const emoji = await u.client.post('/api/prompts', { text: 'ok', emoji: '🎉'.repeat(10_000) });
    expect(emoji.status).toBe(400);
    const id = await u.client.post('/api/prompts', { text: 'ok', id: 'f'.repeat(60_000) });
    expect(id.body.error).toBe('Must be a valid id');
    const tooBig = await u.client.post('/api/prompts', { text: 'x'.repeat(70 * 1024) });
    expect(tooBig.status).toBe(413);
    expect(await promptRows(u.id)).toHaveLength(0);
  });

  it('rejects a body that is not a JSON object with 400', async () => {
    for (const raw of ['[1,2]', '"text"', '{"text":', 'null']) {
      const res = await alice.client.post('/api/prompts', undefined, {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    }
  });

  it('is 401 signed out', async () => {
    const res = await server.client().post('/api/prompts', { text: 'hello' });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('replays an Idempotency-Key: one row, the same body, Idempotent-Replayed', async () => {
    const u = await makeUser(server);
    const headers = { 'Idempotency-Key': `k-${randomUUID()}` };
    const one = await u.client.post('/api/prompts', { text: 'once' }, { headers });
    const two = await u.client.post('/api/prompts', { text: 'once' }, { headers });
    expect(one.status).toBe(201);
    expect(two.status).toBe(201);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    expect(await promptRows(u.id)).toHaveLength(1);
  });

  it('answers the stored prompt with 200 when the same client id arrives again', async () => {
    const u = await makeUser(server);
    const id = uuidv7();
    const one = await u.client.post('/api/prompts', { id, text: 'same id' });
    const two = await u.client.post('/api/prompts', { id, text: 'same id' });
    expect(one.status).toBe(201);
    expect(two.status).toBe(200);
    expect(two.body).toEqual(one.body);
    expect(await promptRows(u.id)).toHaveLength(1);
    expect((await changesFor(u.id, id)).length).toBe(1);
  });

  it('is 409 for an id that belongs to someone else or to a default prompt', async () => {
    const mine = await createPrompt(alice, 'alice owns this');
    const stolen = await eve.client.post('/api/prompts', { id: mine.id, text: 'hijack' });
    expect(stolen.status).toBe(409);
    const def = await eve.client.post('/api/prompts', { id: FIRST_DEFAULT, text: 'hijack' });
    expect(def.status).toBe(409);
    const [row] = await db().selectFrom('prompts').selectAll().where('id', '=', mine.id).execute();
    expect(row?.text).toBe('alice owns this');
    expect(await promptRows(eve.id)).toHaveLength(0);
  });
});

describe('PUT /api/prompts/{id}', () => {
  it('lets the owner edit text and emoji', async () => {
    const p = await createPrompt(alice, 'before', '🌧️');
    const res = await alice.client.put(`/api/prompts/${p.id}`, { text: ' after ', emoji: '☀️' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, text: 'after', emoji: '☀️', isDefault: false });
    expect(res.body.updatedAt >= p.updatedAt).toBe(true);
    const reset = await alice.client.put(`/api/prompts/${p.id}`, { text: 'after' });
    expect(reset.body.emoji).toBe('💭');
    expect((await changesFor(alice.id, p.id)).length).toBe(3);
  });

  it('answers 403 "Default prompts cannot be edited" for a default prompt', async () => {
    const res = await alice.client.put(`/api/prompts/${FIRST_DEFAULT}`, { text: 'mine now' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Default prompts cannot be edited');
    const [row] = await db()
      .selectFrom('prompts')
      .select('text')
      .where('id', '=', FIRST_DEFAULT)
      .execute();
    expect(row?.text).toBe('Ping me when you need a hug');
  });

  it('is 404 for someone else’s prompt and for an unknown id', async () => {
    const p = await createPrompt(alice, 'not yours');
    const res = await eve.client.put(`/api/prompts/${p.id}`, { text: 'defaced' });
    expect(res.status).toBe(404);
    const unknown = await alice.client.put(`/api/prompts/${uuidv7()}`, { text: 'x' });
    expect(unknown.status).toBe(404);
    const [row] = await db().selectFrom('prompts').select('text').where('id', '=', p.id).execute();
    expect(row?.text).toBe('not yours');
  });

  it('validates like create, and is 400 for a malformed id and 401 signed out', async () => {
    const p = await createPrompt(alice, 'valid');
    const empty = await alice.client.put(`/api/prompts/${p.id}`, { text: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Please enter a prompt text');
    const long = await alice.client.put(`/api/prompts/${p.id}`, { text: 'y'.repeat(101) });
    expect(long.body.error).toBe('Prompt text must be at most 100 characters');
    const emoji = await alice.client.put(`/api/prompts/${p.id}`, {
      text: 'ok',
      emoji: '🎉🎉🎉🎉🎉',
    });
    expect(emoji.body.error).toBe('Emoji must be at most 4 characters');
    const extra = await alice.client.put(`/api/prompts/${p.id}`, { text: 'ok', id: p.id });
    expect(extra.body.error).toBe('Unknown field: id');
    const badId = await alice.client.put('/api/prompts/123', { text: 'ok' });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe('Must be a valid id');
    expect((await server.client().put(`/api/prompts/${p.id}`, { text: 'x' })).status).toBe(401);
  });
});

describe('DELETE /api/prompts/{id}', () => {
  it('deletes the owner’s custom prompt and writes a tombstone', async () => {
    const p = await createPrompt(alice, 'short-lived');
    const res = await alice.client.del(`/api/prompts/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const list = await alice.client.get('/api/prompts/user');
    expect(list.body.some((x: { id: string }) => x.id === p.id)).toBe(false);
    expect(await changesFor(alice.id, p.id)).toEqual([
      { userId: alice.id, entity: 'prompt', op: 'upsert' },
      { userId: alice.id, entity: 'prompt', op: 'delete' },
    ]);
    expect((await alice.client.del(`/api/prompts/${p.id}`)).status).toBe(404);
  });

  it('answers 403 "Default prompts cannot be deleted" for a default prompt', async () => {
    const res = await alice.client.del(`/api/prompts/${FIRST_DEFAULT}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Default prompts cannot be deleted');
    const after = await alice.client.get('/api/prompts/default');
    expect(after.body[0].id).toBe(FIRST_DEFAULT);
  });

  it('is 404 for someone else’s prompt, which survives', async () => {
    const p = await createPrompt(alice, 'survivor');
    const res = await eve.client.del(`/api/prompts/${p.id}`);
    expect(res.status).toBe(404);
    const [row] = await db().selectFrom('prompts').select('id').where('id', '=', p.id).execute();
    expect(row?.id).toBe(p.id);
  });

  it('is 400 for a malformed id and 401 signed out', async () => {
    expect((await alice.client.del('/api/prompts/nope')).status).toBe(400);
    const res = await server.client().del(`/api/prompts/${FIRST_DEFAULT}`);
    expect(res.status).toBe(401);
  });

  it('replays an Idempotency-Key with the stored answer', async () => {
    const p = await createPrompt(alice, 'delete me once');
    const headers = { 'Idempotency-Key': `d-${randomUUID()}` };
    const one = await alice.client.del(`/api/prompts/${p.id}`, { headers });
    const two = await alice.client.del(`/api/prompts/${p.id}`, { headers });
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
    const tombstones = (await changesFor(alice.id, p.id)).filter((c) => c.op === 'delete');
    expect(tombstones).toHaveLength(1);
  });
});

describe('POST /api/prompts/assign', () => {
  it('assigns a custom prompt to a friend and shows the assignment', async () => {
    const p = await createPrompt(alice, 'for Bob');
    const res = await alice.client.post('/api/prompts/assign', {
      promptId: p.id,
      friendId: bob.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(p.id);
    expect(res.body.assignments).toEqual([
      {
        friendId: bob.id,
        friend: { id: bob.id, firstName: 'Bob', lastName: 'Test', profileImageUrl: null },
      },
    ]);
    const list = await alice.client.get('/api/prompts/user');
    const listed = list.body.find((x: { id: string }) => x.id === p.id);
    expect(listed.assignments.map((a: { friendId: string }) => a.friendId)).toEqual([bob.id]);
  });

  it('is harmless twice: the same answer and one row', async () => {
    const p = await createPrompt(alice, 'twice');
    const one = await alice.client.post('/api/prompts/assign', {
      promptId: p.id,
      friendId: bob.id,
    });
    const two = await alice.client.post('/api/prompts/assign', {
      promptId: p.id,
      friendId: bob.id,
    });
    expect(two.status).toBe(one.status);
    expect(two.body).toEqual(one.body);
    const rows = await db()
      .selectFrom('promptAssignments')
      .selectAll()
      .where('promptId', '=', p.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('assigns default prompts per person: two people may assign one to the same friend', async () => {
    const byAlice = await alice.client.post('/api/prompts/assign', {
      promptId: FIRST_DEFAULT,
      friendId: bob.id,
    });
    const byCarol = await carol.client.post('/api/prompts/assign', {
      promptId: FIRST_DEFAULT,
      friendId: bob.id,
    });
    expect(byAlice.status).toBe(200);
    expect(byCarol.status).toBe(200);
    expect(byAlice.body.assignments).toHaveLength(1);
    expect(byCarol.body.assignments).toHaveLength(1);
    // Each sees only their own assignments of the shared default prompt.
    const eveView = await eve.client.get('/api/prompts/default');
    expect(eveView.body[0].assignments).toEqual([]);
    const aliceView = await alice.client.get('/api/prompts/default');
    expect(aliceView.body[0].assignments[0].friendId).toBe(bob.id);
    expect(await changesFor(alice.id, FIRST_DEFAULT)).toHaveLength(1);
  });

  it('is 403 for someone who is not a friend, and writes nothing', async () => {
    const p = await createPrompt(alice, 'not for Eve');
    const res = await alice.client.post('/api/prompts/assign', {
      promptId: p.id,
      friendId: eve.id,
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You can only assign prompts to friends');
    const rows = await db()
      .selectFrom('promptAssignments')
      .selectAll()
      .where('promptId', '=', p.id)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('is 404 for someone else’s custom prompt or an unknown one', async () => {
    const p = await createPrompt(alice, 'alice only');
    const res = await carol.client.post('/api/prompts/assign', {
      promptId: p.id,
      friendId: bob.id,
    });
    expect(res.status).toBe(404);
    const unknown = await carol.client.post('/api/prompts/assign', {
      promptId: uuidv7(),
      friendId: bob.id,
    });
    expect(unknown.status).toBe(404);
  });

  it.each([
    [{ friendId: FIRST_DEFAULT }, 'Please choose a prompt'],
    [{ promptId: FIRST_DEFAULT }, 'Please select at least one friend to assign this prompt to.'],
    [{ promptId: FIRST_DEFAULT, friendId: 'bob' }, 'Must be a valid id'],
    [{ promptId: [FIRST_DEFAULT], friendId: FIRST_DEFAULT }, 'Must be a valid id'],
    [{ promptId: FIRST_DEFAULT, friendId: FIRST_DEFAULT, extra: 1 }, 'Unknown field: extra'],
  ])('rejects %j with 400 "%s"', async (body, message) => {
    const res = await alice.client.post('/api/prompts/assign', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('is 401 signed out and replays an Idempotency-Key', async () => {
    const out = await server
      .client()
      .post('/api/prompts/assign', { promptId: FIRST_DEFAULT, friendId: bob.id });
    expect(out.status).toBe(401);
    const p = await createPrompt(alice, 'keyed');
    const headers = { 'Idempotency-Key': `a-${randomUUID()}` };
    const body = { promptId: p.id, friendId: bob.id };
    const one = await alice.client.post('/api/prompts/assign', body, { headers });
    const two = await alice.client.post('/api/prompts/assign', body, { headers });
    expect(two.body).toEqual(one.body);
    expect(two.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('loadPrompts and visiblePromptIds (the pull contract)', () => {
  it('loads defaults and the viewer’s own prompts only, in the order asked', async () => {
    const mine = await createPrompt(carol, 'carol private');
    const theirs = await createPrompt(alice, 'alice private');
    const ids = [mine.id, uuidv7(), theirs.id, FIRST_DEFAULT];
    const loaded = await loadPrompts(db(), carol.id, ids);
    expect(loaded.map((p) => p.id)).toEqual([mine.id, FIRST_DEFAULT]);
    expect(loaded[1]!.assignments.map((a) => a.friendId)).toEqual([bob.id]);
  });

  it('pages visible prompt ids in ascending order', async () => {
    const u = await makeUser(server);
    const own = [await createPrompt(u, 'p1'), await createPrompt(u, 'p2')];
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await visiblePromptIds(db(), u.id, after, 5);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(5);
      all.push(...page);
      after = page[page.length - 1];
    }
    expect(all).toEqual([...all].sort());
    expect(all).toEqual([...DEFAULT_PROMPTS.map((p) => p.id), ...own.map((p) => p.id)]);
  });
});
