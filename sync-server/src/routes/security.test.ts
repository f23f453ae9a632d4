/**
 * Hardening seen from outside, over real HTTP (docs/security.md): cross-site request forgery,
 * security headers, cookie flags on http and behind an https proxy, body size limits per route,
 * and uploads judged by their bytes.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const EVIL = { origin: 'https://evil.example' };
const CSRF_TEXT = 'This request did not come from the PingMe app';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP answer from a raw socket (status, lower-cased headers, the body so far). */
function readAnswer(socket: net.Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let raw = '';
    const done = () => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? NaN);
      const body = raw.slice(end + 4);
      if (Number.isFinite(length) && Buffer.byteLength(body) < length) return false;
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      raw += chunk.toString('latin1');
      done();
    });
    // Our own write meeting a connection the server closed after answering (EPIPE, ECONNRESET)
    // says nothing about the answer: the close that follows judges what was read.
    let failed: Error | undefined;
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') failed = err;
      else reject(err);
    });
    socket.on('close', () => {
      if (!done()) {
        reject(new Error(`the connection closed without an answer (${failed?.message}): ${raw}`));
      }
    });
  });
}

/**
 * Announces a body of `length` bytes, sends its first kilobyte, and waits: the answer can only
 * come from a server that did not wait for the rest.
 */
async function partialRequest(
  port: number,
  method: string,
  path: string,
  length: number,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    const head = [
      `${method} ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Content-Length: ${length}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ].join('\r\n');
    const answer = readAnswer(socket);
    socket.write(head);
    socket.write(Buffer.alloc(1024, 0x20));
    return await answer;
  } finally {
    socket.destroy();
  }
}

/**
 * Announces a 6 MB body (or a chunked one, without end) and sends its first kilobyte; once the
 * answer is read and the server has ended its side, goes on sending `more` bytes of the body, as
 * a client still uploading when the answer came would, then ends its own side. Answers the
 * status, what was sent after the answer, and the socket errors met until it closed (a reset of
 * the connection), if any.
 */
async function keepSendingAfterAnswer(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  more: number,
  chunked = false,
): Promise<{ status: number; sent: number; errors: string[] }> {
  // Half open: the server's end of its side does not end ours.
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const errors: string[] = [];
  socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
  const closed = new Promise((r) => socket.once('close', r));
  const serverEnded = new Promise((r) => socket.once('end', r));
  try {
    const answer = readAnswer(socket);
    socket.write(
      [
        `${method} ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        chunked ? 'Transfer-Encoding: chunked' : 'Content-Length: 6000000',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n'),
    );
    const frame = (bytes: Buffer) =>
      chunked
        ? Buffer.concat([
            Buffer.from(`${bytes.length.toString(16)}\r\n`),
            bytes,
            Buffer.from('\r\n'),
          ])
        : bytes;
    socket.write(frame(Buffer.alloc(1024, 0x20)));
    const { status } = await answer;
    await serverEnded;
    // Time for a server that closes at once to have done so: what follows would meet a reset.
    await new Promise((r) => setTimeout(r, 50));
    const chunk = frame(Buffer.alloc(64 * 1024, 0x20));
    let sent = 0;
    while (sent < more && !socket.destroyed) {
      sent += chunk.length;
      if (!socket.write(chunk)) {
        await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
      }
    }
    socket.end();
    await closed;
    return { status, sent, errors };
  } finally {
    socket.destroy();
  }
}

/** What endlessUpload would send at most, were it never answered. */
const ENDLESS_LIMIT = 64 * 1024 * 1024;

/**
 * Streams a chunked upload (no Content-Length) 64 KB at a time until the server answers;
 * answers that answer and how many bytes had been handed to the socket by then.
 */
