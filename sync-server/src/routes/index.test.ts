/**
 * How a request finds its route (routes/index.ts), seen from outside over real HTTP: paths match
 * whatever their case and with a trailing slash, a known path with another method is a 405 with
 * its Allow header (also for a method no route knows: the API answers no 5xx), OPTIONS lists the
 * methods, and a path no route has is a 404: the same answers whichever group of routes the path
 * belongs to. Outside the API a method no route knows is a 501.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, makeUser, startTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
let me: Client;
beforeAll(async () => {
  server = await startTestServer();
  ({ client: me } = await makeUser(server, { firstName: 'Routing' }));
});
afterAll(() => server.stop());

/** The Allow header's methods, in a fixed order. */
const allowOf = (res: { headers: Headers }) =>
  res.headers.get('allow')?.split(', ').sort().join(', ') ?? null;

/** node:http (any method) with the app's origin, as the PWA's own requests carry it. */
function raw(method: string, path: string, client = server.client('127.0.0.1')) {
  return client.request(method, path, undefined, { headers: { origin: server.url } });
}

describe('routing', () => {
  it('matches a path whatever its case, and with a trailing slash', async () => {
    const plain = await me.get('/api/user');
    expect(plain.status).toBe(200);
    for (const path of ['/API/User', '/api/USER/', '/Api/user/']) {
      const res = await me.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.id, path).toBe(plain.body.id);
    }
    expect((await me.request('HEAD', '/API/user')).status).toBe(200);
    expect((await me.get('/api/pings/UNREAD-count')).body).toEqual(
      (await me.get('/api/pings/unread-count')).body,
    );
  });

  it('answers 405 with the allowed methods for a known path and another method', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/api/pings/recent', 'GET, HEAD'],
      ['PUT', '/api/sync/batch', 'POST'],
      ['PATCH', '/api/user', 'GET, HEAD'],
      ['GET', '/api/pings/mark-all-read', 'PATCH'],
    ] as const) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(allowOf(res), `${method} ${path}`).toBe(allow);
    }
  });

  it('lists the methods of a path for OPTIONS', async () => {
    const res = await raw('OPTIONS', '/api/push/subscribe');
    expect(res.status).toBe(200);
    expect(allowOf(res)).toBe('DELETE, POST');
  });

  it('answers 405 in the API and 501 outside it for a method no route knows', async () => {
    for (const [path, allow] of [
      ['/api/pings', 'POST'],
      ['/api/Friends/', 'GET, HEAD, POST'],
      ['/api/nowhere', ''],
    ] as const) {
      const res = await raw('PROPFIND', path);
      expect(res.status, path).toBe(405);
      expect(res.body.code, path).toBe('method_not_allowed');
      expect(allowOf(res), path).toBe(allow);
    }
    for (const path of ['/', '/index.html']) {
      expect((await raw('PROPFIND', path)).status, path).toBe(501);
    }
  });

  it('answers 404 for an API path no route has', async () => {
    for (const path of ['/api/nowhere', '/api/pings/nowhere/at/all', '/api/']) {
      const res = await me.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('not_found');
    }
  });
});
