/**
 * Rate limits (docs/security.md "Rate limits"): each throttle answers a clear 429
 * `rate_limited` with `Retry-After`, counts in SQLite (rate_limits), and takes its limit and
 * window from config. Small limits here; the harness raises them for every other test file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type Client, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    SIGNUP_MAX_PER_IP: '3',
    RESET_MAX_PER_EMAIL_PER_IP: '2',
    RESET_MAX_PER_IP: '5',
    VERIFY_RESEND_MAX_PER_EMAIL_PER_IP: '2',
    VERIFY_RESEND_MAX_PER_IP: '5',
    SEARCH_MAX_PER_USER: '4',
    SEARCH_WINDOW_MINUTES: '1',
    INVITE_CHECK_MAX_PER_USER: '3',
    INVITE_USE_MAX_PER_USER: '2',
    INVITE_WINDOW_MINUTES: '10',
    REPORT_MAX_PER_USER: '2',
  });
});
afterAll(() => server.stop());

const db = () => server.database.db;

/** Every test starts from empty buckets (the server and its loopback address are shared). */
async function resetBuckets() {
  await db().deleteFrom('rateLimits').execute();
}

function expect429(res: { status: number; body: any; headers: Headers }, text: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('rate_limited');
  expect(res.body.error).toMatch(text);
  expect(res.body.error).toMatch(/Please wait \d+ (second|minute)s? and try again\./);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

const signup = (c: Client, n: string) =>
  c.post('/api/register', {
    email: `rl-${n}-${Date.now()}@example.test`,
    password: 'secret12',
    firstName: 'R',
    lastName: 'L',
  });

describe('sign-up, per address (SIGNUP_MAX_PER_IP=3)', () => {
  it('allows 3 sign-ups, then 429s the 4th and creates nothing', async () => {
    await resetBuckets();
    for (let i = 0; i < 3; i++) expect((await signup(server.client(), `s${i}`)).status).toBe(201);
    const users = await db().selectFrom('users').select('id').execute();
    const res = await signup(server.client(), 's4');
    expect429(res, /Too many sign-ups from this network/);
    expect(await db().selectFrom('users').select('id').execute()).toHaveLength(users.length);
  });

  it('a replayed sign-up (same Idempotency-Key) is not counted again', async () => {
    await resetBuckets();
    const body = {
      email: `rl-replay-${Date.now()}@example.test`,
      password: 'secret12',
      firstName: 'R',
      lastName: 'P',
    };
    const headers = { 'Idempotency-Key': `signup-${Date.now()}` };
    for (let i = 0; i < 5; i++) {
      expect((await server.client().post('/api/register', body, { headers })).status).toBe(201);
    }
  });

  it('uses the proxy’s client address only with TRUST_PROXY (X-Forwarded-For)', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: 'true', SIGNUP_MAX_PER_IP: '1' });
    try {
      const from = (ip: string, n: string) =>
        proxied.client().post(
          '/api/register',
          {
            email: `xff-${n}-${Date.now()}@example.test`,
            password: 'secret12',
            firstName: 'X',
            lastName: 'F',
          },
          { headers: { 'x-forwarded-for': ip } },
        );
      expect((await from('203.0.113.1', 'a')).status).toBe(201);
      expect((await from('203.0.113.1', 'b')).status).toBe(429);
      expect((await from('203.0.113.2', 'c')).status).toBe(201);
    } finally {
      await proxied.stop();
    }
  });
});

describe('password reset requests (RESET_MAX_PER_EMAIL_PER_IP=2, RESET_MAX_PER_IP=5)', () => {
  it('limits one e-mail from one address, known or not, with the same answer', async () => {
    await resetBuckets();
    const known = await makeUser(server);
    for (const email of [known.email, 'nobody-here@example.test']) {
      for (let i = 0; i < 2; i++) {
        expect((await server.client().post('/api/forgot-password', { email })).status).toBe(200);
      }
      expect429(
        await server.client().post('/api/forgot-password', { email }),
        /Too many password reset requests/,
      );
    }
  });

  it('limits one address across many e-mails', async () => {
    await resetBuckets();
    for (let i = 0; i < 5; i++) {
      const res = await server.client().post('/api/forgot-password', { email: `ip${i}@x.test` });
      expect(res.status).toBe(200);
    }
    expect429(
      await server.client().post('/api/forgot-password', { email: 'ip-last@x.test' }),
      /Too many password reset requests/,
    );
  });
});