async function endlessUpload(
  port: number,
  path: string,
  cookie: string,
): Promise<RawAnswer & { sent: number }> {
  const socket = net.connect(port, '127.0.0.1');
  let answered = false;
  let sent = 0;
  try {
    const answer = readAnswer(socket).finally(() => (answered = true));
    socket.write(
      [
        `PUT ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Transfer-Encoding: chunked',
        'Content-Type: image/jpeg',
        `Cookie: ${cookie}`,
        '',
        '',
      ].join('\r\n'),
    );
    // Stop writing at the answer's first byte; the turn of the event loop after each chunk lets
    // that byte be read before the next write would meet the closed connection.
    let heard = false;
    socket.once('data', () => (heard = true));
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    socket.on('error', () => undefined);
    while (!answered && !heard && !socket.destroyed && sent < ENDLESS_LIMIT) {
      await new Promise((r) => setImmediate(r));
      if (heard || socket.destroyed) break;
      sent += chunk.length;
      if (!socket.write(frame)) {
        await Promise.race([
          new Promise((r) => socket.once('drain', r)),
          new Promise((r) => socket.once('close', r)),
          answer.catch(() => undefined),
        ]);
      }
    }
    return { ...(await answer), sent };
  } finally {
    socket.destroy();
  }
}

/** An upload whose headers and first byte are sent; `finish` sends the rest and reads the answer. */
async function openUpload(port: number, cookie: string, bytes: Buffer) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const answer = readAnswer(socket);
  socket.write(
    [
      'PUT /api/profile/photo HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Content-Length: ${bytes.length}`,
      'Content-Type: image/png',
      `Cookie: ${cookie}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(bytes.subarray(0, 1));
  return {
    async finish() {
      socket.write(bytes.subarray(1));
      try {
        return await answer;
      } finally {
        socket.destroy();
      }
    },
  };
}

/** Waits (polling) until `condition` holds; the test's own timeout bounds it. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

/** A request with any Host header (fetch does not let a caller choose it). */
function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const db = () => server.database.db;

async function promptCount(userId: string) {
  const rows = await db()
    .selectFrom('prompts')
    .select('id')
    .where('ownerId', '=', userId)
    .execute();
  return rows.length;
}

describe('CSRF: mutating requests must come from the app’s own origin', () => {
  let a: MadeUser;
  let b: MadeUser;
  beforeAll(async () => {
    a = await makeUser(server);
    b = await makeUser(server);
    await makeFriends(a, b);
  });

  it('refuses a forged cross-site POST with 403 and changes nothing', async () => {
    const before = await promptCount(a.id);
    const res = await a.client.post(
      '/api/prompts',
      { text: 'Ping me when evil wins' },
      { headers: EVIL },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'This request did not come from the PingMe app',
      code: 'forbidden',
    });
    expect(await promptCount(a.id)).toBe(before);
  });

  it.each([
    ['PUT', '/api/profile/update', { bio: 'pwned' }],
    ['PATCH', '/api/user/onboarding', { step: 3 }],
    ['DELETE', '/api/prompts/00000000-0000-7000-8000-000000000001', undefined],
    ['POST', '/api/logout', {}],
    ['POST', '/api/login', { email: 'x@y.test', password: 'whatever1' }],
    // The router matches paths case-insensitively: so does the check (it covers every path).
    ['POST', '/API/PROMPTS', { text: 'shouting' }],
  ])('%s %s from another site is 403', async (method, path, body) => {
    const res = await a.client.request(method, path, body, { headers: EVIL });
    expect(res.status).toBe(403);
    expect((await a.client.get('/api/user')).body.bio).not.toBe('pwned');
    expect((await a.client.get('/api/user')).status).toBe(200);
  });

  it.each([
    ['Origin: null (sandboxed frame)', { origin: 'null' }],
    ['a sibling subdomain', { origin: 'https://app.pingme.example.evil' }],
    ['the same host on another port', { origin: 'http://127.0.0.1:1' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site without Origin', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s', async (_name, headers) => {
    const res = await a.client.post('/api/prompts', { text: 'x' }, { headers });
    expect(res.status).toBe(403);
  });

  it.each([
    ['the request’s own origin', () => ({ origin: server.url })],
    ['Sec-Fetch-Site: same-origin', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['Sec-Fetch-Site: none (typed by the person)', () => ({ 'sec-fetch-site': 'none' })],
    ['no Origin and no Sec-Fetch-Site (curl, scripts, tests)', () => ({})],
  ])('allows %s', async (_name, headers) => {
    const res = await a.client.post(
      '/api/prompts',
      { text: 'Ping me when allowed' },
      {
        headers: headers(),
      },
    );
    expect(res.status).toBe(201);
  });

  it('allows PUBLIC_URL’s origin when the app is reached through another address', async () => {
    const other = await startTestServer({ PUBLIC_URL: 'https://pingme.example' });
    try {
      const res = await other
        .client()
        .post(
          '/api/register',
          { email: 'pub@example.test', password: 'secret12', firstName: 'P', lastName: 'U' },
          { headers: { origin: 'https://pingme.example' } },
        );
      expect(res.status).toBe(201);
    } finally {
      await other.stop();
    }
  });

  it('refuses Host: evil.example with Origin: http://evil.example (the Host header is not trusted)', async () => {
    const before = await promptCount(a.id);
    const res = await rawRequest(
      server.port,
      'POST',
      '/api/prompts',
      {
        host: 'evil.example',
        origin: 'http://evil.example',
        cookie: a.client.cookieHeader,
        'content-type': 'application/json',
      },
      JSON.stringify({ text: 'Ping me when rebound' }),
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({ error: CSRF_TEXT, code: 'forbidden' });
    expect(await promptCount(a.id)).toBe(before);
  });

  it('allows the request’s own loopback or LAN IP origin only while PUBLIC_URL is loopback', async () => {
    const body = JSON.stringify({ text: 'Ping me from the LAN' });
    const lan = {
      host: `192.168.1.20:${server.port}`,
      origin: `http://192.168.1.20:${server.port}`,
    };
    const headers = { cookie: a.client.cookieHeader, 'content-type': 'application/json' };
    // The default PUBLIC_URL (http://localhost:PORT): a phone on the LAN reaches the server by IP.
    expect(
      (await rawRequest(server.port, 'POST', '/api/prompts', { ...headers, ...lan }, body)).status,
    ).toBe(201);
    const hosted = await startTestServer({ PUBLIC_URL: 'https://pingme.example' });
    try {
      const b = await makeUser(hosted);
      const res = await rawRequest(
        hosted.port,
        'POST',
        '/api/prompts',
        {
          cookie: b.client.cookieHeader,
          'content-type': 'application/json',
          host: `127.0.0.1:${hosted.port}`,
          origin: `http://127.0.0.1:${hosted.port}`,
        },
        body,
      );
      expect(res.status).toBe(403);
    } finally {
      await hosted.stop();
    }
  });

  it('allows the origins listed in ALLOWED_ORIGINS, and no others', async () => {
    const hosted = await startTestServer({
      PUBLIC_URL: 'https://pingme.example',
      ALLOWED_ORIGINS: 'https://m.pingme.example, https://pingme.example:8443',
    });
    try {
      const c = hosted.client();
      const register = (origin: string, n: number) =>
        c.post(
          '/api/register',
          {
            email: `origins${n}@example.test`,
            password: 'secret12',
            firstName: 'O',
            lastName: 'K',
          },
          { headers: { origin } },
        );
      expect((await register('https://m.pingme.example', 1)).status).toBe(201);
      expect((await register('https://pingme.example:8443', 2)).status).toBe(201);
      expect((await register('https://other.pingme.example', 3)).status).toBe(403);
    } finally {
      await hosted.stop();
    }
  });

  it('GET stays open to any origin (reads change nothing)', async () => {
    const res = await a.client.get('/api/user', { headers: EVIL });
    expect(res.status).toBe(200);
  });

  it('keeps the batch working: inner entries run; a forged batch runs none', async () => {
    const before = await promptCount(a.id);
    const entries = [
      {
        idempotencyKey: 'csrf-batch-1',
        method: 'POST',
        path: '/api/prompts',
        body: { text: 'b1' },
      },
      {
        idempotencyKey: 'csrf-batch-2',
        method: 'POST',
        path: '/api/prompts',
        body: { text: 'b2' },
      },
    ];
    const forged = await a.client.post('/api/sync/batch', { entries }, { headers: EVIL });
    expect(forged.status).toBe(403);
    expect(await promptCount(a.id)).toBe(before);
    const own = await a.client.post(
      '/api/sync/batch',
      { entries },
      { headers: { origin: server.url, 'sec-fetch-site': 'same-origin' } },
    );
    expect(own.status).toBe(200);
    expect(own.body.results.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    expect(await promptCount(a.id)).toBe(before + 2);
  });
});

