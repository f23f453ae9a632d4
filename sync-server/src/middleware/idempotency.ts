/**
 * Idempotency-Key for the REST routes that are not named mutations (sign-up, sign-in, password,
 * account, push subscriptions): they manage sessions and devices, so they never travel in a
 * device's outbox. Named mutations record their keys in mutations/apply.ts; the rule is the same
 * (docs/sync.md, guarantee 2): the key, the caller, a hash of the request and the response are
 * stored in the transaction of the change (`mutate`); a replay answers the stored response and
 * changes nothing; the same key with another request is 422.
 */
import type { Context, Middleware } from 'koa';
import type { Db } from '../db/connection';
import {
  IdempotentTwin,
  findIdempotent,
  saveIdempotent,
  type StoredResponse,
} from '../db/idempotency';
import { isUniqueViolation, runUnit, type UnitOfWork } from '../db/unit-of-work';
import { AppError, badRequest } from '../errors';
import { jsonOf } from '../json';
import { REPLAYED_HEADER, requestHash } from '../mutations/apply';
import { sessionUserId } from './auth';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

interface Pending {
  caller: string;
  key: string;
  requestHash: string;
  stored: boolean;
}

/** For a route that honours Idempotency-Key: answers a replay, or records a 2xx answer. */
export function keyed(db: Db): Middleware {
  return async (ctx, next) => {
    const key = ctx.get(IDEMPOTENCY_HEADER);
    if (!key) return next();
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
      // A concurrent twin may have recorded first (nothing is stored then): both answered alike.
      await saveIdempotent(db, caller, key, {
        requestHash: hash,
        status: ctx.status,
        body: JSON.stringify(ctx.body ?? null),
      });
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

function replay(ctx: Context, stored: StoredResponse, hash: string) {
  if (stored.requestHash !== hash) {
    throw new AppError(
      422,
      'idempotency_mismatch',
      'This Idempotency-Key was already used for a different request',
    );
  }
  ctx.status = stored.status;
  ctx.type = 'json';
  ctx.body = stored.body;
  ctx.set(REPLAYED_HEADER, 'true');
}

export interface Outcome<T> {
  status?: number;
  body: T;
}

/**
 * Runs a change as one unit (db/unit-of-work.ts) together with its idempotency record, then
 * writes the response. Work that does not need the database (hashing, mail) goes before it.
 */
export async function mutate<T>(
  ctx: Context,
  db: Db,
  fn: (uow: UnitOfWork) => Promise<Outcome<T>>,
): Promise<T> {
  const pending = ctx.state.idempotency as Pending | undefined;
  try {
    const outcome = await runUnit(db, ctx.events, async (uow) => {
      const result = await fn(uow);
      if (pending) {
        const saved = await saveIdempotent(uow.trx, pending.caller, pending.key, {
          requestHash: pending.requestHash,
          status: result.status ?? 200,
          body: jsonOf(result.body),
        });
        if (!saved) throw new IdempotentTwin();
      }
      return result;
    });
    if (pending) pending.stored = true;
    ctx.status = outcome.status ?? 200;
    ctx.type = 'json';
    ctx.body = jsonOf(outcome.body);
    return outcome.body;
  } catch (err) {
    // Two deliveries of one key raced: the loser answers what the winner stored.
    if (pending && (err instanceof IdempotentTwin || isUniqueViolation(err))) {
      const stored = await findIdempotent(db, pending.caller, pending.key);
      if (stored) {
        pending.stored = true;
        replay(ctx, stored, pending.requestHash);
        return JSON.parse(stored.body) as T;
      }
    }
    throw err;
  }
}
