/**
 * Sessions (docs/security.md "Sessions"): a new session id at every sign-in, sign-out
 * everywhere, password change for signed-in people, idle expiry with a use recorded at most once
 * an hour, and absolute expiry from sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  makeUser,
  startTestServer,
  type Client,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { updateUser } from '../db/users';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    LOGIN_FREE_FAILURES: '2',
    LOGIN_FIRST_DELAY_SECONDS: '60',
    SESSION_IDLE_DAYS: '14',
    WS_HEARTBEAT_MS: '1000',
  });
});
afterAll(() => server.stop());

const DAY = 24 * 3600_000;
const db = () => server.database.db;

/** A second device of the same person, signed in with the password. */
async function signIn(s: TestServer, u: { email: string; password: string }): Promise<Client> {
  const c = s.client();
  const res = await c.post('/api/login', { email: u.email, password: u.password });
  expect(res.status).toBe(200);
  return c;
}

const sessionIdOf = (c: Client) => /pingme\.sid=([^;]+)/.exec(c.cookieHeader)?.[1] ?? '';
const sessionsOf = (userId: string) =>
  db().selectFrom('sessions').selectAll().where('userId', '=', userId).execute();
/** Replays a copied cookie header, as someone who stole it would. */
const replay = (cookie: string) =>
  fetch(`${server.url}/api/user`, { headers: { cookie } }).then((r) => r.status);

describe('sign-in', () => {
  it('gives a new session id at every sign-in; the previous id is dead', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const c = await signIn(server, a);
    const first = c.cookieHeader;
    await c.post('/api/login', { email: b.email, password: b.password });
    expect(sessionIdOf(c)).not.toBe('');
    expect(c.cookieHeader).not.toBe(first);
    expect((await c.get('/api/user')).body.id).toBe(b.id);
    expect(await replay(first)).toBe(401);
  });
});

