/**
 * Web Push end to end: a real push endpoint on loopback receives what web-push sends, and the
 * test decrypts it as a browser would (RFC 8291 keys, RFC 8188 aes128gcm records).
 */
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { subscriptionsOf } from '../db/push-subscriptions';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** A push service: '/ok/…' accepts (201), '/gone/…' answers 410, '/slow/…' answers once released. */
class PushService {
  readonly received: Received[] = [];
  /** Answers of '/slow/…' requests held until the test lets them go. */
  readonly held: (() => void)[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      if (req.url?.startsWith('/gone/')) return res.writeHead(410).end();
      if (req.url?.startsWith('/slow/')) {
        this.held.push(() => res.writeHead(201).end());
        return;
      }
      res.writeHead(201).end();
    });
  });
  url = '';
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop() {
    this.server.closeAllConnections();
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** What a browser keeps for one subscription: its ECDH key pair and auth secret. */
interface BrowserKeys {
  ecdh: ECDH;
  auth: Buffer;
}

function newBrowserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16) };
}

/** RFC 8291 section 3.4 + RFC 8188 section 2: one aes128gcm record, as a browser decrypts it. */
function decrypt(keys: BrowserKeys, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  expect(record.length).toBeLessThanOrEqual(rs);

  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // Padding: the last record ends with the delimiter 0x02 followed by zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** The VAPID header: `vapid t=<ES256 JWT>, k=<public key>`; the JWT must verify with k. */
function checkVapid(authorization: string | undefined, endpointOrigin: string, publicKey: string) {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(authorization ?? '');
  expect(m).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [h, p, s] = jwt!.split('.');
  const point = Buffer.from(k!, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s!, 'base64url'),
  );
  expect(ok).toBe(true);
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  expect(claims).toMatchObject({ aud: endpointOrigin, sub: 'mailto:admin@pingme.local' });
}

let server: TestServer;
let service: PushService;
beforeAll(async () => {
  service = new PushService();
  await service.start();
  server = await startTestServer({ PUSH_ALLOW_HTTP_ENDPOINTS: 'true', PUSH_TIMEOUT_MS: '60000' });
});
afterAll(async () => {
  await server.stop();
  await service.stop();
});
beforeEach(() => {
  service.received.length = 0;
});

async function subscribe(u: MadeUser, path: string, keys = newBrowserKeys()) {
  const endpoint = `${service.url}${path}`;
  const res = await u.client.post('/api/push/subscribe', {
    endpoint,
    keys: {
      p256dh: keys.ecdh.getPublicKey().toString('base64url'),
      auth: keys.auth.toString('base64url'),
    },
    deviceId: 'phone',
  });
  expect(res.status).toBe(201);
  return { endpoint, keys, id: res.body.id as string };
}

async function promptPing(from: MadeUser, to: MadeUser) {
  const prompts = await from.client.get('/api/prompts/default');
  const prompt = prompts.body[0] as { id: string; text: string };
  const res = await from.client.post('/api/pings', { promptId: prompt.id, receiverId: to.id });
  expect(res.status).toBe(201);
  return { ping: res.body as { id: string }, prompt };
}

/** Quiet hours from an hour ago to an hour ahead, server-local time (as the notifier reads it). */
function quietNow() {
  const now = new Date();
  const hhmm = (m: number) => {
    const x = ((m % 1440) + 1440) % 1440;
    return `${String(Math.floor(x / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`;
  };
  const minutes = now.getHours() * 60 + now.getMinutes();
  return { quietHoursStart: hhmm(minutes - 60), quietHoursEnd: hhmm(minutes + 60) };
}