describe('verification resend (VERIFY_RESEND_MAX_PER_EMAIL_PER_IP=2, _PER_IP=5)', () => {
  it('limits one e-mail from one address, then the address', async () => {
    await resetBuckets();
    const email = 'verify-me@example.test';
    for (let i = 0; i < 2; i++) {
      expect((await server.client().post('/api/resend-verification', { email })).status).toBe(200);
    }
    expect429(
      await server.client().post('/api/resend-verification', { email }),
      /Too many verification e-mails requested/,
    );
    for (let i = 0; i < 2; i++) {
      await server.client().post('/api/resend-verification', { email: `v${i}@x.test` });
    }
    // 2 + 1 (refused, still counted) + 2 = 5 from this address: the next is refused.
    expect429(
      await server.client().post('/api/resend-verification', { email: 'v-last@x.test' }),
      /Too many verification e-mails requested/,
    );
  });
});

describe('search (SEARCH_MAX_PER_USER=4 per minute)', () => {
  it('429s the 5th search of one person; another person is unaffected', async () => {
    await resetBuckets();
    const a = await makeUser(server);
    const b = await makeUser(server);
    for (let i = 0; i < 4; i++) {
      expect((await a.client.get('/api/users/search?q=ab')).status).toBe(200);
    }
    const res = await a.client.get('/api/users/search?q=ab');
    expect429(res, /Too many searches/);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await b.client.get('/api/users/search?q=ab')).status).toBe(200);
  });

  it('opens again when the window has passed', async () => {
    await resetBuckets();
    const a = await makeUser(server);
    for (let i = 0; i < 5; i++) await a.client.get('/api/users/search?q=ab');
    expect((await a.client.get('/api/users/search?q=ab')).status).toBe(429);
    // The window ends: move it into the past, as a minute passing would.
    await db()
      .updateTable('rateLimits')
      .set({ resetAt: Date.now() - 1 })
      .execute();
    expect((await a.client.get('/api/users/search?q=ab')).status).toBe(200);
  });
});

describe('invite checks and uses (INVITE_CHECK_MAX_PER_USER=3, INVITE_USE_MAX_PER_USER=2)', () => {
  it('429s guessing invite codes', async () => {
    await resetBuckets();
    const a = await makeUser(server);
    for (let i = 0; i < 3; i++) {
      const res = await a.client.get(`/api/invites/guess${i}`);
      expect(res.status).toBe(200);
      expect(res.body.valid).toBe(false);
    }
    expect429(await a.client.get('/api/invites/guess9'), /Too many invite checks/);
    for (let i = 0; i < 2; i++) {
      expect((await a.client.post(`/api/invites/guess${i}/use`)).status).toBe(404);
    }
    expect429(await a.client.post('/api/invites/guess9/use'), /Too many invite links tried/);
  });
});

describe('reports (REPORT_MAX_PER_USER=2)', () => {
  it('429s the 3rd report within the window', async () => {
    await resetBuckets();
    const a = await makeUser(server);
    const b = await makeUser(server);
    for (let i = 0; i < 2; i++) {
      const res = await a.client.post('/api/reports', { userId: b.id, reason: 'spam' });
      expect(res.status).toBe(201);
    }
    expect429(
      await a.client.post('/api/reports', { userId: b.id, reason: 'spam' }),
      /Too many reports/,
    );
  });
});

describe('sign-in (services/sign-in-throttle.ts; its model: routes/sign-in-throttle.test.ts)', () => {
  it('keeps its counts in the same table, so they outlive a restart', async () => {
    await resetBuckets();
    const a = await makeUser(server);
    await server.client().post('/api/login', { email: a.email, password: 'wrong-one' });
    const buckets = await db().selectFrom('rateLimits').select('bucket').execute();
    expect(buckets.map((b) => b.bucket)).toEqual(
      expect.arrayContaining([
        `login:pair:${a.email}|127.0.0.1`,
        `login:account:${a.email}`,
        'login:ip:127.0.0.1',
      ]),
    );
  });
});
