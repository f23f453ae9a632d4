/**
 * POST /api/sync/batch, in the numbered steps of docs/sync.md ("Batch"): each outbox entry runs
 * exactly as its own REST call would, through the same Koa app (session, validation,
 * idempotency, errors), as the caller, in order.
 */
import {
  BATCH_NOT_ATTEMPTED,
  isRetryableStatus,
  type BatchEntry,
  type BatchResult,
} from '@pingme/shared';
import type Koa from 'koa';
import type { Context } from 'koa';
import { inject } from 'light-my-request';
import { IDEMPOTENCY_HEADER } from '../middleware/idempotency';

/** Set on every request the batch runs, so a batch inside a batch is refused whatever its path. */
export const BATCH_MARKER_HEADER = 'x-pingme-batch-entry';
export const BATCH_PATH = '/api/sync/batch';

const callbacks = new WeakMap<Koa, ReturnType<Koa['callback']>>();
function dispatcherOf(app: Koa) {
  let cb = callbacks.get(app);
  if (!cb) {
    cb = app.callback();
    callbacks.set(app, cb);
  }
  return cb;
}

/** The path as the router will see it: no query, no repeated or trailing slashes, any case. */
export function isBatchPath(path: string): boolean {
  let p = path.split(/[?#]/)[0] ?? '';
  try {
    p = decodeURIComponent(p);
  } catch {
    // Undecodable: the router will answer it as an unknown route.
  }
  p = p
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .toLowerCase();
  return p === BATCH_PATH;
}

export async function runBatch(ctx: Context, entries: BatchEntry[]): Promise<BatchResult[]> {
  const dispatch = dispatcherOf(ctx.app);
  const jar = new CookieJar(ctx.get('cookie'));
  const results: BatchResult[] = [];
  let stoppedAt: number | undefined;

  for (const [index, entry] of entries.entries()) {
    const { idempotencyKey } = entry;

    // 1. Behind an entry that failed transiently nothing runs: the device retries them in order.
    if (stoppedAt !== undefined) {
      results.push({
        idempotencyKey,
        status: BATCH_NOT_ATTEMPTED,
        body: {
          error: `Not attempted: entry ${stoppedAt} must succeed first`,
          notAttempted: true,
        },
      });
      continue;
    }

    // 2. A batch cannot contain a batch (its own 400; the next entries still run).
    if (isBatchPath(entry.path)) {
      results.push({
        idempotencyKey,
        status: 400,
        body: { error: 'A batch cannot contain /api/sync/batch', code: 'validation_failed' },
      });
      continue;
    }

    // 3. The entry as its REST call: same method, path and JSON body, the caller's cookies, its
    //    Idempotency-Key, and the caller's address and scheme for throttling and secure cookies.
    const headers: Record<string, string> = {
      accept: 'application/json',
      [IDEMPOTENCY_HEADER]: idempotencyKey,
      [BATCH_MARKER_HEADER]: '1',
      'x-forwarded-proto': ctx.protocol,
      'x-forwarded-host': ctx.host,
    };
    const cookie = jar.header();
    if (cookie) headers.cookie = cookie;
    const userAgent = ctx.get('user-agent');
    if (userAgent) headers['user-agent'] = userAgent;
    let payload: string | undefined;
    if (entry.body !== undefined) {
      payload = JSON.stringify(entry.body);
      headers['content-type'] = 'application/json';
    }

    // 4. Run it through the app; a throw (never expected: the error middleware answers every
    //    error) counts as a 500.
    let status: number;
    let body: unknown;
    try {
      const res = await inject(dispatch, {
        method: entry.method,
        url: entry.path,
        headers,
        remoteAddress: ctx.ip || '127.0.0.1',
        ...(payload !== undefined ? { payload } : {}),
      });
      status = res.statusCode;
      body = parseBody(res.payload);
      // A sign-in, sign-out or session renewal inside the batch reaches the device too.
      const setCookie = res.headers['set-cookie'];
      for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
        jar.apply(c);
        ctx.append('Set-Cookie', c);
      }
    } catch (err) {
      ctx.log.error({ err, method: entry.method, path: entry.path }, 'batch entry failed');
      status = 500;
      body = { error: 'Something went wrong on our side. Please try again.', code: 'internal' };
    }
    results.push({ idempotencyKey, status, body });

    // 5. A transient failure (5xx, 408, 429) stops the batch here; a final 4xx does not.
    if (isRetryableStatus(status, body)) stoppedAt = index;
  }
  return results;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The caller's cookies, updated by what the entries answer (Set-Cookie). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(header: string) {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0) this.cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
  }
  apply(setCookie: string) {
    const [pair = '', ...attrs] = setCookie.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => {
      const [k = '', v = ''] = a.split('=');
      const key = k.trim().toLowerCase();
      return (
        (key === 'expires' && Date.parse(v) <= Date.now()) || (key === 'max-age' && Number(v) <= 0)
      );
    });
    if (!value || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}
