/**
 * Password reset and e-mail verification end to end: the server sends real SMTP to an
 * in-process smtp-server on loopback, each message is parsed with mailparser, and the links
 * in it are used through HTTP like a person would.
 */
import net, { type AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  makeUser,
  RELAXED_LIMITS,
  startTestServer,
  type TestServer,
} from '../../test/harness';
import { ServerProcess } from '../../test/server-process';
import { UNSENT_MAIL_MESSAGE } from '../services/mail';
import {
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  recipients,
  startMailSink,
  tokenIn,
  type MailSink,
} from '../../test/mail-sink';

let sink: MailSink;
let server: TestServer;
let expiring: TestServer;
const PUBLIC_URL = 'http://pingme.test';

beforeAll(async () => {
  sink = await startMailSink();
  const smtpUrl = `smtp://127.0.0.1:${sink.port}`;
  [server, expiring] = await Promise.all([
    startTestServer({ SMTP_URL: smtpUrl, PUBLIC_URL }),
    startTestServer({
      SMTP_URL: smtpUrl,
      RESET_TOKEN_TTL_MINUTES: '0.0001',
      VERIFY_TOKEN_TTL_HOURS: '0.000001',
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), expiring?.stop()]);
  await sink?.close();
});

const mailsTo = (address: string, subject: string) => sink.mailsTo(address, subject);
const waitForMail = (address: string, subject: string, count = 1) =>
  sink.waitForMail(address, subject, count);

function linkIn(m: ParsedMail, path: string): string {
  const match = new RegExp(`\\S*${path}\\?token=\\S+`).exec(m.text ?? '');
  return match?.[0] ?? '';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('forgot password with mail configured', () => {
  it('mails one reset link to an existing account and answers without resetLink', async () => {
    const a = await makeUser(server);
    const res = await server.client().post('/api/forgot-password', { email: a.email });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body).not.toHaveProperty('resetLink');
    expect(typeof res.body.message).toBe('string');
    const mails = await waitForMail(a.email, RESET_SUBJECT);
    expect(mails).toHaveLength(1);
    expect(linkIn(mails[0]!, '/reset-password')).toMatch(
      new RegExp(`^${PUBLIC_URL}/reset-password\\?token=[\\w-]{32,}$`),
    );
    expect(mails[0]!.from?.text).toContain('no-reply@pingme.local');
  });

  it('answers an unknown e-mail identically and sends nothing', async () => {
    const a = await makeUser(server);
    const unknown = `nobody-${Date.now()}@example.test`;
    const forUnknown = await server.client().post('/api/forgot-password', { email: unknown });
    const forKnown = await server.client().post('/api/forgot-password', { email: a.email });
    expect(forUnknown.status).toBe(200);
    expect(forUnknown.body).toEqual(forKnown.body);
    // The known account's mail went out after the unknown request was answered.
    await waitForMail(a.email, RESET_SUBJECT);
    expect(sink.messages.filter((m) => recipients(m).includes(unknown))).toHaveLength(0);
  });
});

describe('reset password with the mailed token', () => {
  it('sets the new password once and ends every earlier session', async () => {
    const a = await makeUser(server);
    const other = server.client();
    expect((await other.post('/api/login', { email: a.email, password: a.password })).status).toBe(
      200,
    );
    expect((await a.client.get('/api/user')).status).toBe(200);

    await server.client().post('/api/forgot-password', { email: a.email });
    const [mail] = await waitForMail(a.email, RESET_SUBJECT);
    const token = tokenIn(mail!, '/reset-password');
    expect(linkIn(mail!, '/reset-password')).not.toContain('welcome=');

    const reset = await server
      .client()
      .post('/api/reset-password', { token, password: 'brand-new-pass' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, isFirstTime: false });

    // Sessions from before the reset are over.
    expect((await a.client.get('/api/user')).status).toBe(401);
    expect((await other.get('/api/user')).status).toBe(401);

    const oldPw = await server
      .client()
      .post('/api/login', { email: a.email, password: a.password });
    expect(oldPw.status).toBe(401);
    expect(oldPw.body.code).toBe('invalid_credentials');
    const newPw = await server
      .client()
      .post('/api/login', { email: a.email, password: 'brand-new-pass' });
    expect(newPw.status).toBe(200);
    expect(newPw.body.id).toBe(a.id);

    const again = await server
      .client()
      .post('/api/reset-password', { token, password: 'third-password' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('token_invalid');
    // The refused second use changed nothing.
    const stillNew = await server
      .client()
      .post('/api/login', { email: a.email, password: 'brand-new-pass' });
    expect(stillNew.status).toBe(200);
  });

  it('a later request (perhaps a stranger’s) does not cancel a link; using one ends them all', async () => {
    const a = await makeUser(server);
    await server.client().post('/api/forgot-password', { email: a.email });
    await waitForMail(a.email, RESET_SUBJECT, 1);
    await server.client().post('/api/forgot-password', { email: a.email });
    const mails = await waitForMail(a.email, RESET_SUBJECT, 2);
    const [first, second] = mails.map((m) => tokenIn(m, '/reset-password'));
    expect(first).not.toBe(second);
    const used = await server
      .client()
      .post('/api/reset-password', { token: first, password: 'another-pass' });
    expect(used.status).toBe(200);
    const other = await server
      .client()
      .post('/api/reset-password', { token: second, password: 'third-pass' });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('token_invalid');
  });

  it('refuses an expired token with token_expired', async () => {
    const a = await makeUser(expiring);
    await expiring.client().post('/api/forgot-password', { email: a.email });
    const [mail] = await waitForMail(a.email, RESET_SUBJECT);
    await sleep(20); // the token lives 6 ms on this server
    const res = await expiring.client().post('/api/reset-password', {
      token: tokenIn(mail!, '/reset-password'),
      password: 'later-pass',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('token_expired');
    expect(res.body.error).toContain('expired');
    // The password did not change.
    const login = await expiring
      .client()
      .post('/api/login', { email: a.email, password: a.password });
    expect(login.status).toBe(200);
  });

  it.each([
    [{ token: '', password: 'secret12' }, 'Reset token is missing'],
    [{ password: 'secret12' }, 'Reset token is missing'],
    [{ token: 'abc', password: '12345' }, 'Password must be at least 6 characters'],
    [{ token: 'abc' }, 'Password must be at least 6 characters'],
  ])('rejects %j with "%s"', async (body, message) => {
    const res = await server.client().post('/api/reset-password', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.error).toBe(message);
  });

  it('refuses a token that was never issued', async () => {
    const res = await server
      .client()
      .post('/api/reset-password', { token: 'x'.repeat(43), password: 'secret12' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('token_invalid');
  });
});

describe('e-mail verification', () => {
  it('mails a link at registration that verifies the address once', async () => {
    const a = await makeUser(server, { firstName: 'Vera' });
    expect(a.user.emailVerified).toBe(false);
    const [mail] = await waitForMail(a.email, VERIFY_SUBJECT);
    expect(linkIn(mail!, '/verify-email')).toMatch(
      new RegExp(`^${PUBLIC_URL}/verify-email\\?token=[\\w-]{32,}$`),
    );
    expect(mail!.text).toContain('Hi Vera');
    const token = tokenIn(mail!, '/verify-email');

    const res = await server.client().get(`/api/verify-email?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Email verified!',
      user: { email: a.email, firstName: 'Vera' },
    });
    const me = await a.client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.emailVerified).toBe(true);

    const again = await server.client().get(`/api/verify-email?token=${token}`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('token_invalid');
  });

  it.each(['/api/verify-email', '/api/verify-email?token='])(
    '%s answers 400 "No verification token provided."',
    async (path) => {
      const res = await server.client().get(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('No verification token provided.');
    },
  );

  it('resend issues a new link; the earlier one still works until one is used', async () => {
    const a = await makeUser(server);
    const [first] = await waitForMail(a.email, VERIFY_SUBJECT, 1);
    const res = await server.client().post('/api/resend-verification', { email: a.email });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe('string');
    const mails = await waitForMail(a.email, VERIFY_SUBJECT, 2);
    expect(mails).toHaveLength(2);
    const oldToken = tokenIn(first!, '/verify-email');
    const newToken = tokenIn(mails[1]!, '/verify-email');
    expect(newToken).not.toBe(oldToken);

    const old = await server.client().get(`/api/verify-email?token=${oldToken}`);
    expect(old.status).toBe(200);
    expect((await a.client.get('/api/user')).body.emailVerified).toBe(true);

    const fresh = await server.client().get(`/api/verify-email?token=${newToken}`);
    expect(fresh.status).toBe(400);
    expect(fresh.body.code).toBe('token_invalid');
  });

  it('resend answers an unknown e-mail the same way and sends nothing', async () => {
    const a = await makeUser(server);
    await waitForMail(a.email, VERIFY_SUBJECT, 1);
    const unknown = `ghost-${Date.now()}@example.test`;
    const forUnknown = await server.client().post('/api/resend-verification', { email: unknown });
    const forKnown = await server.client().post('/api/resend-verification', { email: a.email });
    expect(forUnknown.status).toBe(200);
    expect(forUnknown.body).toEqual(forKnown.body);
    await waitForMail(a.email, VERIFY_SUBJECT, 2);
    expect(sink.messages.filter((m) => recipients(m).includes(unknown))).toHaveLength(0);
  });

  it('resend sends nothing for an address that is already verified', async () => {
    const a = await makeUser(server);
    const [mail] = await waitForMail(a.email, VERIFY_SUBJECT, 1);
    await server.client().get(`/api/verify-email?token=${tokenIn(mail!, '/verify-email')}`);
    const res = await server.client().post('/api/resend-verification', { email: a.email });
    expect(res.status).toBe(200);
    // A reset mail to the same address acts as a marker that later mail would have arrived.
    await server.client().post('/api/forgot-password', { email: a.email });
    await waitForMail(a.email, RESET_SUBJECT);
    expect(mailsTo(a.email, VERIFY_SUBJECT)).toHaveLength(1);
  });

  it('refuses an expired verification token with token_expired', async () => {
    const a = await makeUser(expiring);
    const [mail] = await waitForMail(a.email, VERIFY_SUBJECT);
    await sleep(20); // the token lives under 4 ms on this server
    const res = await expiring
      .client()
      .get(`/api/verify-email?token=${tokenIn(mail!, '/verify-email')}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('token_expired');
    expect(res.body.error).toContain('expired');
  });
});

/** A loopback port nobody listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('when the mail server is down', () => {
  let broken: TestServer;
  beforeAll(async () => {
    broken = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => broken?.stop());

  it('forgot-password and resend answer the same for known and unknown e-mails, never a 500', async () => {
    const a = await makeUser(broken);
    const unknown = `nobody-${Date.now()}@example.test`;
    for (const path of ['/api/forgot-password', '/api/resend-verification']) {
      const known = await broken.client().post(path, { email: a.email });
      const other = await broken.client().post(path, { email: unknown });
      expect(known.status).toBe(200);
      expect(known.body).toEqual(other.body);
    }
  });
});

describe('without SMTP_URL (the default of npm start)', () => {
  // The real server in its own process, so the test reads the log its operator would read.
  let proc: ServerProcess;
  beforeAll(async () => {
    proc = new ServerProcess({ env: RELAXED_LIMITS });
    await proc.start();
  });
  afterAll(() => proc?.dispose());

  /** The reset links for `email` the server printed so far (JSON lines, services/mail.ts). */
  const linksInLog = (email: string) =>
    proc
      .logEntries()
      .filter((entry) => entry.msg === UNSENT_MAIL_MESSAGE && entry.to === email)
      .flatMap((entry) => /\S*\/reset-password\?token=[\w-]+/.exec(String(entry.text))?.[0] ?? []);

  async function waitForLinkInLog(email: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const [link] = linksInLog(email);
      if (link) return link;
      await sleep(20);
    }
    throw new Error(`no reset link for ${email} in the log:\n${proc.log}`);
  }

  it('never answers the reset link: the same answer for a known and an unknown e-mail', async () => {
    const c = new Client(proc.url);
    const a = await c.post('/api/register', {
      email: `victim-${Date.now()}@example.test`,
      password: 'victim-pass-1',
      firstName: 'Vic',
      lastName: 'Tim',
    });
    expect(a.status).toBe(201);
    const attacker = new Client(proc.url);
    const known = await attacker.post('/api/forgot-password', { email: a.body.email });
    const unknown = await attacker.post('/api/forgot-password', {
      email: `nobody-${Date.now()}@example.test`,
    });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.text).not.toMatch(/token|reset-password\?/);
    expect(Object.keys(known.body).sort()).toEqual(['message', 'success']);
    expect(known.body.message).toContain('ask the person who runs it');
  });

  it('prints the link to the server log, where the operator can pass it on, and it works', async () => {
    const c = new Client(proc.url);
    const email = `owner-${Date.now()}@example.test`;
    expect(
      (
        await c.post('/api/register', {
          email,
          password: 'owner-pass-1',
          firstName: 'Olga',
          lastName: 'Owner',
        })
      ).status,
    ).toBe(201);
    const res = await new Client(proc.url).post('/api/forgot-password', { email });
    expect(res.status).toBe(200);
    const link = await waitForLinkInLog(email);
    const token = new URL(link).searchParams.get('token');
    const reset = await new Client(proc.url).post('/api/reset-password', {
      token,
      password: 'plain-new-pass',
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, isFirstTime: false });
    const login = await new Client(proc.url).post('/api/login', {
      email,
      password: 'plain-new-pass',
    });
    expect(login.status).toBe(200);
    expect(login.body.email).toBe(email);
  });

  it('prints nothing for an unknown e-mail', async () => {
    const email = `nobody-${Date.now()}@example.test`;
    const known = `someone-${Date.now()}@example.test`;
    const c = new Client(proc.url);
    await c.post('/api/register', {
      email: known,
      password: 'someone-pass-1',
      firstName: 'Some',
      lastName: 'One',
    });
    await new Client(proc.url).post('/api/forgot-password', { email });
    await new Client(proc.url).post('/api/forgot-password', { email: known });
    // The known address's link was printed after the unknown one was asked for.
    await waitForLinkInLog(known);
    expect(linksInLog(email)).toEqual([]);
  });
});
