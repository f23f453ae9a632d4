/**
 * API answers over 1 KB travel compressed when the client accepts it (middleware/compress.ts),
 * and the built PWA's files say which encoding they vary by (middleware/static.ts). Raw HTTP
 * (node:http), so the bytes on the wire are what is checked, not what fetch decoded.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { COMPRESS_MIN_BYTES } from './compress';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function raw(
  server: TestServer,
  pathname: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${pathname}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const HUG = '00000000-0000-7000-8000-000000000001';
let server: TestServer;
let alice: MadeUser;
const dist = mkdtempSync(path.join(os.tmpdir(), 'pingme-dist-'));

beforeAll(async () => {
  // A tiny built PWA with a precompressed asset, as `vite build` leaves it.
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>PingMe</title>');
  const js = `export const x = ${JSON.stringify('y'.repeat(2000))};`;
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), js);
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(js));
  server = await startTestServer({ PWA_DIST: dist });
  alice = await makeUser(server, { firstName: 'Alice' });
  // Enough history that the first pull is well over the threshold.
  for (let i = 0; i < 4; i++) {
    const friend = await makeUser(server, { firstName: `Friend${i}` });
    await makeFriends(alice, friend);
    const sent = await alice.client.post('/api/pings', { promptId: HUG, receiverId: friend.id });
    expect(sent.status, sent.text).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

const cookie = () => ({ cookie: alice.client.cookieHeader });

describe('API answers', () => {
  it('a large pull comes brotli- or gzip-compressed and decodes to the same JSON', async () => {
    const plain = await raw(server, '/api/sync/pull', cookie());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const expected: unknown = JSON.parse(plain.bytes.toString('utf8'));

    const br = await raw(server, '/api/sync/pull', { ...cookie(), 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.bytes.length);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(expected);

    const gz = await raw(server, '/api/sync/pull', { ...cookie(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8'))).toEqual(expected);

    const refusedBr = await raw(server, '/api/sync/pull', {
      ...cookie(),
      'accept-encoding': 'br;q=0, identity',
    });
    expect(refusedBr.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refusedBr.bytes.toString('utf8'))).toEqual(expected);
  });

  it('a small answer, an error and a HEAD go out as they are', async () => {
    const small = await raw(server, '/api/session', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toEqual({ user: null });

    const refused = await raw(server, '/api/sync/pull', { 'accept-encoding': 'br' });
    expect(refused.status).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString('utf8'))).toMatchObject({ code: 'unauthorized' });

    const head = await raw(
      server,
      '/api/sync/pull',
      { ...cookie(), 'accept-encoding': 'br' },
      'HEAD',
    );
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});

describe('the built PWA', () => {
  it('serves the precompressed copy and says the answer varies by Accept-Encoding', async () => {
    const br = await raw(server, '/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    const plain = await raw(server, '/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    const page = await raw(server, '/friends', { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(String(page.headers.vary)).toMatch(/accept-encoding/i);
  });
});
