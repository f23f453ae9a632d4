/**
 * Test harness: a real server on a loopback port with a real SQLite file in a temporary
 * directory, and a small HTTP client that keeps its own cookies like a browser would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { PullChange, PullResponse } from '@pingme/shared';
import { expect, inject } from 'vitest';
import { loadConfig, type Config } from '../src/config';
import { startServer, type RunningServer } from '../src/server';
import type { Mailer } from '../src/services/mail';
import { createDatabase, dropDatabase } from './postgres';

/**
 * The database the tests of this project run on: the `sync-server-pg` project (vitest.config.ts)
 * sets PINGME_TEST_BACKEND=postgres and runs the same route, authorization and fuzz tests on
 * PostgreSQL (test/postgres-setup.ts); otherwise SQLite files.
 */
export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.PINGME_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A fresh PostgreSQL database for one test server or one test (a copy of the run's migrated
 * template): its URL. Only in a project on PostgreSQL.
 */
export async function freshPostgresDatabase(): Promise<string> {
  const { adminUrl, template } = inject('postgres');
  return createDatabase(adminUrl, template);
}

export interface TestServer extends RunningServer {
  dir: string;
  /** A new client; `localAddress` makes its requests come from that loopback address. */
  client(localAddress?: string): Client;
  stop(): Promise<void>;
}

/**
 * Test files make dozens of people and searches from one loopback address in seconds, far past
 * the production throttles; those are raised here, and the tests of the throttles themselves
 * (routes/rate-limits.test.ts) pass their own small limits.
 */
export const RELAXED_LIMITS: Record<string, string> = {
  SIGNUP_MAX_PER_IP: '100000',
  RESET_MAX_PER_EMAIL_PER_IP: '100000',
  RESET_MAX_PER_IP: '100000',
  RESET_MAILS_PER_EMAIL: '100000',
  VERIFY_RESEND_MAX_PER_EMAIL_PER_IP: '100000',
  VERIFY_RESEND_MAX_PER_IP: '100000',
  VERIFY_RESEND_MAILS_PER_EMAIL: '100000',
  // Wrong passwords from the one loopback address of a whole test file, on many accounts.
  LOGIN_IP_FREE_FAILURES: '100000',
  SEARCH_MAX_PER_USER: '100000',
  INVITE_CHECK_MAX_PER_USER: '100000',
  INVITE_USE_MAX_PER_USER: '100000',
  REPORT_MAX_PER_USER: '100000',
};

export async function startTestServer(
  env: Record<string, string> = {},
  opts: { mailer?: Mailer } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-test-'));
  const ownDatabase =
    TEST_BACKEND === 'postgres' && !('DATABASE_URL' in env)
      ? await freshPostgresDatabase()
      : undefined;
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    PWA_DIST: path.join(dir, 'no-pwa'),
    ...RELAXED_LIMITS,
    // In-process servers share the test's stdout: only errors, unless the developer asks for
    // more. Tests that read the log run the server in its own process (server-process.ts).
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    ...(ownDatabase ? { DATABASE_URL: ownDatabase, DATABASE_POOL_SIZE: '4' } : {}),
    ...env,
  });
  const running = await startServer(config, opts.mailer ? { mailer: opts.mailer } : {});
  const url = `http://127.0.0.1:${running.port}`;
  return {
    ...running,
    url,
    dir,
    client: (localAddress?: string) => new Client(url, localAddress ? { localAddress } : {}),
    async stop() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
      if (ownDatabase) await dropDatabase(ownDatabase);
    },
  };
}

export interface Res<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/**
 * A browser-like client: one cookie jar, JSON in and out, raw bodies when asked. With
 * `localAddress` (another loopback address such as 127.0.0.2) its requests leave from there, so
 * the server sees another client address (fetch cannot choose one; node:http can).
 */