describe('POST /api/logout-everywhere', () => {
  it('ends every session of the person, this one included, and nobody else’s', async () => {
    const a = await makeUser(server);
    const phone = await signIn(server, a);
    const other = await makeUser(server);
    const res = await a.client.post('/api/logout-everywhere');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, endedSessions: 2 });
    expect((await a.client.get('/api/user')).status).toBe(401);
    expect((await phone.get('/api/user')).status).toBe(401);
    expect(await sessionsOf(a.id)).toHaveLength(0);
    expect((await other.client.get('/api/user')).status).toBe(200);
    // The password still works.
    const again = await server
      .client()
      .post('/api/login', { email: a.email, password: a.password });
    expect(again.status).toBe(200);
  });

  it('closes the person’s open sockets with 4401 at the next heartbeat', async () => {
    const a = await makeUser(server);
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
      headers: { cookie: a.client.cookieHeader },
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await a.client.post('/api/logout-everywhere');
    expect(await closed).toBe(4401);
  });

  it('is 401 signed out', async () => {
    const res = await server.client().post('/api/logout-everywhere');
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('POST /api/change-password', () => {
  let a: MadeUser;
  beforeAll(async () => {
    a = await makeUser(server, { password: 'first-password' });
  });

  it('changes the password, keeps this device signed in under a new id, ends the others', async () => {
    const phone = await signIn(server, a);
    const laptop = await signIn(server, a);
    const oldCookie = a.client.cookieHeader;
    const res = await a.client.post('/api/change-password', {
      currentPassword: 'first-password',
      newPassword: 'second-password',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, endedSessions: 2 });
    // This device: still signed in, with a fresh session id.
    expect((await a.client.get('/api/user')).status).toBe(200);
    expect(a.client.cookieHeader).not.toBe(oldCookie);
    expect(await replay(oldCookie)).toBe(401);
    // The others: signed out.
    expect((await phone.get('/api/user')).status).toBe(401);
    expect((await laptop.get('/api/user')).status).toBe(401);
    expect(await sessionsOf(a.id)).toHaveLength(1);
    // Only the new password signs in.
    const oldPw = await server
      .client()
      .post('/api/login', { email: a.email, password: 'first-password' });
    expect(oldPw.status).toBe(401);
    const newPw = await server
      .client()
      .post('/api/login', { email: a.email, password: 'second-password' });
    expect(newPw.status).toBe(200);
    a.password = 'second-password';
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const phone = await signIn(server, a);
    const res = await a.client.post('/api/change-password', {
      currentPassword: 'not-my-password',
      newPassword: 'third-password',
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('That password is not correct');
    expect((await phone.get('/api/user')).status).toBe(200);
    expect(
      (await server.client().post('/api/login', { email: a.email, password: a.password })).status,
    ).toBe(200);
  });

  it('counts wrong current passwords against the sign-in budget: 429 with Retry-After', async () => {
    const u = await makeUser(server);
    for (let i = 0; i < 3; i++) {
      const wrong = await u.client.post('/api/change-password', {
        currentPassword: `wrong-${i}-pw`,
        newPassword: 'whatever-new',
      });
      expect(wrong.status).toBe(403);
    }
    const res = await u.client.post('/api/change-password', {
      currentPassword: u.password,
      newPassword: 'whatever-new',
    });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.each([
    [{ currentPassword: 'x' }, 'Password must be at least 6 characters'],
    [{ newPassword: 'long-enough' }, 'Enter your current password'],
    [{ currentPassword: 5, newPassword: 'long-enough' }, 'Enter your current password'],
    [{ currentPassword: 'abcdef', newPassword: '123' }, 'Password must be at least 6 characters'],
    [{ currentPassword: 'abcdef', newPassword: 'long-enough', extra: 1 }, 'Unknown field: extra'],
  ])('answers %j with 400 "%s"', async (body, message) => {
    const res = await a.client.post('/api/change-password', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('refuses the same password again with 400', async () => {
    const res = await a.client.post('/api/change-password', {
      currentPassword: a.password,
      newPassword: a.password,
    });
    expect(res.status).toBe(400);
  });

  it('sends an account without a password (Google sign-in) to "Forgot your password?"', async () => {
    const g = await makeUser(server);
    await db().updateTable('users').set({ passwordHash: null }).where('id', '=', g.id).execute();
    const res = await g.client.post('/api/change-password', {
      currentPassword: 'anything',
      newPassword: 'new-password',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/no password yet/);
  });

  it('is 401 signed out', async () => {
    const res = await server
      .client()
      .post('/api/change-password', { currentPassword: 'abcdef', newPassword: 'ghijkl' });
    expect(res.status).toBe(401);
  });
});

describe('idle expiry (SESSION_IDLE_DAYS=14)', () => {
  const setLastSeen = (userId: string, at: number) =>
    db().updateTable('sessions').set({ lastSeenAt: at }).where('userId', '=', userId).execute();

  it('a session unused for longer than 14 days is dead, and its row is gone', async () => {
    const a = await makeUser(server);
    await setLastSeen(a.id, Date.now() - 15 * DAY);
    expect((await a.client.get('/api/user')).status).toBe(401);
    expect(await sessionsOf(a.id)).toHaveLength(0);
  });

  it('a session used within 14 days lives, and the use is recorded', async () => {
    const a = await makeUser(server);
    const longAgo = Date.now() - 13 * DAY;
    await setLastSeen(a.id, longAgo);
    expect((await a.client.get('/api/user')).status).toBe(200);
    const [row] = await sessionsOf(a.id);
    expect(row!.lastSeenAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records a use at most once an hour, not once per request', async () => {
    const a = await makeUser(server);
    const recent = Date.now() - 30 * 60_000;
    await setLastSeen(a.id, recent);
    for (let i = 0; i < 3; i++) expect((await a.client.get('/api/user')).status).toBe(200);
    expect((await sessionsOf(a.id))[0]!.lastSeenAt).toBe(recent);
  });

  it('closes a live socket whose session went idle (4401)', async () => {
    const a = await makeUser(server);
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
      headers: { cookie: a.client.cookieHeader },
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await setLastSeen(a.id, Date.now() - 15 * DAY);
    expect(await closed).toBe(4401);
  });
});

describe('absolute expiry (SESSION_MAX_AGE_DAYS), from sign-in, not rolling', () => {
  it('stores the end of the session as sign-in + max age, and use never moves it', async () => {
    const a = await makeUser(server);
    const [before] = await sessionsOf(a.id);
    const data = JSON.parse(before!.data) as { signedInAt: number };
    expect(before!.expiresAt).toBe(data.signedInAt + server.config.sessionMaxAgeMs);
    // Requests (reads, writes, an activity mark) leave it where it was.
    await a.client.get('/api/user');
    await a.client.patch('/api/user/onboarding', { step: 1 });
    await updateUser(db(), a.id, { lastActiveAt: null });
    await a.client.get('/api/user');
    const [after] = await sessionsOf(a.id);
    expect(after!.expiresAt).toBe(before!.expiresAt);
  });

  it('ends a session in constant use once its time from sign-in is up', async () => {
    // 2 seconds, expressed in days.
    const s = await startTestServer({ SESSION_MAX_AGE_DAYS: String(2 / 86400) });
    try {
      const a = await makeUser(s);
      const [row] = await s.database.db
        .selectFrom('sessions')
        .select('expiresAt')
        .where('userId', '=', a.id)
        .execute();
      const expiresAt = Number(row!.expiresAt);
      // In use every 200 ms: answered while its time runs, refused once it is up, whatever the
      // machine's speed (each answer is checked against the moment the request left or came back).
      let answered = 0;
      for (let tries = 0; ; tries++) {
        expect(tries).toBeLessThan(500);
        const sentAt = Date.now();
        const status = (await a.client.get('/api/user')).status;
        if (status === 200) {
          expect(sentAt).toBeLessThan(expiresAt);
          answered++;
        } else {
          expect(status).toBe(401);
          expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(answered).toBeGreaterThan(0);
      expect((await a.client.get('/api/user')).status).toBe(401);
      // Signing in again starts a new session.
      const again = await signIn(s, a);
      expect((await again.get('/api/user')).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
