/**
 * Account deletion (DELETE /api/account; docs/security.md "Account deletion"): the account and
 * everything it owns go, in one transaction; what it sent to others disappears from their
 * devices on their next pull (tombstones, seen here through the real pull endpoint); no table
 * keeps the person's id or e-mail; the e-mail can sign up again.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PullResponse } from '@pingme/shared';
import { tableNames, tableRows } from '../../test/db-inspect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type Client,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_FREE_FAILURES: '2', LOGIN_FIRST_DELAY_SECONDS: '60' });
});
afterAll(() => server.stop());

const db = () => server.database.db;
const PROMPT = '00000000-0000-7000-8000-000000000001';
const PACK = '0190a000-0000-7000-8000-000000000001';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const opOf = (changes: PullResponse['changes'], entity: string, id: string) =>
  changes.find((c) => c.entity === entity && c.id === id)?.op;

/**
 * Every row of every table in which some column equals `value` or contains it as text: the
 * database-wide proof that nothing names the person any more.
 */
async function rowsMentioning(value: string) {
  const needle = value.toLowerCase();
  const found: { table: string; row: Record<string, unknown> }[] = [];
  for (const name of await tableNames(db())) {
    for (const row of await tableRows(db(), name)) {
      const mentions = Object.values(row).some((v) =>
        String(v ?? '')
          .toLowerCase()
          .includes(needle),
      );
      if (mentions) found.push({ table: name, row });
    }
  }
  return found;
}