export class Client {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly opts: { localAddress?: string } = {},
  ) {}

  /** The same person (the same cookie jar) through another server node at `baseUrl`. */
  via(baseUrl: string): Client {
    const other = new Client(baseUrl, this.opts);
    other.cookies = this.cookies;
    return other;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: {
      headers?: Record<string, string>;
      raw?: string | Buffer;
      redirect?: 'manual' | 'follow' | 'error';
    } = {},
  ): Promise<Res<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    let payload: string | Buffer | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = this.opts.localAddress
      ? await sendFrom(this.opts.localAddress, this.baseUrl + path, method, headers, payload)
      : await fetch(this.baseUrl + path, {
          method,
          headers,
          body: payload,
          redirect: opts.redirect ?? 'manual',
        });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  get<T = any>(path: string, opts?: Parameters<Client['request']>[3]) {
    return this.request<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: Parameters<Client['request']>[3]) {
    return this.request<T>('POST', path, body ?? {}, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: Parameters<Client['request']>[3]) {
    return this.request<T>('PUT', path, body ?? {}, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: Parameters<Client['request']>[3]) {
    return this.request<T>('PATCH', path, body ?? {}, opts);
  }
  del<T = any>(path: string, opts?: Parameters<Client['request']>[3]) {
    return this.request<T>('DELETE', path, undefined, opts);
  }
}

/** One request from `localAddress` with node:http, answered as fetch would (no redirects). */
function sendFrom(
  localAddress: string,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
            h.append(name, v);
          }
        }
        const status = res.statusCode ?? 0;
        const nullBody = status === 204 || status === 304;
        resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: h }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

let counter = 0;
export interface MadeUser {
  client: Client;
  id: string;
  email: string;
  password: string;
  user: any;
}

/** Registers a person through the API and returns their signed-in client. */
export async function makeUser(
  server: TestServer,
  fields: Partial<{ email: string; firstName: string; lastName: string; password: string }> = {},
): Promise<MadeUser> {
  counter += 1;
  const email = fields.email ?? `user${counter}-${Date.now()}@example.test`;
  const password = fields.password ?? 'correct horse';
  const client = server.client();
  const res = await client.post('/api/register', {
    email,
    password,
    firstName: fields.firstName ?? `User${counter}`,
    lastName: fields.lastName ?? 'Test',
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { client, id: res.body.id, email, password, user: res.body };
}

/**
 * Marks the person's e-mail verified, as opening the link of the verification mail does (the
 * mail tests prove that link), and signs them in again so that what needs a proven address
 * (ADMIN_EMAILS) applies. Answers the person as the sign-in returned them.
 */
export async function verifyEmailOf(server: TestServer, made: MadeUser): Promise<MadeUser> {
  await server.database.db
    .updateTable('users')
    .set({ emailVerified: 1 })
    .where('id', '=', made.id)
    .execute();
  const res = await made.client.post('/api/login', { email: made.email, password: made.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { ...made, user: res.body };
}

/** Makes two people friends through the API (request, then accept). */
export async function makeFriends(a: MadeUser, b: MadeUser): Promise<void> {
  const req = await a.client.post('/api/friends/request', { friendId: b.id });
  if (req.status !== 200 && req.status !== 201)
    throw new Error(`request failed: ${req.status} ${req.text}`);
  if (req.body.status === 'accepted') return;
  const acc = await b.client.post('/api/friends/accept', { requestId: req.body.requestId });
  if (acc.status !== 200) throw new Error(`accept failed: ${acc.status} ${acc.text}`);
}

export interface Pulled {
  changes: PullChange[];
  cursor: number;
  pages: PullResponse[];
}

/**
 * Pulls until hasMore is false, following snapshot tokens, like the device's pull worker: from
 * `since` (no cursor: a snapshot), `limit` changes a page when given.
 */
export async function pullAll(client: Client, since?: number, limit?: number): Promise<Pulled> {
  const pages: PullResponse[] = [];
  let snapshot: string | null = null;
  let cursor = since;
  for (;;) {
    const q = new URLSearchParams();
    if (snapshot) q.set('snapshot', snapshot);
    else if (cursor !== undefined) q.set('since', String(cursor));
    if (limit) q.set('limit', String(limit));
    const res = await client.get<PullResponse>(`/api/sync/pull?${q}`);
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.cursor;
    snapshot = res.body.snapshot;
    if (!res.body.hasMore) break;
    if (pages.length > 200) throw new Error('pull does not end');
  }
  return { changes: pages.flatMap((p) => p.changes), cursor: cursor!, pages };
}