describe('security headers on every response', () => {
  const expectHeaders = (h: Headers) => {
    const csp = h.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // No inline or eval'd script, ever.
    expect(csp.match(/script-src[^;]*/)?.[0]).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toMatch(/connect-src 'self' ws:\/\/[^ ;]+/);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('permissions-policy')).toContain('camera=()');
    expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
  };

  it.each([
    ['the app shell', 'GET', '/'],
    ['a client route', 'GET', '/friends'],
    ['an API read', 'GET', '/api/prompts/default'],
    ['a 401', 'GET', '/api/user'],
    ['an unknown API route', 'GET', '/api/nope'],
    ['a 400', 'POST', '/api/login'],
    ['a 403 (CSRF)', 'POST', '/api/prompts'],
  ])('%s (%s %s)', async (_name, method, path) => {
    const headers: Record<string, string> =
      path === '/api/prompts' ? { origin: 'https://evil.example' } : {};
    const res = await server.client().request(method, path, method === 'POST' ? {} : undefined, {
      headers,
    });
    expectHeaders(res.headers);
  });

  it('names the ws origin of the address the app was reached by in connect-src', async () => {
    const res = await server.client().get('/');
    expect(res.headers.get('content-security-policy')).toContain(`ws://127.0.0.1:${server.port}`);
  });

  it('sends no Strict-Transport-Security over plain http', async () => {
    expect((await server.client().get('/')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('session cookie flags', () => {
  const register = (s: TestServer, headers: Record<string, string> = {}) =>
    s.client().post(
      '/api/register',
      {
        email: `cookie-${Date.now()}-${Math.random()}@example.test`,
        password: 'secret12',
        firstName: 'C',
        lastName: 'K',
      },
      { headers },
    );
  const sessionCookie = (res: { headers: Headers }) =>
    res.headers.getSetCookie().find((c) => c.startsWith('pingme.sid=')) ?? '';

  it('plain http on localhost: HttpOnly, SameSite=Lax, Path=/, not Secure', async () => {
    const res = await register(server);
    const c = sessionCookie(res);
    expect(c).toMatch(/httponly/i);
    expect(c).toMatch(/samesite=lax/i);
    expect(c).toMatch(/path=\//i);
    expect(c).not.toMatch(/;\s*secure/i);
  });

  it('behind an https proxy (TRUST_PROXY=true, X-Forwarded-Proto: https, https PUBLIC_URL): Secure', async () => {
    const proxied = await startTestServer({
      TRUST_PROXY: 'true',
      PUBLIC_URL: 'https://pingme.example',
    });
    try {
      const res = await register(proxied, {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'pingme.example',
        origin: 'https://pingme.example',
      });
      expect(res.status).toBe(201);
      const c = sessionCookie(res);
      expect(c).toMatch(/;\s*secure/i);
      expect(c).toMatch(/httponly/i);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      // The session works on the next request through the proxy.
      const client = proxied.client();
      const signIn = await client.post(
        '/api/login',
        { email: res.body.email, password: 'secret12' },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(signIn.status).toBe(200);
      expect((await client.get('/api/user')).status).toBe(200);
    } finally {
      await proxied.stop();
    }
  });

  it('https PUBLIC_URL without TRUST_PROXY: still Secure (and no error for the plain-http hop)', async () => {
    const s = await startTestServer({ PUBLIC_URL: 'https://pingme.example' });
    try {
      const res = await register(s);
      expect(res.status).toBe(201);
      expect(sessionCookie(res)).toMatch(/;\s*secure/i);
    } finally {
      await s.stop();
    }
  });

  it('ignores X-Forwarded-Proto unless TRUST_PROXY is set', async () => {
    const res = await register(server, { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(res)).not.toMatch(/;\s*secure/i);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('body size limits per route', () => {
  let a: MadeUser;
  beforeAll(async () => {
    a = await makeUser(server);
  });
  const big = (bytes: number) => 'x'.repeat(bytes);

  it('64 KB for ordinary routes: 413 above, and nothing is created', async () => {
    const before = await promptCount(a.id);
    const res = await a.client.post('/api/prompts', { text: 'ok', pad: big(70 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'The request body is too large', code: 'payload_too_large' });
    expect(await promptCount(a.id)).toBe(before);
    // Under the limit the same route answers its own validation instead.
    expect((await a.client.post('/api/prompts', { text: 'ok', pad: big(1024) })).status).toBe(400);
  });

  it('64 KB for the profile and setup routes too: the 8 MB JSON path is gone', async () => {
    for (const [method, path] of [
      ['PUT', '/api/profile/update'],
      ['POST', '/api/user/complete-onboarding'],
    ] as const) {
      const res = await a.client.request(method, path, { bio: big(1024 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
    }
    expect((await a.client.get('/api/user')).body.bio).toBeNull();
  });

  it('1 MB for the batch: 100 KB is read, 1.5 MB is 413', async () => {
    const entry = (i: number, pad: number) => ({
      idempotencyKey: `size-${i}`,
      method: 'POST',
      path: '/api/prompts',
      body: { text: `t${i}`, pad: big(pad) },
    });
    const ok = await a.client.post('/api/sync/batch', { entries: [entry(1, 100 * 1024)] });
    expect(ok.status).toBe(200);
    // The entry itself is over its own route's 64 KB when replayed inside.
    expect(ok.body.results[0].status).toBe(413);
    const tooBig = await a.client.post('/api/sync/batch', {
      entries: [entry(2, 1536 * 1024)],
    });
    expect(tooBig.status).toBe(413);
  });
});

describe('no body is read before the session is checked (audit 3)', () => {
  let a: MadeUser;
  beforeAll(async () => {
    a = await makeUser(server);
  });
  const ALMOST_8_MB = 7_900_000;

  it.each([
    ['PUT', '/api/profile/update'],
    ['POST', '/api/user/complete-onboarding'],
    ['POST', '/api/sync/batch'],
    ['PUT', '/api/profile/photo'],
  ])(
    'answers %s %s without a cookie 401 after 1 KB of an announced 7.9 MB body, and closes',
    async (method, path) => {
      const res = await partialRequest(server.port, method, path, ALMOST_8_MB, {
        'content-type': path.endsWith('photo') ? 'image/jpeg' : 'application/json',
      });
      // Answered while the client had sent 1 KB and was waiting: nothing more was read.
      expect(res.status).toBe(401);
      expect(res.headers.connection).toBe('close');
    },
    15_000,
  );

  it('refuses a signed-in 7.9 MB JSON body at once (413): no route reads more than 64 KB of JSON', async () => {
    const res = await partialRequest(server.port, 'PUT', '/api/profile/update', ALMOST_8_MB, {
      'content-type': 'application/json',
      cookie: a.client.cookieHeader,
    });
    expect(res.status).toBe(413);
  }, 15_000);

  it('refuses a photo whose Content-Length is over 5 MB before reading it (413)', async () => {
    const res = await partialRequest(server.port, 'PUT', '/api/profile/photo', 6_000_000, {
      'content-type': 'image/jpeg',
      cookie: a.client.cookieHeader,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      error: 'File too large - Please select an image smaller than 5MB',
      code: 'payload_too_large',
    });
    expect(res.headers.connection).toBe('close');
  }, 15_000);

  it.each([
    ['a 413', 'PUT', '/api/profile/photo', true, 413],
    ['a 401', 'PUT', '/api/profile/update', false, 401],
  ])(
    'after %s, reads what the client was still sending, so it gets the answer and no reset',
    async (_, method, path, signedIn, status) => {
      const res = await keepSendingAfterAnswer(
        server.port,
        method,
        path,
        {
          'content-type': path.endsWith('photo') ? 'image/jpeg' : 'application/json',
          ...(signedIn ? { cookie: a.client.cookieHeader } : {}),
        },
        2 * 1024 * 1024,
      );
      expect(res.status).toBe(status);
      expect(res.sent).toBeGreaterThanOrEqual(2 * 1024 * 1024);
      // Closed without a reset: a server that closes at once with bytes unread resets it.
      expect(res.errors).toEqual([]);
    },
    15_000,
  );

  it('stops reading a client that never stops after the answer (LINGER_MAX_BYTES, LINGER_MS)', async () => {
    const res = await keepSendingAfterAnswer(
      server.port,
      'PUT',
      '/api/profile/update',
      { 'content-type': 'application/json' },
      ENDLESS_LIMIT,
      true,
    );
    expect(res.status).toBe(401);
    expect(res.sent).toBeLessThan(ENDLESS_LIMIT);
    expect(res.errors.length).toBeGreaterThan(0);
  }, 30_000);

  it('abandons a photo sent without a length as soon as it passes 5 MB', async () => {
    const res = await endlessUpload(server.port, '/api/profile/photo', a.client.cookieHeader);
    expect(res.status).toBe(413);
    // The client kept writing until the answer came: far less than it would have sent.
    expect(res.sent).toBeLessThan(ENDLESS_LIMIT);
  }, 30_000);
});

describe('large uploads at once are capped (UPLOAD_MAX_CONCURRENT)', () => {
  it('answers the upload beyond the cap 503 with Retry-After, and takes uploads again once they end', async () => {
    const s = await startTestServer({ UPLOAD_MAX_CONCURRENT: '2' });
    try {
      const u = await makeUser(s);
      const cookie = u.client.cookieHeader;
      const png = PNG_1PX;
      // Which uploads the server is reading (a reader attached to the request stream).
      const uploads: http.IncomingMessage[] = [];
      s.http.on('request', (req: http.IncomingMessage) => {
        if (req.url === '/api/profile/photo') uploads.push(req);
      });
      const reading = () => uploads.filter((r) => r.listenerCount('data') > 0).length;
      // Two uploads under way: their headers are in, their bodies still coming.
      const slow = [await openUpload(s.port, cookie, png), await openUpload(s.port, cookie, png)];
      await until(() => reading() === 2);
      const third = await u.client.request('PUT', '/api/profile/photo', undefined, {
        raw: png,
        headers: { 'content-type': 'image/png' },
      });
      expect(third.status).toBe(503);
      expect(third.body).toEqual({
        error: 'The server is handling many uploads right now. Please try again in a moment.',
        code: 'server_busy',
      });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      // The two finish; then the next upload is taken.
      for (const up of slow) expect((await up.finish()).status).toBe(200);
      const fourth = await u.client.request('PUT', '/api/profile/photo', undefined, {
        raw: png,
        headers: { 'content-type': 'image/png' },
      });
      expect(fourth.status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

describe('uploads are judged by their bytes, not their name or declared type', () => {
  it('refuses an SVG with a script declared as image/png, and stores nothing', async () => {
    const a = await makeUser(server);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const res = await a.client.request('PUT', '/api/profile/photo', undefined, {
      raw: svg,
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Please choose an image file (JPG, PNG, GIF).');
    expect((await a.client.get('/api/user')).body.profileImageUrl).toBeNull();
  });
});
