/**
 * The SPA fallback's first page (middleware/static.ts): `/` without a session cookie answers the
 * prerendered landing.html, with one the plain shell; other paths always get the shell. And a
 * download the visitor abandons is not logged as a server error (app.ts).
 * Raw HTTP (node:http), so the compressed copies on disk are what is checked.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser, startTestServer, type MadeUser, type TestServer } from '../../test/harness';

function get(
  server: TestServer,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${pathname}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const SHELL = '<!doctype html><title>PingMe</title><div id="root"></div>';
const LANDING =
  '<!doctype html><title>PingMe</title><div id="root"><h1 id="landing-title">PingMe</h1>' +
  `<p>${'One tap. Real emotion. Stay connected. '.repeat(40)}</p></div>`;

let server: TestServer;
let alice: MadeUser;
const dist = mkdtempSync(path.join(os.tmpdir(), 'pingme-dist-'));

/** A file too big to go out in one write, and incompressible (no .br/.gz copy). */
const BIG_ASSET = randomBytes(8 * 1024 * 1024);

beforeAll(async () => {
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'big.bin'), BIG_ASSET);
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'landing.html'), LANDING);
  writeFileSync(path.join(dist, 'landing.html.br'), brotliCompressSync(LANDING));
  server = await startTestServer({ PWA_DIST: dist });
  alice = await makeUser(server, { firstName: 'Alice' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the first page of a navigation to /', () => {
  it('a visitor (no session cookie) gets the prerendered landing page, not cached by cookie-blind caches', async () => {
    const res = await get(server, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body.toString('utf8')).toBe(LANDING);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toMatch(/cookie/i);
  });

  it('the landing page comes precompressed when the browser accepts brotli', async () => {
    const res = await get(server, '/', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).toString('utf8')).toBe(LANDING);
  });

  it('with a session cookie, / answers the plain shell', async () => {
    expect(alice.client.cookieHeader).toMatch(/pingme\.sid=/);
    const res = await get(server, '/', { cookie: alice.client.cookieHeader });
    expect(res.status).toBe(200);
    expect(res.body.toString('utf8')).toBe(SHELL);
    expect(String(res.headers.vary)).toMatch(/cookie/i);
  });

  it('other client routes answer the plain shell, with or without a cookie', async () => {
    for (const p of ['/auth', '/profile', '/invite/abc']) {
      expect((await get(server, p)).body.toString('utf8')).toBe(SHELL);
      const signedIn = await get(server, p, { cookie: alice.client.cookieHeader });
      expect(signedIn.body.toString('utf8')).toBe(SHELL);
    }
  });
});

describe('a visitor who leaves mid-download', () => {
  it('is not logged as a server error, and the server answers the next request', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(`${server.url}/assets/big.bin`, { agent: false }, (res) => {
          expect(res.statusCode).toBe(200);
          // The first chunk is here, the rest still to come: the tab closes.
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => {
          if (!req.destroyed) reject(err);
        });
        req.end();
      });
      // The server notices the closed socket when it next writes; the file is served whole to
      // the next visitor, which also proves the first answer has ended.
      const whole = await get(server, '/assets/big.bin');
      expect(whole.body.equals(BIG_ASSET)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });
});
