/**
 * Sign-in and reset throttling that slows guessing without letting a stranger lock anyone out
 * (docs/security.md, "Sign-in throttling"; services/sign-in-throttle.ts). Clients come from two
 * and three loopback addresses (127.0.0.1, 127.0.0.2, 127.0.0.3), so the server sees a stranger
 * and the owner as different addresses, as it would on a network.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type Client, type TestServer } from '../../test/harness';
import { RESET_SUBJECT, startMailSink, tokenIn, type MailSink } from '../../test/mail-sink';

const OWNER_AT = '127.0.0.1';
const STRANGER_AT = '127.0.0.2';
const OTHER_STRANGER_AT = '127.0.0.3';

let server: TestServer;
let sink: MailSink;
beforeAll(async () => {
  sink = await startMailSink();
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    // Small numbers, and a first wait of a minute, so nothing here depends on the clock.
    LOGIN_FREE_FAILURES: '3',
    LOGIN_FIRST_DELAY_SECONDS: '60',
    LOGIN_MAX_DELAY_MINUTES: '15',
    LOGIN_ACCOUNT_FREE_FAILURES: '6',
    LOGIN_IP_FREE_FAILURES: '8',
    LOGIN_SHARED_MAX_DELAY_SECONDS: '30',
    RESET_MAX_PER_EMAIL_PER_IP: '3',
    RESET_MAX_PER_IP: '20',
    RESET_MAILS_PER_EMAIL: '4',
  });
});
afterAll(async () => {
  await server?.stop();
  await sink?.close();
});

const db = () => server.database.db;
beforeEach(async () => {
  await db().deleteFrom('rateLimits').execute();
});

const login = (c: Client, email: string, password: string) =>
  c.post('/api/login', { email, password });

async function wrongPasswords(c: Client, email: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(c, email, `wrong-${i}-guess`)).status);
  return statuses;
}

const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

/** Moves every count's last failure back in time, as if that long had passed. */
async function waitAsIf(ms: number) {
  await db()
    .updateTable('rateLimits')
    .set((eb) => ({ resetAt: eb('resetAt', '-', ms) }))
    .execute();
}

describe('wrong passwords are counted per account and address', () => {
  it('a stranger’s failures slow the stranger, and the owner at another address signs in at once', async () => {
    const owner = await makeUser(server);
    const stranger = server.client(STRANGER_AT);
    // Three free failures and the one allowed after them; then the stranger must wait.
    expect(await wrongPasswords(stranger, owner.email, 6)).toEqual([401, 401, 401, 401, 429, 429]);
    // While it waits, even the right password is refused to the stranger (no guessing).
    const right = await login(stranger, owner.email, owner.password);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ code: 'rate_limited' });
    expect(right.body.error).toMatch(
      /^Too many failed sign-in attempts\. Please wait \d+ (seconds|minute)/,
    );
    expect(retryAfter(right)).toBeGreaterThan(50);
    expect(retryAfter(right)).toBeLessThanOrEqual(60);
    // The owner, on a device that never signed in, from their own address: not slowed at all.
    expect((await login(server.client(OWNER_AT), owner.email, owner.password)).status).toBe(200);
  });

  it('doubles the wait with each failure allowed after it, up to LOGIN_MAX_DELAY_MINUTES', async () => {
    const owner = await makeUser(server);
    const stranger = server.client(STRANGER_AT);
    expect(await wrongPasswords(stranger, owner.email, 4)).toEqual([401, 401, 401, 401]);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const refused = await login(stranger, owner.email, 'another-guess');
      expect(refused.status).toBe(429);
      waits.push(retryAfter(refused));
      // The client waits as long as it was told; its next guess is checked, and wrong.
      await waitAsIf(retryAfter(refused) * 1000);
      expect((await login(stranger, owner.email, 'another-guess')).status).toBe(401);
    }
    const minutes = waits.map((s) => Math.round(s / 60));
    expect(minutes).toEqual([1, 2, 4, 8, 15, 15]);
  });

  it('a right password forgets the pair’s count', async () => {
    const owner = await makeUser(server);
    const phone = server.client(STRANGER_AT);
    expect(await wrongPasswords(phone, owner.email, 3)).toEqual([401, 401, 401]);
    expect((await login(phone, owner.email, owner.password)).status).toBe(200);
    // Three free failures again, not a wait.
    expect(await wrongPasswords(server.client(STRANGER_AT), owner.email, 3)).toEqual([
      401, 401, 401,
    ]);
  });

  it('counts an unknown e-mail exactly like a known one (no hint about accounts)', async () => {
    const stranger = server.client(STRANGER_AT);
    expect(await wrongPasswords(stranger, `nobody-${Date.now()}@example.test`, 6)).toEqual([
      401, 401, 401, 401, 429, 429,
    ]);
  });
});

