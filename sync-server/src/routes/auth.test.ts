import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    LOGIN_FREE_FAILURES: '2',
    LOGIN_FIRST_DELAY_SECONDS: '60',
  });
});
afterAll(() => server.stop());

describe('register', () => {
  it('creates the account, signs the person in and answers their own record', async () => {
    const c = server.client();
    const res = await c.post('/api/register', {
      email: ' Ada@Example.test ',
      password: 'secret1',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: 'ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      onboardingCompleted: false,
      isAdmin: false,
      profileVisibility: 'public',
      rateLimitPerDay: 50,
    });
    expect(res.body.inviteCode).toMatch(/^[\w-]{8,}$/);
    expect(res.body).not.toHaveProperty('passwordHash');
    const cookie = res.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/pingme\.sid=/);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    const me = await c.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.id);
  });

  it.each([
    [
      { email: 'nope', password: 'secret1', firstName: 'A', lastName: 'B' },
      'Please enter a valid email',
    ],
    [{ password: 'secret1', firstName: 'A', lastName: 'B' }, 'Please enter a valid email'],
    [
      { email: 'r1@b.test', password: '123', firstName: 'A', lastName: 'B' },
      'Password must be at least 6 characters',
    ],
    [
      { email: 'r2@b.test', password: 'secret1', firstName: ' ', lastName: 'B' },
      'First name is required',
    ],
    [
      { email: 'r3@b.test', password: 'secret1', firstName: 'A', lastName: '' },
      'Last name is required',
    ],
    [{ email: 'r4@b.test', password: 'secret1', firstName: 'A' }, 'Last name is required'],
    [
      { email: 'r5@b.test', password: 'secret1', firstName: 'A', lastName: 'B', isAdmin: true },
      'Unknown field: isAdmin',
    ],
  ])('rejects %j with "%s" and creates nothing', async (body, message) => {
    const c = server.client();
    const res = await c.post('/api/register', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
    expect((await c.get('/api/user')).status).toBe(401);
    const email = (body as { email?: string }).email;
    if (email?.includes('@')) {
      // Nothing was created: that e-mail can still sign up.
      const ok = await server
        .client()
        .post('/api/register', { email, password: 'secret1', firstName: 'A', lastName: 'B' });
      expect(ok.status).toBe(201);
    }
  });

  it('refuses a second account with the same e-mail', async () => {
    const a = await makeUser(server);
    const res = await server.client().post('/api/register', {
      email: a.email.toUpperCase(),
      password: 'another1',
      firstName: 'X',
      lastName: 'Y',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('email_taken');
  });

  it('replays an Idempotency-Key: one account, the same answer', async () => {
    const body = {
      email: `idem-${Date.now()}@example.test`,
      password: 'secret1',
      firstName: 'I',
      lastName: 'D',
    };
    const headers = { 'Idempotency-Key': 'register-key-1' };
    const first = await server.client().post('/api/register', body, { headers });
    const second = await server.client().post('/api/register', body, { headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const other = await server
      .client()
      .post('/api/register', { ...body, firstName: 'Z' }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_mismatch');
  });
});

describe('names: NFC, no bidirectional controls, a visible character', () => {
  const register = (firstName: string, lastName = 'Test') =>
    server.client().post('/api/register', {
      email: `names-${Date.now()}-${Math.random()}@example.test`,
      password: 'secret12',
      firstName,
      lastName,
    });

  it.each([
    ['U+200B only', '\u200B'],
    ['U+2060 and U+FEFF', '\u2060\uFEFF'],
    ['combining marks only', '\u0301\u0302'],
    ['a bidirectional override only', '\u202E'],
  ])('refuses a first name of %s with 400, and creates nobody', async (_name, firstName) => {
    const before = await server.database.db.selectFrom('users').select('id').execute();
    const res = await register(firstName);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toMatch(/^First name (needs at least one visible letter|is required)$/);
    expect(await server.database.db.selectFrom('users').select('id').execute()).toHaveLength(
      before.length,
    );
  });

  it('refuses an invisible last name too', async () => {
    const res = await register('Ada', '\u200B\u200B');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Last name needs at least one visible letter');
  });

  it('stores names in NFC without bidirectional controls', async () => {
    const res = await register('Rene\u0301e\u202E', '\u2066Love\u2069lace\u200F');
    expect(res.status).toBe(201);
    expect(res.body.firstName).toBe('Ren\u00e9e');
    expect(res.body.lastName).toBe('Lovelace');
    const row = await server.database.db
      .selectFrom('users')
      .select(['firstName', 'lastName'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ firstName: 'Ren\u00e9e', lastName: 'Lovelace' });
  });
});

describe('login and logout', () => {
  it('signs in with the right password and out again, ending the session on the server', async () => {
    const a = await makeUser(server);
    const c = server.client();
    const res = await c.post('/api/login', { email: a.email, password: a.password });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.id);
    const stolenCookie = c.cookieHeader;
    expect((await c.get('/api/user')).status).toBe(200);
    const out = await c.post('/api/logout');
    expect(out.status).toBe(200);
    const after = await c.get('/api/user');
    expect(after.status).toBe(401);
    expect(after.body.error).toContain('Unauthorized');
    // The old cookie, replayed by someone who copied it, is dead too.
    const replay = await fetch(`${server.url}/api/user`, { headers: { cookie: stolenCookie } });
    expect(replay.status).toBe(401);
  });

  it('gives a new session id at sign-in', async () => {
    const a = await makeUser(server);
    const c = server.client();
    await c.get('/api/user');
    await c.post('/api/login', { email: a.email, password: 'wrong-password' });
    const before = c.cookieHeader;
    await c.post('/api/login', { email: a.email, password: a.password });
    expect(c.cookieHeader).not.toBe(before);
    expect(c.cookieHeader).toMatch(/pingme\.sid=/);
  });

  it('answers the same error for a wrong password and an unknown e-mail', async () => {
    const a = await makeUser(server);
    const wrong = await server
      .client()
      .post('/api/login', { email: a.email, password: 'wrong-password' });
    const unknown = await server
      .client()
      .post('/api/login', { email: 'nobody@example.test', password: 'whatever1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('Invalid email or password');
  });

  it('throttles repeated failures for an account with a clear 429', async () => {
    const a = await makeUser(server);
    for (let i = 0; i < 3; i++) {
      expect(
        (await server.client().post('/api/login', { email: a.email, password: 'bad-guess' }))
          .status,
      ).toBe(401);
    }
    const blocked = await server
      .client()
      .post('/api/login', { email: a.email, password: a.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(blocked.body.error).toMatch(/Too many failed sign-in attempts/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('GET /api/user is 401 with "Unauthorized" when signed out', async () => {
    const res = await server.client().get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
  });

  it('GET /api/session answers a visitor 200 { user: null }, with no cookie and no session row', async () => {
    const sessionRows = async () =>
      (
        await server.database.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await sessionRows();
    const res = await server.client().get('/api/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await sessionRows()).toBe(before);
  });

  it('GET /api/session answers a signed-in person the same SelfUser as GET /api/user, and null once signed out', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const c = server.client();
    expect((await c.post('/api/login', { email: a.email, password: a.password })).status).toBe(200);
    const me = await c.get('/api/user');
    const session = await c.get('/api/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ user: me.body });
    expect(session.body.user.id).toBe(a.id);
    expect(session.body.user.id).not.toBe(b.id);
    expect(session.headers.getSetCookie()).toEqual([]);
    await c.post('/api/logout');
    const after = await c.get('/api/session');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ user: null });
  });

  it('GET /api/login sends the browser to /auth', async () => {
    const res = await server.client().get('/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth');
  });
});

describe('bad input never makes a 500', () => {
  it.each([
    ['malformed JSON', '{"email": ', 'application/json', 400],
    ['a JSON array', '[1,2,3]', 'application/json', 400],
    ['a JSON string', '"hello"', 'application/json', 400],
    [
      'wrong types',
      JSON.stringify({ email: 5, password: {}, firstName: [], lastName: null }),
      'application/json',
      400,
    ],
    ['text/plain', 'email=a', 'text/plain', 400],
  ])('%s', async (_name, raw, type, status) => {
    const res = await server.client().request('POST', '/api/register', undefined, {
      raw,
      headers: { 'content-type': type },
    });
    expect(res.status).toBe(status);
    expect(typeof res.body.error).toBe('string');
  });

  it('an oversized body is 413', async () => {
    const res = await server
      .client()
      .post('/api/login', { email: 'a@b.test', password: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('an unknown API route is a JSON 404', async () => {
    const res = await server.client().get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