describe('Web Push', () => {
  it('publishes the VAPID public key', async () => {
    const res = await server.client().get('/api/push/vapid-public-key');
    expect(res.status).toBe(200);
    expect(res.body.publicKey).toBe(server.config.vapid.publicKey);
    expect(Buffer.from(res.body.publicKey, 'base64url')).toHaveLength(65);
  });

  it('pushes a new ping to each of the receiver’s devices, encrypted for that device', async () => {
    const a = await makeUser(server, { firstName: 'Ann' });
    const b = await makeUser(server, { firstName: 'Bob' });
    await makeFriends(a, b);
    const phone = await subscribe(b, `/ok/${b.id}/phone`);
    const laptop = await subscribe(b, `/ok/${b.id}/laptop`);
    await subscribe(a, `/ok/${a.id}/phone`);

    const { ping, prompt } = await promptPing(a, b);
    await server.push.idle();

    expect(service.received.map((r) => r.path).sort()).toEqual(
      [`/ok/${b.id}/laptop`, `/ok/${b.id}/phone`].sort(),
    );
    for (const sub of [phone, laptop]) {
      const req = service.received.find((r) => sub.endpoint.endsWith(r.path))!;
      expect(req.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(req.headers.ttl)).toBeGreaterThan(0);
      checkVapid(req.headers.authorization, service.url, server.config.vapid.publicKey);
      const payload = JSON.parse(decrypt(sub.keys, req.body));
      expect(payload).toEqual({
        title: 'New Ping from Ann!',
        body: prompt.text,
        url: '/',
        tag: `ping_${ping.id}`,
        pingId: ping.id,
      });
    }
  });

  it('forgets a subscription the push service answers 410 for', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    await subscribe(b, `/gone/${b.id}`);
    const kept = await subscribe(b, `/ok/${b.id}`);
    await promptPing(a, b);
    await server.push.idle();
    expect(service.received).toHaveLength(2);
    const left = await subscriptionsOf(server.database.db, b.id);
    expect(left.map((s) => s.endpoint)).toEqual([kept.endpoint]);
  });

  it('knows who has a subscription without a query per ping: subscribing, unsubscribing, and one made elsewhere', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    // Subscribed through the API: the next ping is pushed.
    const phone = await subscribe(b, `/ok/${b.id}/known`);
    await promptPing(a, b);
    await server.push.idle();
    expect(service.received.map((r) => r.path)).toEqual([`/ok/${b.id}/known`]);
    // Unsubscribed: nothing more.
    const off = await b.client.del('/api/push/subscribe', {
      raw: JSON.stringify({ endpoint: phone.endpoint }),
      headers: { 'content-type': 'application/json' },
    });
    expect(off.status).toBe(200);
    service.received.length = 0;
    await promptPing(a, b);
    await server.push.idle();
    expect(service.received).toEqual([]);
    // A subscription another server node stored (straight into the shared database) counts from
    // the next read of who has one (every minute; here at once).
    const keys = newBrowserKeys();
    await server.database.db
      .insertInto('pushSubscriptions')
      .values({
        id: `elsewhere-${b.id}`,
        userId: b.id,
        endpoint: `${service.url}/ok/${b.id}/elsewhere`,
        p256dh: keys.ecdh.getPublicKey().toString('base64url'),
        auth: keys.auth.toString('base64url'),
        deviceId: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    await server.push.refreshSubscribers();
    await promptPing(a, b);
    await server.push.idle();
    expect(service.received.map((r) => r.path)).toEqual([`/ok/${b.id}/elsewhere`]);
  });

  it('holds pushes during quiet hours, except anchor pings', async () => {
    const a = await makeUser(server, { firstName: 'Ann' });
    const b = await makeUser(server);
    await makeFriends(a, b);
    const sub = await subscribe(b, `/ok/${b.id}`);
    const quiet = await b.client.put('/api/profile/update', quietNow());
    expect(quiet.status).toBe(200);

    const held = await promptPing(a, b);
    await server.push.idle();
    expect(service.received).toHaveLength(0);
    // A push is only a hint: the ping itself reaches B's devices by the pull.
    const pulled = await b.client.get('/api/sync/pull');
    expect(pulled.body.changes).toContainEqual(
      expect.objectContaining({ entity: 'ping', id: held.ping.id, op: 'upsert' }),
    );

    // An accepted anchor between them (the anchor request itself is held too).
    const asked = await a.client.post('/api/profile/anchors', {
      friendId: b.id,
      text: 'Ping me when you land',
    });
    expect(asked.status).toBe(201);
    const accepted = await b.client.patch(`/api/profile/anchors/${asked.body.id}/respond`, {
      response: 'accept',
    });
    expect(accepted.status).toBe(200);
    const anchorPing = await a.client.post('/api/pings/custom', {
      receiverId: b.id,
      customText: 'Landed safely',
      anchorId: asked.body.id,
    });
    expect(anchorPing.status).toBe(201);
    expect(anchorPing.body.kind).toBe('anchor');
    await server.push.idle();

    expect(service.received).toHaveLength(1);
    expect(JSON.parse(decrypt(sub.keys, service.received[0]!.body))).toMatchObject({
      title: 'New Ping from Ann!',
      body: 'Landed safely',
      pingId: anchorPing.body.id,
    });
    expect(service.received[0]!.headers.urgency).toBe('high');
  });

  it('answers the send before a slow push service does', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    await subscribe(b, `/slow/${b.id}`);
    // The push service holds its answer until released: the send answers all the same.
    await promptPing(a, b);
    await vi.waitFor(() => expect(service.held).toHaveLength(1), { timeout: 15_000 });
    expect(service.received).toHaveLength(1);
    let idle = false;
    const idling = server.push.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(idle).toBe(false);
    service.held.shift()!();
    await idling;
    expect(idle).toBe(true);
  });

  it('keeps subscriptions per owner: upsert by endpoint, delete only your own', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    const mine = await subscribe(a, `/ok/${a.id}/shared-browser`);
    // The same browser signs in as B and subscribes again (its subscription, keys and all):
    // the endpoint moves to B.
    const { keys } = mine;
    const again = await b.client.post('/api/push/subscribe', {
      endpoint: mine.endpoint,
      keys: {
        p256dh: keys.ecdh.getPublicKey().toString('base64url'),
        auth: keys.auth.toString('base64url'),
      },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(mine.id);
    expect(await subscriptionsOf(server.database.db, a.id)).toEqual([]);

    const notYours = await a.client.request('DELETE', '/api/push/subscribe', {
      endpoint: mine.endpoint,
    });
    expect(notYours.status).toBe(404);
    expect(await subscriptionsOf(server.database.db, b.id)).toHaveLength(1);
    const yours = await b.client.request('DELETE', '/api/push/subscribe', {
      endpoint: mine.endpoint,
    });
    expect(yours.status).toBe(200);
    expect(await subscriptionsOf(server.database.db, b.id)).toEqual([]);
  });

  it('rejects malformed subscriptions and signed-out callers', async () => {
    const a = await makeUser(server);
    const good = newBrowserKeys();
    const body = {
      endpoint: `${service.url}/ok/x`,
      keys: {
        p256dh: good.ecdh.getPublicKey().toString('base64url'),
        auth: good.auth.toString('base64url'),
      },
    };
    expect((await server.client().post('/api/push/subscribe', body)).status).toBe(401);
    const shortKey = { ...body, keys: { ...body.keys, p256dh: 'AAAA' } };
    expect((await a.client.post('/api/push/subscribe', shortKey)).status).toBe(400);
    const badAuth = { ...body, keys: { ...body.keys, auth: 'not base64!' } };
    expect((await a.client.post('/api/push/subscribe', badAuth)).status).toBe(400);
    const notUrl = { ...body, endpoint: 'nope' };
    expect((await a.client.post('/api/push/subscribe', notUrl)).status).toBe(400);
  });
});

describe('Web Push endpoints must be https unless allowed', () => {
  it('refuses an http endpoint by default', async () => {
    const strict = await startTestServer();
    try {
      const a = await makeUser(strict);
      const keys = newBrowserKeys();
      const res = await a.client.post('/api/push/subscribe', {
        endpoint: 'http://127.0.0.1:9/push',
        keys: {
          p256dh: keys.ecdh.getPublicKey().toString('base64url'),
          auth: keys.auth.toString('base64url'),
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Push endpoints must use https');
    } finally {
      await strict.stop();
    }
  });
});
