/**
 * Fuzz run support (test/fuzz.test.ts): a raw HTTP sender that puts exactly the given bytes on
 * the wire, and a digest of what the database holds that a person could see.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Db } from '../src/db/connection';
import { tableNames, tableRows } from './db-inspect';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded (the bytes of the request line). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** How many requests were sent again on a fresh connection (see sendRaw). */
export const transport = {
  retriedOnFreshConnection: 0,
  /** The request before each resend, and how long before it ended (for FUZZ_VERBOSE). */
  resends: [] as string[],
  last: { what: '', at: 0 },
};

/**
 * One request over a keep-alive connection. Content-Length is always set for a body (Node's
 * client sends neither it nor chunked encoding for DELETE, which would frame the body as a
 * second request). When a reused idle connection turns out to be closed by the server
 * (ECONNRESET/EPIPE before any answer: the keep-alive race Node's docs describe for
 * `request.reusedSocket`), the request never reached the app and is sent once more on a new
 * connection; a failure there is reported.
 */
export async function sendRaw(
  agent: http.Agent,
  port: number,
  req: RawRequest,
): Promise<RawResponse> {
  const what = `${req.method} ${req.path.slice(0, 80)} (${req.body?.length ?? 0} bytes)`;
  try {
    return await sendOnce(agent, port, req);
  } catch (err) {
    const e = err as { code?: string; reusedSocket?: boolean };
    if (!e.reusedSocket || (e.code !== 'ECONNRESET' && e.code !== 'EPIPE')) throw err;
    transport.retriedOnFreshConnection += 1;
    transport.resends.push(
      `${what} after ${transport.last.what}, ${Date.now() - transport.last.at} ms earlier`,
    );
    return await sendOnce(false, port, req);
  } finally {
    transport.last = { what, at: Date.now() };
  }
}

function sendOnce(agent: http.Agent | false, port: number, req: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.body) headers['content-length'] = String(req.body.length);
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    r.on('error', (err: Error & { reusedSocket?: boolean }) => {
      err.reusedSocket = r.reusedSocket;
      reject(err);
    });
    r.setTimeout(60_000, () => r.destroy(new Error(`no answer to ${req.method} ${req.path}`)));
    r.end(req.body);
  });
}

/**
 * What "a rejected request changed nothing" compares. Left out, because they legitimately change
 * on requests that are refused:
 * - `rate_limits`: the throttles count refused attempts on purpose (a wrong password, a search
 *   over the limit, a report after the limit all count);
 * - `users.last_active_at` and `users.updated_at`: requireUser marks a person active at most every
 *   10 minutes before the route runs, and updateUser stamps updated_at with it; any real change
 *   to a person also changes one of the other columns, which are compared;
 * - `sessions.last_seen_at`: a session's use is recorded at most once an hour when it is read.
 * Everything else, every table the database has (so a new table is compared too), row by row.
 */
export const DIGEST_EXCLUDED_TABLES = new Set(['rate_limits']);
export const DIGEST_EXCLUDED_COLUMNS: Record<string, Set<string>> = {
  users: new Set(['last_active_at', 'updated_at']),
  sessions: new Set(['last_seen_at']),
};

export type Digest = Map<string, string>;

export class DbWatcher {
  private cached: { total: number; digest: Digest } | undefined;

  /**
   * `writes` counts the statements the server ran that may have written (SQLite: the rows it
   * changed; PostgreSQL: its statements other than SELECT): when it has not moved, nothing was
   * written, and no digest is needed.
   */
  constructor(
    private readonly db: Db,
    readonly writes: () => number,
  ) {}

  /** The digest now; recomputed only when something was written since the last one. */
  async current(): Promise<Digest> {
    const total = this.writes();
    if (this.cached?.total !== total) this.cached = { total, digest: await this.compute() };
    return this.cached.digest;
  }

  private async compute(): Promise<Digest> {
    const out: Digest = new Map();
    for (const name of await tableNames(this.db)) {
      if (DIGEST_EXCLUDED_TABLES.has(name)) continue;
      const skip = DIGEST_EXCLUDED_COLUMNS[name];
      const lines = (await tableRows(this.db, name)).map((row) =>
        JSON.stringify(
          Object.entries(row)
            .filter(([c]) => !skip?.has(c))
            .sort(([a], [b]) => (a < b ? -1 : 1)),
          (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v),
        ),
      );
      lines.sort();
      const hash = createHash('sha1');
      for (const line of lines) hash.update(`${line}\n`);
      out.set(name, `${lines.length}:${hash.digest('base64')}`);
    }
    return out;
  }
}

/** The tables whose digest differs, with both digests; empty when equal. */
export function digestDiff(before: Digest, after: Digest): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const out: string[] = [];
  for (const n of names) {
    if (before.get(n) !== after.get(n))
      out.push(`${n} (${before.get(n) ?? 'absent'} -> ${after.get(n) ?? 'absent'})`);
  }
  return out;
}
