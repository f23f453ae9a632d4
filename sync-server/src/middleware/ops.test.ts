/**
 * Health, readiness and metrics (middleware/ops.ts, metrics.ts): what a platform and a
 * Prometheus scraper get, on a real server with a real SQLite file.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** The value of one sample of Prometheus' text format, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('GET /healthz and GET /readyz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('answers alive and ready, never cached', async () => {
    const health = await server.client().get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('is not ready (503) while a migration is not applied, and alive all the same', async () => {
    const db = server.database.sqlite;
    const last = db
      .prepare('SELECT name, timestamp FROM kysely_migration ORDER BY name DESC LIMIT 1')
      .get() as { name: string; timestamp: string };
    db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(last.name);
    try {
      const ready = await server.client().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.code).toBe('unavailable');
      expect(ready.body.error).toContain(last.name);
      expect((await server.client().get('/healthz')).status).toBe(200);
    } finally {
      db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
        last.name,
        last.timestamp,
      );
    }
    expect((await server.client().get('/readyz')).status).toBe(200);
  });

  it('is not ready (503) while shutting down', async () => {
    server.lifecycle.draining = true;
    try {
      const ready = await server.client().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: 'The server is shutting down', code: 'unavailable' });
    } finally {
      server.lifecycle.draining = false;
    }
  });

  it('is not ready (503) when the database does not answer; /healthz does not ask it', async () => {
    const broken = await startTestServer();
    try {
      broken.database.sqlite.close();
      const ready = await broken.client().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: 'The database does not answer', code: 'unavailable' });
      expect((await broken.client().get('/healthz')).status).toBe(200);
    } finally {
      await broken.stop();
    }
  });
});

describe('GET /metrics', () => {
  it('is off without METRICS_TOKEN or METRICS_PORT: 404, not the app', async () => {
    const server = await startTestServer();
    try {
      const res = await server.client().get('/metrics', { headers: bearer });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(res.text).not.toContain('pingme_');
    } finally {
      await server.stop();
    }
  });

  it('records no request or statement while nothing can read them', async () => {
    const server = await startTestServer();
    try {
      const a = await makeUser(server);
      const b = await makeUser(server);
      await makeFriends(a, b);
      expect((await a.client.get(`/api/users/${b.id}/profile`)).status).toBe(200);
      const text = await server.metrics.registry.metrics();
      for (const name of [
        'pingme_http_requests_total',
        'pingme_http_request_duration_seconds_count',
        'pingme_db_query_duration_seconds_count',
      ]) {
        expect(sample(text, name), name).toBeUndefined();
      }
      expect(server.metrics.writeStatements).toBe(0);
    } finally {
      await server.stop();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let server: TestServer;
    let service: PushService;
    beforeAll(async () => {
      service = await PushService.start();
      server = await startTestServer({ METRICS_TOKEN: TOKEN, PUSH_ALLOW_HTTP_ENDPOINTS: 'true' });
    });
    afterAll(async () => {
      await server.stop();
      await service.stop();
    });
    const scrape = async () => {
      const res = await server.client().get('/metrics', { headers: bearer });
      expect(res.status).toBe(200);
      return res;
    };

    it('refuses a missing or wrong token with 401', async () => {
      const none = await server.client().get('/metrics');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('unauthorized');
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const wrong = await server.client().get('/metrics', {
        headers: { authorization: `Bearer ${TOKEN}x` },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.text).not.toContain('pingme_');
    });

    it('counts requests by route pattern and status, never by the path with its ids', async () => {
      const a = await makeUser(server);
      const b = await makeUser(server);
      await makeFriends(a, b);
      for (let i = 0; i < 3; i++) {
        expect((await a.client.get(`/api/users/${b.id}/profile`)).status).toBe(200);
      }
      const missing = randomUUID();
      expect((await a.client.get(`/api/users/${missing}/profile`)).status).toBe(404);

      const res = await scrape();
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const route = { method: 'GET', route: '/api/users/:id/profile' };
      expect(sample(res.text, 'pingme_http_requests_total', { ...route, status: '200' })).toBe(3);
      expect(sample(res.text, 'pingme_http_requests_total', { ...route, status: '404' })).toBe(1);
      expect(
        sample(res.text, 'pingme_http_request_duration_seconds_count', { ...route, status: '200' }),
      ).toBe(3);
      expect(
        sample(res.text, 'pingme_http_request_duration_seconds_bucket', {
          ...route,
          status: '200',
          le: '+Inf',
        }),
      ).toBe(3);
      expect(res.text).not.toContain(b.id);
      expect(res.text).not.toContain(missing);
    });

    it('counts open /ws sockets', async () => {
      const a = await makeUser(server);
      const sockets = await Promise.all([openSocket(a), openSocket(a)]);
      expect(sample((await scrape()).text, 'pingme_ws_sockets_open')).toBe(2);
      await Promise.all(sockets.map(closeSocket));
      // The hub forgets a socket when its close completes on the server side.
      const deadline = Date.now() + 10_000;
      let open = sample((await scrape()).text, 'pingme_ws_sockets_open');
      while (open !== 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        open = sample((await scrape()).text, 'pingme_ws_sockets_open');
      }
      expect(open).toBe(0);
    });

    it('records the size of each outbox batch', async () => {
      const a = await makeUser(server);
      const before = await scrape();
      const sum0 = sample(before.text, 'pingme_sync_batch_entries_sum') ?? 0;
      const count0 = sample(before.text, 'pingme_sync_batch_entries_count') ?? 0;
      const entries = ['one', 'two', 'three'].map((text) => ({
        idempotencyKey: randomUUID(),
        method: 'POST',
        path: '/api/prompts',
        body: { text: `Ping me when ${text}` },
      }));
      const res = await a.client.post('/api/sync/batch', { entries });
      expect(res.status).toBe(200);
      const after = await scrape();
      expect(sample(after.text, 'pingme_sync_batch_entries_sum')! - sum0).toBe(3);
      expect(sample(after.text, 'pingme_sync_batch_entries_count')! - count0).toBe(1);
    });

    it('counts Web Push results by outcome', async () => {
      const a = await makeUser(server);
      const b = await makeUser(server);
      await makeFriends(a, b);
      await subscribe(b, `${service.url}/ok/${b.id}`);
      await subscribe(b, `${service.url}/gone/${b.id}`);
      const prompt = (await a.client.get('/api/prompts/default')).body[0] as { id: string };
      const sent = await a.client.post('/api/pings', { promptId: prompt.id, receiverId: b.id });
      expect(sent.status).toBe(201);
      await server.push.idle();
      const text = (await scrape()).text;
      expect(sample(text, 'pingme_push_results_total', { outcome: 'sent' })).toBe(1);
      expect(sample(text, 'pingme_push_results_total', { outcome: 'gone' })).toBe(1);
    });

    it('counts session lookups answered from memory, and says the sessions kept are in use', async () => {
      const a = await makeUser(server);
      const before = await scrape();
      const hits0 = sample(before.text, 'pingme_session_cache_lookups_total', { result: 'hit' })!;
      // The first request also marks the person active (a write that drops them); then the
      // second reads them again and keeps them, and the rest are answered from memory.
      for (let i = 0; i < 5; i++) expect((await a.client.get('/api/user')).status).toBe(200);
      const after = (await scrape()).text;
      expect(
        sample(after, 'pingme_session_cache_lookups_total', { result: 'hit' })! - hits0,
      ).toBeGreaterThanOrEqual(3);
      expect(
        sample(after, 'pingme_session_cache_lookups_total', { result: 'miss' }),
      ).toBeGreaterThan(0);
      expect(sample(after, 'pingme_session_cache_in_use')).toBe(1);
    });

    it('counts groups of writes and the writes they held, and how many may run at once', async () => {
      const a = await makeUser(server);
      const before = (await scrape()).text;
      const groups0 = sample(before, 'pingme_write_groups_total')!;
      const writes0 = sample(before, 'pingme_write_group_writes_total')!;
      const made = await Promise.all(
        ['one', 'two', 'three'].map((text) =>
          a.client.post('/api/prompts', { text: `Ping me when ${text}` }),
        ),
      );
      expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
      const after = (await scrape()).text;
      expect(sample(after, 'pingme_write_group_writes_total')! - writes0).toBe(3);
      const groups = sample(after, 'pingme_write_groups_total')! - groups0;
      expect(groups).toBeGreaterThanOrEqual(1);
      expect(groups).toBeLessThanOrEqual(3);
      expect(sample(after, 'pingme_write_groups_running')).toBe(0);
      // SQLite: one group at a time.
      expect(sample(after, 'pingme_write_groups_max')).toBe(1);
    });

    it('times database statements by kind, and exposes the process figures', async () => {
      await makeUser(server);
      const text = (await scrape()).text;
      expect(
        sample(text, 'pingme_db_query_duration_seconds_count', { kind: 'select' }),
      ).toBeGreaterThan(0);
      expect(
        sample(text, 'pingme_db_query_duration_seconds_count', { kind: 'insert' }),
      ).toBeGreaterThan(0);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    });
  });

  it('METRICS_PORT serves them on a port of their own, and the app port keeps answering 404', async () => {
    const server = await startTestServer({ METRICS_PORT: '0' });
    try {
      expect(server.metricsPort).toBeGreaterThan(0);
      const made = await makeUser(server);
      expect((await made.client.get('/api/user')).status).toBe(200);
      const base = `http://127.0.0.1:${server.metricsPort}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('pingme_http_requests_total');
      // Readable there, so requests and statements are recorded without a token too.
      expect(
        sample(text, 'pingme_http_requests_total', {
          method: 'GET',
          route: '/api/user',
          status: '200',
        }),
      ).toBe(1);
      expect(
        sample(text, 'pingme_db_query_duration_seconds_count', { kind: 'insert' }),
      ).toBeGreaterThan(0);
      expect((await fetch(`${base}/healthz`)).status).toBe(404);
      expect((await server.client().get('/metrics')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('METRICS_PORT with METRICS_TOKEN wants the token there too', async () => {
    const server = await startTestServer({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    try {
      const url = `http://127.0.0.1:${server.metricsPort}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: bearer })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

async function openSocket(u: MadeUser): Promise<WebSocket> {
  const ws = new WebSocket(u.client.baseUrl.replace(/^http/, 'ws') + '/ws', {
    headers: { cookie: u.client.cookieHeader },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

function closeSocket(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close();
  });
}

async function subscribe(u: MadeUser, endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const res = await u.client.post('/api/push/subscribe', {
    endpoint,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
    deviceId: endpoint,
  });
  expect(res.status).toBe(201);
}

/** A push service on loopback: '/ok/…' takes the push (201), '/gone/…' answers 410. */
class PushService {
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}
  static async start(): Promise<PushService> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.url?.startsWith('/gone/') ? 410 : 201).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return new PushService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  stop() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}
