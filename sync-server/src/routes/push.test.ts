/**
 * POST /api/push/subscribe when the endpoint is already stored (docs/api.md "Web Push",
 * docs/security.md): a browser that changes hands brings its subscription's keys along and the
 * endpoint becomes the new person's; the URL alone with other keys takes nothing.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, startTestServer, type MadeUser, type TestServer } from '../../test/harness';
import { PUSH_ENDPOINT_TAKEN } from './push';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Keys as PushSubscription.getKey() gives them: a P-256 point and a 16-byte secret. */
function keys() {
  return {
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

async function stored(endpoint: string) {
  return server.database.db
    .selectFrom('pushSubscriptions')
    .select(['userId', 'p256dh', 'auth'])
    .where('endpoint', '=', endpoint)
    .execute();
}

describe('POST /api/push/subscribe with an endpoint already stored', () => {
  let ada: MadeUser;
  let bo: MadeUser;
  let endpoint: string;
  let adaKeys: ReturnType<typeof keys>;

  beforeAll(async () => {
    ada = await makeUser(server, { firstName: 'Ada' });
    bo = await makeUser(server, { firstName: 'Bo' });
    endpoint = `https://push.example.test/send/${randomBytes(12).toString('hex')}`;
    adaKeys = keys();
    const res = await ada.client.post('/api/push/subscribe', { endpoint, keys: adaKeys });
    expect(res.status).toBe(201);
  });

  it('another person with the URL but other keys: 409, and the subscription stays as it was', async () => {
    const res = await bo.client.post('/api/push/subscribe', { endpoint, keys: keys() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: PUSH_ENDPOINT_TAKEN, code: 'conflict' });
    expect(await stored(endpoint)).toEqual([{ userId: ada.id, ...adaKeys }]);
  });

  it('the owner refreshing their own endpoint with new keys: 200, the new keys kept', async () => {
    const fresh = keys();
    const res = await ada.client.post('/api/push/subscribe', { endpoint, keys: fresh });
    expect(res.status).toBe(200);
    expect(await stored(endpoint)).toEqual([{ userId: ada.id, ...fresh }]);
    adaKeys = fresh;
  });

  it('the same browser signed in as someone else (same keys): 200, the endpoint is now theirs', async () => {
    const res = await bo.client.post('/api/push/subscribe', { endpoint, keys: adaKeys });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ endpoint });
    expect(await stored(endpoint)).toEqual([{ userId: bo.id, ...adaKeys }]);
    // Ada no longer owns it: her unsubscribe of it is the 404 of an unknown endpoint.
    const gone = await ada.client.request('DELETE', '/api/push/subscribe', { endpoint });
    expect(gone.status).toBe(404);
  });
});