describe('DELETE /api/account', () => {
  let a: MadeUser;
  let b: MadeUser; // A's friend
  let c: MadeUser; // has a pending request from A
  let d: MadeUser; // unrelated; reports A
  let laptop: Client; // A's second device
  const ids = {
    aPrompt: '',
    aToB: '',
    bToA: '',
    bMoment: '',
    anchor: '',
    moodA: '',
    moodB: '',
    bPrompt: '',
    friendship: '',
    request: '',
  };
  let cursorB: number;
  let cursorC: number;
  let photoFile: string;

  beforeAll(async () => {
    // Signed up with an Idempotency-Key: that record (caller 'anonymous') names A too.
    const email = `leaver-${Date.now()}@example.test`;
    const signup = server.client();
    const reg = await signup.post(
      '/api/register',
      { email, password: 'leaving-soon', firstName: 'Lea', lastName: 'Ver' },
      { headers: { 'Idempotency-Key': `signup-${randomUUID()}` } },
    );
    expect(reg.status).toBe(201);
    a = { client: signup, id: reg.body.id, email, password: 'leaving-soon', user: reg.body };
    b = await makeUser(server);
    c = await makeUser(server);
    d = await makeUser(server);
    await makeFriends(a, b);
    laptop = server.client();
    expect((await laptop.post('/api/login', { email: a.email, password: a.password })).status).toBe(
      200,
    );

    // What A owns: a photo, a custom prompt assigned to B, a pack install, a push subscription,
    // a block, a report, a reset token, idempotency records, rate-limit buckets.
    const photo = await a.client.request('PUT', '/api/profile/photo', undefined, {
      raw: Buffer.from(PNG, 'base64'),
      headers: { 'content-type': 'image/png' },
    });
    photoFile = path.join(server.config.uploadsDir, path.basename(photo.body.profileImageUrl));
    expect(existsSync(photoFile)).toBe(true);
    ids.aPrompt = (
      await a.client.post(
        '/api/prompts',
        { text: 'Ping me when leaving' },
        {
          headers: { 'Idempotency-Key': 'a-prompt' },
        },
      )
    ).body.id;
    await a.client.post('/api/prompts/assign', { promptId: ids.aPrompt, friendId: b.id });
    await a.client.post(`/api/profile/collections/${PACK}/install`);
    const sub = await a.client.post('/api/push/subscribe', {
      endpoint: 'https://push.example.test/a-device',
      keys: {
        p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'),
        auth: Buffer.alloc(16, 3).toString('base64url'),
      },
    });
    expect(sub.status).toBe(201);
    await a.client.post('/api/blocks', { userId: (await makeUser(server)).id });
    await a.client.post('/api/reports', { userId: d.id, reason: 'spam' });
    await server.client().post('/api/forgot-password', { email: a.email });
    await a.client.get('/api/users/search?q=someone');
    await server.client().post('/api/login', { email: a.email, password: 'wrong-pass' });

    // What others hold of A: pings both ways (with reactions and B's bookmark), an anchor,
    // moods both ways, B's prompt assigned to A, a pending request to C, D's report about A.
    ids.aToB = (await a.client.post('/api/pings', { promptId: PROMPT, receiverId: b.id })).body.id;
    ids.bToA = (await b.client.post('/api/pings', { promptId: PROMPT, receiverId: a.id })).body.id;
    await b.client.post(`/api/pings/${ids.aToB}/reactions`, { reactionType: 'heart' });
    await a.client.post(`/api/pings/${ids.bToA}/reactions`, { reactionType: 'wow' });
    const bookmarked = await b.client.patch(`/api/pings/${ids.aToB}/bookmark`, {
      bookmarked: true,
    });
    expect(bookmarked.status).toBe(200);
    ids.bMoment = (await b.client.get('/api/profile/moments')).body[0].id;
    ids.anchor = (
      await a.client.post('/api/profile/anchors', { friendId: b.id, text: 'Call me' })
    ).body.id;
    await b.client.patch(`/api/profile/anchors/${ids.anchor}/respond`, { response: 'accept' });
    ids.moodA = (
      await a.client.post('/api/moods', { friendId: b.id, mood: 'happy', emoji: '😊' })
    ).body.id;
    ids.moodB = (
      await b.client.post('/api/moods', { friendId: a.id, mood: 'tired', emoji: '😴' })
    ).body.id;
    ids.bPrompt = (await b.client.post('/api/prompts', { text: 'Ping me for B' })).body.id;
    await b.client.post('/api/prompts/assign', { promptId: ids.bPrompt, friendId: a.id });
    await b.client.post('/api/prompts/assign', { promptId: PROMPT, friendId: a.id });
    ids.friendship = (await b.client.get('/api/friends')).body[0].friendshipId;
    ids.request = (await a.client.post('/api/friends/request', { friendId: c.id })).body.requestId;
    await d.client.post('/api/reports', { userId: a.id, reason: 'harassment' });
    await a.client.post('/api/energy/update-all');
    await b.client.post('/api/energy/update-all');

    cursorB = (await pullAll(b.client)).cursor;
    cursorC = (await pullAll(c.client)).cursor;
  });

  it('refuses a wrong password with 403 and deletes nothing', async () => {
    const res = await a.client.del('/api/account', undefined);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Enter your password to delete your account');
    const wrong = await a.client.request('DELETE', '/api/account', { password: 'not-it-at-all' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('That password is not correct');
    expect((await a.client.get('/api/user')).status).toBe(200);
  });

  it('deletes the account with the password, signs out every device', async () => {
    const res = await a.client.request(
      'DELETE',
      '/api/account',
      { password: a.password },
      { headers: { 'Idempotency-Key': 'delete-me' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.headers.getSetCookie().join()).toMatch(/pingme\.sid=;/);
    expect((await a.client.get('/api/user')).status).toBe(401);
    expect((await laptop.get('/api/user')).status).toBe(401);
    // A retry of the same request finds nobody: 401, not a stored answer.
    const retry = await laptop.request(
      'DELETE',
      '/api/account',
      { password: a.password },
      { headers: { 'Idempotency-Key': 'delete-me' } },
    );
    expect(retry.status).toBe(401);
  });

  it('the friend’s next pull drops A’s pings, friendship, profile, anchor, moods and their bookmark of A’s ping', async () => {
    const { changes } = await pullAll(b.client, cursorB);
    expect(opOf(changes, 'ping', ids.aToB)).toBe('delete');
    expect(opOf(changes, 'ping', ids.bToA)).toBe('delete');
    expect(opOf(changes, 'friendship', ids.friendship)).toBe('delete');
    expect(opOf(changes, 'user', a.id)).toBe('delete');
    expect(opOf(changes, 'anchor', ids.anchor)).toBe('delete');
    expect(opOf(changes, 'mood', ids.moodA)).toBe('delete');
    expect(opOf(changes, 'mood', ids.moodB)).toBe('delete');
    expect(opOf(changes, 'moment', ids.bMoment)).toBe('delete');
    // B's own prompts stay, without their assignment to A.
    const prompt = changes.find((ch) => ch.entity === 'prompt' && ch.id === ids.bPrompt);
    expect(prompt?.op).toBe('upsert');
    expect((prompt?.data as { assignments: unknown[] }).assignments).toEqual([]);
    expect(opOf(changes, 'prompt', PROMPT)).toBe('upsert');
    // Nothing in what B's device receives names A any more.
    expect(JSON.stringify(changes.filter((ch) => ch.op === 'upsert'))).not.toContain(a.id);
  });

  it('the person with a pending request from A gets tombstones too', async () => {
    const { changes } = await pullAll(c.client, cursorC);
    expect(opOf(changes, 'friendship', ids.request)).toBe('delete');
    expect(opOf(changes, 'user', a.id)).toBe('delete');
    expect((await c.client.get('/api/friends/pending')).body.received).toEqual([]);
  });

  it('a fresh snapshot of the friend holds nothing of A', async () => {
    let res = await b.client.get<PullResponse>('/api/sync/pull');
    const all = [...res.body.changes];
    while (res.body.hasMore) {
      res = await b.client.get<PullResponse>(`/api/sync/pull?snapshot=${res.body.snapshot}`);
      all.push(...res.body.changes);
    }
    expect(JSON.stringify(all)).not.toContain(a.id);
    expect(JSON.stringify(all)).not.toContain(a.email);
  });

  it('no table keeps A’s id or e-mail, except other people’s change log (A’s random id only)', async () => {
    const byEmail = await rowsMentioning(a.email);
    expect(byEmail).toEqual([]);
    const byId = await rowsMentioning(a.id);
    // Other people's change-log rows name A's profile record by its random id (their pulls turn
    // it into a tombstone); they hold nothing else of A and age out with the retention.
    for (const { table, row } of byId) {
      expect(table).toBe('changes');
      expect(row.user_id).not.toBe(a.id);
      expect(row.entity).toBe('user');
      expect(row.entity_id).toBe(a.id);
    }
    // Every table that had something of A: empty of it now (foreign keys cascaded).
    for (const table of [
      'sessions',
      'tokens',
      'push_subscriptions',
      'prompts',
      'prompt_assignments',
      'pings',
      'reactions',
      'anchors',
      'moods',
      'moments',
      'pack_installs',
      'energy_snapshots',
      'blocks',
      'reports',
      'friendships',
      'idempotency_keys',
      'rate_limits',
    ]) {
      expect(byId.filter((f) => f.table === table)).toEqual([]);
    }
  });

  it('deletes the uploaded photo file', () => {
    expect(existsSync(photoFile)).toBe(false);
  });

  it('the e-mail can sign up again, as a new person', async () => {
    const login = await server
      .client()
      .post('/api/login', { email: a.email, password: a.password });
    expect(login.status).toBe(401);
    const res = await server.client().post('/api/register', {
      email: a.email,
      password: 'a-new-start',
      firstName: 'Again',
      lastName: 'New',
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(a.id);
    expect((await b.client.get(`/api/users/${a.id}/profile`)).status).toBe(404);
  });
});

describe('DELETE /api/account: who may, and bad input', () => {
  it('is 401 signed out', async () => {
    const res = await server.client().request('DELETE', '/api/account', { password: 'whatever' });
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });

  it('an account without a password (Google sign-in) confirms by typing DELETE', async () => {
    const g = await makeUser(server);
    await db().updateTable('users').set({ passwordHash: null }).where('id', '=', g.id).execute();
    for (const body of [{}, { password: 'guess-me' }, { confirm: 'delete' }]) {
      const res = await g.client.request('DELETE', '/api/account', body);
      expect(res.status).toBe(400);
    }
    expect((await g.client.get('/api/user')).status).toBe(200);
    const ok = await g.client.request('DELETE', '/api/account', { confirm: 'DELETE' });
    expect(ok.status).toBe(200);
    expect(await db().selectFrom('users').select('id').where('id', '=', g.id).execute()).toEqual(
      [],
    );
  });

  it('one person deleting an account touches nobody else’s account', async () => {
    const x = await makeUser(server);
    const y = await makeUser(server);
    await makeFriends(x, y);
    const res = await x.client.request('DELETE', '/api/account', { password: x.password });
    expect(res.status).toBe(200);
    expect((await y.client.get('/api/user')).status).toBe(200);
    expect((await y.client.get('/api/friends')).body).toEqual([]);
  });

  it('wrong passwords count against the sign-in budget: 429', async () => {
    const u = await makeUser(server);
    for (let i = 0; i < 3; i++) {
      const res = await u.client.request('DELETE', '/api/account', { password: `nope-${i}-x` });
      expect(res.status).toBe(403);
    }
    const res = await u.client.request('DELETE', '/api/account', { password: u.password });
    expect(res.status).toBe(429);
    expect((await u.client.get('/api/user')).status).toBe(200);
  });

  it.each([
    [{ password: 5 }],
    [{ password: '' }],
    [{ confirm: 'yes' }],
    [{ password: 'x', extra: 1 }],
    [[1]],
  ])('%j is 400, never 500, and deletes nothing', async (body) => {
    const u = await makeUser(server);
    const res = await u.client.request('DELETE', '/api/account', body);
    expect(res.status).toBe(400);
    expect((await u.client.get('/api/user')).status).toBe(200);
  });

  it('malformed JSON is 400', async () => {
    const u = await makeUser(server);
    const res = await u.client.request('DELETE', '/api/account', undefined, {
      raw: '{"password": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('ignores ids other than the caller’s: there is no way to name someone else', async () => {
    const u = await makeUser(server);
    const v = await makeUser(server);
    const res = await u.client.request('DELETE', `/api/account?userId=${v.id}`, {
      password: u.password,
    });
    expect(res.status).toBe(200);
    expect((await v.client.get('/api/user')).status).toBe(200);
  });
});
