/**
 * "Continue with Google" end to end against a real OpenID provider (oidc-provider, in-process on
 * loopback). The redirect chain is driven with plain fetch calls, redirects followed by hand and
 * cookies kept per host, the way a browser does it.
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
// @ts-expect-error -- oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type TestServer } from '../../test/harness';
import { RESET_SUBJECT, startMailSink, tokenIn, type MailSink } from '../../test/mail-sink';
import { findUserByEmail } from '../db/users';
import { OAUTH_MESSAGES } from './oauth';

interface Account {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

interface OpenIdProvider {
  issuer: string;
  accounts: Map<string, Account>;
  /** The account the next login interaction signs in as. */
  loginAs: string | undefined;
  close(): Promise<void>;
}

const CLIENT_ID = 'pingme-test';
const CLIENT_SECRET = 'pingme-test-secret-0123456789';

async function listen(server: http.Server | net.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A loopback port that was free a moment ago (the test server needs its URL before it starts). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  const port = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A real OpenID provider. Its login/consent interaction signs in as `loginAs` at once and
 * grants the requested scopes. With `claimsInIdToken: false` it conforms strictly and keeps
 * email and names to the UserInfo endpoint.
 */
async function startProvider(opts: {
  redirectUri: string;
  claimsInIdToken: boolean;
}): Promise<OpenIdProvider> {
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    use: 'sig',
    alg: 'RS256',
  };
  const accounts = new Map<string, Account>();
  const state: OpenIdProvider = {
    issuer,
    accounts,
    loginAs: undefined,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    conformIdTokenClaims: !opts.claimsInIdToken,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    // The interaction: log in as the chosen account and consent to what was asked.
    (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId: string | undefined = details.session?.accountId ?? state.loginAs;
      if (!accountId) throw new Error('the test did not choose an account');
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId: string = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return state;
}

/** A browser: one cookie jar per host, redirects followed by hand. */
class Browser {
  private jars = new Map<string, Map<string, string>>();
  readonly visited: string[] = [];

  async get(url: string): Promise<Response> {
    const u = new URL(url);
    const jar = this.jars.get(u.host) ?? new Map<string, string>();
    this.jars.set(u.host, jar);
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    this.visited.push(url);
    const res = await fetch(url, { headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }

  /**
   * Follows redirects from `url` until a page that is not a redirect, or until the next
   * location satisfies `stopBefore` (that location is returned without being fetched).
   */
  async follow(url: string, stopBefore: (next: URL) => boolean = () => false): Promise<URL> {
    let current = new URL(url);
    for (let hop = 0; hop < 15; hop++) {
      const res = await this.get(current.href);
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new Error(`stopped at ${current.href} with ${res.status}`);
      }
      const next = new URL(location, current);
      if (stopBefore(next)) return next;
      current = next;
    }
    throw new Error('too many redirects');
  }
}

let op: OpenIdProvider;
let server: TestServer;

/** Starts a PingMe test server on a known port and a provider whose client points at it. */
async function startPair(claimsInIdToken: boolean, smtpPort?: number) {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const provider = await startProvider({
    redirectUri: `${publicUrl}/api/auth/google/callback`,
    claimsInIdToken,
  });
  const pingme = await startTestServer({
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    ...(smtpPort ? { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } : {}),
  });
  return { provider, pingme };
}

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
  ({ provider: op, pingme: server } = await startPair(true, mail.port));
});
afterAll(async () => {
  await server?.stop();
  await op?.close();
  await mail?.close();
});

/** The whole chain from the "Continue with Google" button; answers where PingMe sent the browser. */
async function continueWithGoogle(
  browser: Browser,
  pingme: TestServer,
  provider: OpenIdProvider,
  sub: string,
): Promise<URL> {
  provider.loginAs = sub;
  const origin = new URL(pingme.url).origin;
  // Stop once PingMe sends the browser to one of its pages (the PWA is not built in tests).
  return browser.follow(
    `${pingme.url}/api/auth/google`,
    (next) => next.origin === origin && !next.pathname.startsWith('/api/'),
  );
}

async function currentUser(browser: Browser, pingme: TestServer) {
  const res = await browser.get(`${pingme.url}/api/user`);
  return { status: res.status, body: (await res.json()) as any };
}

let seq = 0;
function account(fields: Partial<Account> = {}): Account {
  seq += 1;
  const a: Account = {
    sub: `google-sub-${seq}-${Date.now()}`,
    email: `person${seq}-${Date.now()}@gmail.test`,
    email_verified: true,
    given_name: `Given${seq}`,
    family_name: `Family${seq}`,
    ...fields,
  };
  op.accounts.set(a.sub, a);
  return a;
}

const errorOf = (url: URL) => (url.pathname === '/auth' ? url.searchParams.get('error') : null);

describe('Continue with Google', () => {
  it('gives an unfinished sign-in a short-lived session and a finished one the full length', async () => {
    const a = account();
    const sessions = () =>
      server.database.db.selectFrom('sessions').select(['userId', 'expiresAt']).execute();
    const before = new Set((await sessions()).map((s) => s.expiresAt));
    // Start the sign-in but never come back from the provider.
    const res = await fetch(`${server.url}/api/auth/google`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const started = (await sessions()).filter((s) => !before.has(s.expiresAt) && s.userId === null);
    expect(started).toHaveLength(1);
    expect(started[0]!.expiresAt - Date.now()).toBeLessThanOrEqual(16 * 60_000);

    const browser = new Browser();
    await continueWithGoogle(browser, server, op, a.sub);
    const me = await currentUser(browser, server);
    const mine = (await sessions()).filter((s) => s.userId === me.body.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.expiresAt - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
  });

  it('creates a verified account without a password and signs it in', async () => {
    const a = account({ given_name: 'Grace', family_name: 'Hopper' });
    const browser = new Browser();
    const landed = await continueWithGoogle(browser, server, op, a.sub);
    expect(landed.pathname).toBe('/');
    expect(landed.search).toBe('');
    // The chain really went through the provider and back through the callback.
    expect(browser.visited.some((u) => u.startsWith(`${op.issuer}/auth?`))).toBe(true);
    const callback = browser.visited.find((u) => u.includes('/api/auth/google/callback?'));
    expect(callback).toBeDefined();
    expect(new URL(callback!).searchParams.get('code')).toBeTruthy();

    const me = await currentUser(browser, server);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: a.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      emailVerified: true,
      hasPassword: false,
      onboardingCompleted: false,
    });

    // Setting a first password later is a first-time reset.
    const forgot = await server.client().post('/api/forgot-password', { email: a.email });
    expect(forgot.status).toBe(200);
    const [resetMail] = await mail.waitForMail(a.email!, RESET_SUBJECT);
    expect(resetMail!.text).toContain('welcome=true');
    const token = tokenIn(resetMail!, '/reset-password');
    const reset = await server
      .client()
      .post('/api/reset-password', { token, password: 'first-password' });
    expect(reset.body).toEqual({ success: true, isFirstTime: true });
  });

  it('applies the sign-up name rules to the provider’s names: NFC, no bidi controls, none when invisible', async () => {
    const a = account({ given_name: 'Zoe\u0308\u202E', family_name: '\u200B\u2060' });
    const browser = new Browser();
    await continueWithGoogle(browser, server, op, a.sub);
    const me = await currentUser(browser, server);
    expect(me.status).toBe(200);
    expect(me.body.firstName).toBe('Zo\u00eb');
    expect(me.body.lastName).toBeNull();
  });

  it('signs the same Google identity into the same account next time', async () => {
    const a = account();
    const first = new Browser();
    await continueWithGoogle(first, server, op, a.sub);
    const firstId = (await currentUser(first, server)).body.id;
    // The provider changed the address; the subject still identifies the account.
    op.accounts.set(a.sub, { ...a, email: `renamed-${a.email}` });
    const second = new Browser();
    const landed = await continueWithGoogle(second, server, op, a.sub);
    expect(landed.pathname).toBe('/');
    const me = await currentUser(second, server);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(firstId);
    expect(me.body.email).toBe(a.email);
  });

  it('links to an existing password account with the same verified e-mail', async () => {
    const made = await makeUser(server, { email: `linked-${Date.now()}@gmail.test` });
    expect(made.user.emailVerified).toBe(false);
    const a = account({ email: made.email.toUpperCase(), email_verified: true });
    const browser = new Browser();
    const landed = await continueWithGoogle(browser, server, op, a.sub);
    expect(landed.pathname).toBe('/');
    const me = await currentUser(browser, server);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(made.id);
    expect(me.body.emailVerified).toBe(true);
    expect(me.body.hasPassword).toBe(true);
    // The password still works.
    const login = await server
      .client()
      .post('/api/login', { email: made.email, password: made.password });
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(made.id);
  });

  it('refuses an e-mail the provider has not verified, for new and existing accounts', async () => {
    const fresh = account({ email_verified: false });
    const b1 = new Browser();
    const l1 = await continueWithGoogle(b1, server, op, fresh.sub);
    expect(errorOf(l1)).toBe(OAUTH_MESSAGES.unverified);
    expect((await currentUser(b1, server)).status).toBe(401);
    // No account was created for that address.
    expect(await findUserByEmail(server.database.db, fresh.email!)).toBeUndefined();

    const made = await makeUser(server, { email: `victim-${Date.now()}@gmail.test` });
    const squatter = account({ email: made.email, email_verified: false });
    const b2 = new Browser();
    const l2 = await continueWithGoogle(b2, server, op, squatter.sub);
    expect(errorOf(l2)).toBe(OAUTH_MESSAGES.unverified);
    expect((await currentUser(b2, server)).status).toBe(401);
    // The real account was not touched (linking would have marked the address verified).
    const me = await made.client.get('/api/user');
    expect(me.body.emailVerified).toBe(false);
  });

  it('refuses a callback whose state does not match, and a replayed callback', async () => {
    const a = account();
    const browser = new Browser();
    op.loginAs = a.sub;
    const callback = await browser.follow(`${server.url}/api/auth/google`, (next) =>
      next.pathname.startsWith('/api/auth/google/callback'),
    );
    expect(callback.searchParams.get('code')).toBeTruthy();
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    const res = await browser.get(forged.href);
    expect(res.status).toBe(302);
    const landed = new URL(res.headers.get('location')!, server.url);
    expect(errorOf(landed)).toBe(OAUTH_MESSAGES.failed);
    expect((await currentUser(browser, server)).status).toBe(401);
    // The started sign-in was used up by the refused callback: the genuine one fails too.
    const replay = await browser.get(callback.href);
    expect(errorOf(new URL(replay.headers.get('location')!, server.url))).toBe(
      OAUTH_MESSAGES.expired,
    );
    expect((await currentUser(browser, server)).status).toBe(401);
  });

  it('refuses a callback that was never started in this browser', async () => {
    const res = await new Browser().get(
      `${server.url}/api/auth/google/callback?code=abc&state=xyz`,
    );
    expect(res.status).toBe(302);
    expect(errorOf(new URL(res.headers.get('location')!, server.url))).toBe(OAUTH_MESSAGES.expired);
  });

  it('turns a provider error into /auth?error=…', async () => {
    const browser = new Browser();
    await browser.get(`${server.url}/api/auth/google`);
    const res = await browser.get(
      `${server.url}/api/auth/google/callback?error=access_denied&state=whatever`,
    );
    expect(res.status).toBe(302);
    expect(errorOf(new URL(res.headers.get('location')!, server.url))).toBe(
      OAUTH_MESSAGES.cancelled,
    );
    expect((await currentUser(browser, server)).status).toBe(401);
  });

  it('asks for PKCE (S256), state and nonce', async () => {
    const res = await new Browser().get(`${server.url}/api/auth/google`);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(op.issuer);
    expect(to.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(to.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/google/callback`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(to.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(to.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(to.searchParams.get('scope')!.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });
});

describe('a provider that keeps e-mail and names to UserInfo', () => {
  let strict: { provider: OpenIdProvider; pingme: TestServer };
  beforeAll(async () => {
    strict = await startPair(false);
  });
  afterAll(async () => {
    await strict?.pingme.stop();
    await strict?.provider.close();
  });

  it('still creates the account from the UserInfo answer', async () => {
    const a: Account = {
      sub: 'userinfo-sub',
      email: 'userinfo@gmail.test',
      email_verified: true,
      given_name: 'Uma',
      family_name: 'Info',
    };
    strict.provider.accounts.set(a.sub, a);
    const browser = new Browser();
    const landed = await continueWithGoogle(browser, strict.pingme, strict.provider, a.sub);
    expect(landed.pathname).toBe('/');
    const me = await currentUser(browser, strict.pingme);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'userinfo@gmail.test',
      firstName: 'Uma',
      lastName: 'Info',
      emailVerified: true,
    });
  });
});

describe('when sign-in is not available', () => {
  it('an unconfigured server sends /api/auth/google back to /auth with the message', async () => {
    const plain = await startTestServer();
    try {
      for (const path of ['/api/auth/google', '/api/auth/google/callback?code=a&state=b']) {
        const res = await plain.client().get(path);
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe(
          '/auth?error=Google%20sign-in%20is%20not%20configured%20on%20this%20server',
        );
      }
    } finally {
      await plain.stop();
    }
  });

  it.each([
    ['an http issuer that is not on this machine', async () => 'http://example.com'],
    ['an issuer that does not answer', async () => `http://127.0.0.1:${await freePort()}`],
  ])('%s gives /auth?error=…, not a 500', async (_name, issuer) => {
    const broken = await startTestServer({
      OIDC_ISSUER: await issuer(),
      OIDC_CLIENT_ID: CLIENT_ID,
    });
    try {
      const res = await broken.client().get('/api/auth/google');
      expect(res.status).toBe(302);
      expect(errorOf(new URL(res.headers.get('location')!, broken.url))).toBe(
        OAUTH_MESSAGES.unavailable,
      );
    } finally {
      await broken.stop();
    }
  });
});
