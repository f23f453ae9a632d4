/**
 * Idempotency-Key on every mutating route (docs/sync.md, guarantee 2).
 * The key, the caller, a hash of the request and the response are stored in the same
 * transaction as the mutation (see `mutate`); a replay answers the stored response and
 * changes nothing; the same key with another request is 422.
 */
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Db } from '../db/connection';
import { findIdempotent, saveIdempotent } from '../db/idempotency';
import type { Transaction } from 'kysely';
import type { Database, ChangeOp } from '../db/schema';
import { recordChange, type Entity } from '../db/changes';
import { AppError, badRequest } from '../errors';
import { sessionUserId } from './auth';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const IDEMPOTENCY_HEADER = 'idempotency-key';

interface Pending {
  caller: string;
  key: string;
  requestHash: string;
  stored: boolean;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

export function idempotency(db: Db): Middleware {
  return async (ctx, next) => {
    const key = ctx.get(IDEMPOTENCY_HEADER);
    if (!key || !MUTATING.has(ctx.method) || !ctx.path.startsWith('/api/')) return next();
    if (key.length > 200) throw badRequest('Idempotency-Key must be at most 200 characters');
    const caller = sessionUserId(ctx) ?? 'anonymous';
    const hash = requestHash(ctx.method, ctx.path, ctx.request.body);
    const stored = await findIdempotent(db, caller, key);
    if (stored) return replay(ctx, stored, hash);
    const pending: Pending = { caller, key, requestHash: hash, stored: false };
    ctx.state.idempotency = pending;
    await next();
    // Routes that did not record inside their own transaction (no database change) record here.
    if (!pending.stored && ctx.status >= 200 && ctx.status < 300) {
      try {
        await saveIdempotent(db, caller, key, {
          requestHash: hash,
          status: ctx.status,
          body: JSON.stringify(ctx.body ?? null),
        });
      } catch {
        // A concurrent twin recorded first; both answered the same way.
      }
    }
  };
}

/**
 * For a route after which its caller no longer exists (account deletion): nothing is recorded
 * under their id, so no record of them outlives the account. A retry is then answered by what
 * the route answers a signed-out caller (401).
 */
export function forgoIdempotencyRecord(ctx: Context): void {
  const pending = ctx.state.idempotency as Pending | undefined;
  if (pending) pending.stored = true;
  ctx.state.idempotency = undefined;
}

function replay(
  ctx: Context,
  stored: { requestHash: string; status: number; body: string },
  hash: string,
) {
  if (stored.requestHash !== hash) {
    throw new AppError(
      422,
      'idempotency_mismatch',
      'This Idempotency-Key was already used for a different request',
    );
  }
  ctx.status = stored.status;
  ctx.body = JSON.parse(stored.body);
  ctx.set('Idempotent-Replayed', 'true');
}

export type Trx = Transaction<Database>;

/**
 * Handed to every mutation: records change-log rows in the mutation's transaction and
 * remembers whom to tell once it commits.
 */
export class Feed {
  readonly affected = new Set<string>();
  readonly newPings: [string, unknown][] = [];
  readonly anchorRequests: [string, unknown][] = [];
  constructor(private readonly trx: Trx) {}

  async record(
    userIds: Iterable<string>,
    entity: Entity,
    entityId: string,
    op: ChangeOp = 'upsert',
  ) {
    const ids = [...userIds];
    for (const id of ids) this.affected.add(id);
    await recordChange(this.trx, ids, entity, entityId, op);
  }

  /** Announce a delivered ping to its receiver (ws new_ping and Web Push) after commit. */
  newPing(receiverId: string, ping: unknown) {
    this.newPings.push([receiverId, ping]);
  }

  anchorRequest(receiverId: string, anchor: unknown) {
    this.anchorRequests.push([receiverId, anchor]);
  }
}

export interface Outcome<T> {
  status?: number;
  body: T;
}

/**
 * Runs a mutation in one SQLite transaction together with its idempotency record, then
 * writes the response. Work that does not need the database (hashing, mail) goes before it.
 */
export async function mutate<T>(
  ctx: Context,
  db: Db,
  fn: (trx: Trx, feed: Feed) => Promise<Outcome<T>>,
): Promise<T> {
  const pending = ctx.state.idempotency as Pending | undefined;
  let feed: Feed | undefined;
  try {
    const outcome = await db.transaction().execute(async (trx) => {
      feed = new Feed(trx);
      const result = await fn(trx, feed);
      if (pending) {
        await saveIdempotent(trx, pending.caller, pending.key, {
          requestHash: pending.requestHash,
          status: result.status ?? 200,
          body: jsonOf(result.body),
        });
      }
      return result;
    });
    if (pending) pending.stored = true;
    if (feed) announce(ctx, feed);
    ctx.status = outcome.status ?? 200;
    if (isPlainJson(outcome.body)) {
      // The JSON already made for the record (or by jsonOf now): the same bytes and headers Koa
      // would produce from the object (application/json; charset=utf-8, Content-Length).
      // Anything else (null, a string, a Buffer or a stream) goes to Koa as it is.
      if (!/\bjson\b/i.test(ctx.type)) ctx.type = 'json';
      ctx.body = jsonOf(outcome.body);
    } else {
      ctx.body = outcome.body;
    }
    return outcome.body;
  } catch (err) {
    // Two deliveries of one key raced: the loser answers what the winner stored.
    if (pending && isUniqueViolation(err)) {
      const stored = await findIdempotent(db, pending.caller, pending.key);
      if (stored) {
        pending.stored = true;
        replay(ctx, stored, pending.requestHash);
        return ctx.body as T;
      }
    }
    throw err;
  }
}

/** A plain object or an array: what Koa would answer as JSON. */
function isPlainJson(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const serialised = new WeakMap<object, string>();

/**
 * JSON.stringify of what a mutation answers, made once per object: the idempotency record, the
 * HTTP answer and the ws new_ping frame of a sent ping (the same object) share one string.
 * Answers are built for the response and not changed afterwards.
 */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value ?? null);
  let json = serialised.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialised.set(value, json);
  }
  return json;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return (
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === '23505'
  );
}

function announce(ctx: Context, feed: Feed) {
  const events = ctx.events;
  if (!events) return;
  for (const [receiverId, ping] of feed.newPings) events.emit('newPing', receiverId, ping);
  for (const [receiverId, anchor] of feed.anchorRequests)
    events.emit('anchorRequest', receiverId, anchor);
  if (feed.affected.size) events.emit('changed', [...feed.affected]);
}
