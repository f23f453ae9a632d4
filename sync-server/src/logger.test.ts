/**
 * The server's log (logger.ts, middleware/request-context.ts) as its operator reads it: the
 * stdout and stderr of a real server process, one JSON object per line, quiet by default, with
 * the request id every answer carries as X-Request-Id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, RELAXED_LIMITS } from '../test/harness';
import { ServerProcess, type LogEntry } from '../test/server-process';
import { UNSENT_MAIL_MESSAGE } from './services/mail';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the process has logged an entry that `match` accepts. */
async function waitForEntry(proc: ServerProcess, match: (e: LogEntry) => boolean) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = proc.logEntries().find(match);
    if (found) return found;
    await sleep(20);
  }
  throw new Error(`no such log entry in:\n${proc.log}`);
}

async function register(c: Client) {
  const res = await c.post('/api/register', {
    email: `log-${Date.now()}-${Math.random()}@example.test`,
    password: 'log-pass-123',
    firstName: 'Log',
    lastName: 'Reader',
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; email: string };
}

describe('by default (LOG_LEVEL=info, LOG_REQUESTS unset)', () => {
  let proc: ServerProcess;
  beforeAll(async () => {
    proc = new ServerProcess({ env: RELAXED_LIMITS });
    await proc.start();
  });
  afterAll(() => proc?.dispose());

  it('writes JSON lines only, and no line per request', async () => {
    const c = new Client(proc.url);
    const who = await register(c);
    for (let i = 0; i < 5; i++) expect((await c.get('/api/user')).status).toBe(200);
    expect((await c.get('/api/no-such-route')).status).toBe(404);
    // The unmailed verification link of the sign-up is the line to wait for: it comes last.
    await waitForEntry(proc, (e) => e.msg === UNSENT_MAIL_MESSAGE && e.to === who.email);
    const lines = proc.log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(proc.logEntries().filter((e) => e.msg === 'request')).toEqual([]);
  });

  it('answers every request with its own X-Request-Id, ignoring one sent without TRUST_PROXY', async () => {
    const c = new Client(proc.url);
    const first = await c.get('/healthz', { headers: { 'x-request-id': 'from-a-stranger' } });
    const second = await c.get('/api/no-such-route');
    const firstId = first.headers.get('x-request-id') ?? '';
    expect(firstId).toMatch(UUID);
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(firstId);
  });

  it('prints the link of a mail it could not send, with the recipient, as one entry', async () => {
    const c = new Client(proc.url);
    const who = await register(c);
    const entry = await waitForEntry(
      proc,
      (e) => e.msg === UNSENT_MAIL_MESSAGE && e.to === who.email,
    );
    expect(entry.level).toBe('warn');
    expect(entry.links).toEqual([expect.stringMatching(/\/verify-email\?token=[\w-]{32,}$/)]);
    expect(String(entry.text)).toContain((entry.links as string[])[0]);
  });
});

describe('LOG_REQUESTS=true behind a trusted proxy', () => {
  let proc: ServerProcess;
  beforeAll(async () => {
    proc = new ServerProcess({
      env: { ...RELAXED_LIMITS, LOG_REQUESTS: 'true', TRUST_PROXY: 'true' },
    });
    await proc.start();
  });
  afterAll(() => proc?.dispose());

  it('logs each request once with its id, route pattern, status and time, but not its query', async () => {
    const c = new Client(proc.url);
    const me = await register(c);
    const res = await c.get(`/api/users/${me.id}/profile?secret=do-not-log`, {
      headers: { 'x-request-id': 'edge-7f3a.42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('edge-7f3a.42');
    const entry = await waitForEntry(proc, (e) => e.reqId === 'edge-7f3a.42');
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: `/api/users/${me.id}/profile`,
      route: '/api/users/:id/profile',
      status: 200,
    });
    expect(typeof entry.ms).toBe('number');
    expect(proc.log).not.toContain('do-not-log');
    expect(proc.logEntries().filter((e) => e.reqId === 'edge-7f3a.42')).toHaveLength(1);
  });

  it('replaces an incoming id that is not short and plain', async () => {
    const c = new Client(proc.url);
    for (const bad of ['has space', 'x'.repeat(129), 'quote"d', '']) {
      const res = await c.get('/healthz', { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    }
  });
});

describe('LOG_LEVEL', () => {
  it('debug logs every request (at debug)', async () => {
    const proc = new ServerProcess({ env: { LOG_LEVEL: 'debug' } });
    try {
      await proc.start();
      const res = await new Client(proc.url).get('/healthz');
      const id = res.headers.get('x-request-id')!;
      const entry = await waitForEntry(proc, (e) => e.reqId === id);
      expect(entry).toMatchObject({ level: 'debug', msg: 'request', route: '/healthz' });
    } finally {
      await proc.dispose();
    }
  });

  it('warn keeps the unmailed links and drops info', async () => {
    const proc = new ServerProcess({ env: { ...RELAXED_LIMITS, LOG_LEVEL: 'warn' } });
    try {
      await proc.start();
      const who = await register(new Client(proc.url));
      await waitForEntry(proc, (e) => e.msg === UNSENT_MAIL_MESSAGE && e.to === who.email);
      expect(proc.logEntries().filter((e) => e.level === 'info' || e.level === 'debug')).toEqual(
        [],
      );
    } finally {
      await proc.dispose();
    }
  });

  it('is validated at start: an unknown level stops the server with a clear message', async () => {
    const proc = new ServerProcess({ env: { LOG_LEVEL: 'chatty' } });
    try {
      await expect(proc.start()).rejects.toThrow(/LOG_LEVEL/);
    } finally {
      await proc.dispose();
    }
  });
});