describe('a device that signed in before still signs in', () => {
  it('sets a signed, httpOnly device cookie at sign-up and sign-in', async () => {
    const owner = await makeUser(server);
    const res = await server
      .client(STRANGER_AT)
      .post('/api/login', { email: owner.email, password: owner.password });
    const cookies = res.headers.getSetCookie().filter((c) => c.startsWith('pingme.device'));
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['pingme.device', 'pingme.device.sig']);
    for (const c of cookies) {
      expect(c).toMatch(/;\s*path=\/api/i);
      expect(c).toMatch(/;\s*httponly/i);
      expect(c).toMatch(/;\s*samesite=lax/i);
    }
    expect(owner.client.cookieHeader).toContain('pingme.device=');
  });

  it('past the account-wide limit, strangers and new devices wait (30 s at most), a known device does not', async () => {
    const owner = await makeUser(server); // signed up from 127.0.0.1: a known device
    const bob = await makeUser(server); // a known device of another account
    // Two strangers at two addresses: 4 + 3 failures on the account, over its 6.
    expect(await wrongPasswords(server.client(STRANGER_AT), owner.email, 4)).toEqual([
      401, 401, 401, 401,
    ]);
    expect(await wrongPasswords(server.client(OTHER_STRANGER_AT), owner.email, 3)).toEqual([
      401, 401, 401,
    ]);
    // A device the account does not know: slowed, never for longer than the shared cap.
    const newDevice = await login(server.client(OWNER_AT), owner.email, owner.password);
    expect(newDevice.status).toBe(429);
    expect(retryAfter(newDevice)).toBeLessThanOrEqual(30);
    // Bob's device cookie is not the owner's.
    expect((await login(bob.client, owner.email, owner.password)).status).toBe(429);
    // The owner's own device signs in with the right password.
    const known = await login(owner.client, owner.email, owner.password);
    expect(known.status).toBe(200);
    expect(known.body.id).toBe(owner.id);
  });

  it('a known device’s own wrong passwords slow that device only', async () => {
    const owner = await makeUser(server);
    expect(await wrongPasswords(owner.client, owner.email, 5)).toEqual([401, 401, 401, 401, 429]);
    expect((await login(server.client(OWNER_AT), owner.email, owner.password)).status).toBe(200);
  });

  it('a forged device cookie is no device', async () => {
    const owner = await makeUser(server);
    const forged = server.client(OWNER_AT);
    expect(await wrongPasswords(server.client(STRANGER_AT), owner.email, 4)).toEqual([
      401, 401, 401, 401,
    ]);
    expect(await wrongPasswords(server.client(OTHER_STRANGER_AT), owner.email, 3)).toEqual([
      401, 401, 401,
    ]);
    const res = await forged.post(
      '/api/login',
      { email: owner.email, password: owner.password },
      { headers: { cookie: `pingme.device=anything.${owner.id}; pingme.device.sig=forged` } },
    );
    expect(res.status).toBe(429);
  });
});

describe('one address trying many accounts (a shared network)', () => {
  it('is slowed for new devices there (30 s at most), never locked; known devices and other addresses go on', async () => {
    const carol = await makeUser(server);
    // Carol signs in once from the shared address: that browser is now a known device there.
    const carolAtNat = server.client(STRANGER_AT);
    expect((await login(carolAtNat, carol.email, carol.password)).status).toBe(200);
    // Someone on the same network fails 21 times across 7 accounts. Past 8 the address makes
    // each try wait, at most 30 s; the guesser waits each time as told.
    const victims = await Promise.all(Array.from({ length: 7 }, () => makeUser(server)));
    const guesser = server.client(STRANGER_AT);
    let failures = 0;
    for (const v of victims) {
      for (let i = 0; i < 3; i++) {
        let res = await login(guesser, v.email, `guess-${i}-x`);
        if (res.status === 429) {
          expect(retryAfter(res)).toBeLessThanOrEqual(30);
          await waitAsIf(retryAfter(res) * 1000);
          res = await login(guesser, v.email, `guess-${i}-x`);
        }
        expect(res.status).toBe(401);
        failures += 1;
      }
    }
    expect(failures).toBe(21);
    // A classmate signing in for the first time from that network waits at most 30 s.
    const dave = await makeUser(server);
    const daveAtNat = await login(server.client(STRANGER_AT), dave.email, dave.password);
    expect(daveAtNat.status).toBe(429);
    expect(retryAfter(daveAtNat)).toBeLessThanOrEqual(30);
    // Carol's known device there signs in; so does anyone from another address.
    expect((await login(carolAtNat, carol.email, carol.password)).status).toBe(200);
    expect((await login(server.client(OWNER_AT), dave.email, dave.password)).status).toBe(200);
  });
});

describe('password reset requests', () => {
  it('a stranger’s requests block only the stranger; the owner asks and resets', async () => {
    const owner = await makeUser(server);
    const ask = (c: Client) => c.post('/api/forgot-password', { email: owner.email });
    const stranger = server.client(STRANGER_AT);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask(stranger)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    for (let i = 0; i < 3; i++)
      expect((await ask(server.client(OTHER_STRANGER_AT))).status).toBe(200);

    // The owner's own request is answered as always.
    const mine = await ask(server.client(OWNER_AT));
    expect(mine.status).toBe(200);
    expect(mine.body.success).toBe(true);
    // Their mailbox got RESET_MAILS_PER_EMAIL (4) mails, not one per request, and every link
    // in it works until one is used.
    const mails = await sink.waitForMail(owner.email, RESET_SUBJECT, 4);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.mailsTo(owner.email, RESET_SUBJECT)).toHaveLength(4);
    const token = tokenIn(mails[0]!, '/reset-password');
    const reset = await server
      .client(OWNER_AT)
      .post('/api/reset-password', { token, password: 'owner-new-pass' });
    expect(reset.status).toBe(200);
    expect((await login(server.client(OWNER_AT), owner.email, 'owner-new-pass')).status).toBe(200);
  });
});
