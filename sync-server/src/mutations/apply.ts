/**
 * Applying mutations in-process, in the numbered steps of docs/sync.md ("Mutations" and "Batch"):
 * one REST call is one unit in its own transaction; a batch is one transaction, each entry
 * all-or-nothing (without savepoints until one fails: coalesce.ts), committed once. Either way an
 * entry is answered with the status and body its REST call answers, and announcements go out
 * only after the commit.
 */
import { createHash } from 'node:crypto';
import { MUTATIONS, restCall, type MutationArgs, type MutationName } from '@pingme/shared';
import { CompiledQuery } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import {
  IdempotentTwin,
  findIdempotent,
  saveIdempotent,
  saveIdempotentEach,
  type IdempotentRecord,
  type StoredResponse,
} from '../db/idempotency';
import { executeCompiled } from '../db/compiled';
import { dialectOf, isRetryableConflict } from '../db/dialect';
import type { UserRow } from '../db/schema';
import {
  CONFLICT_RETRIES,
  ChangeSet,
  isUniqueViolation,
  runUnit,
  settle,
  type Announcer,
  type UnitOfWork,
} from '../db/unit-of-work';
import { AppError, badRequest, zodIssues } from '../errors';
import { jsonOf } from '../json';
import { HANDLERS, PRE_CHECKS } from './handlers';
import type { MutationContext } from './context';

/** Who applies the writes, and with what settings. */
export interface Caller {
  me: UserRow;
  config: Config;
  ip: string;
}

/** One write to apply: a mutation and its arguments as received, with its Idempotency-Key. */
export interface Entry {
  name: MutationName;
  /** As received (JSON): parsed by the mutation's schema in M2 (docs/sync.md). */
  args: unknown;
  key?: string;
  /** Identifies the request for the key: the same key with another hash is 422. */
  requestHash: string;
}

/** An entry's answer: what its REST call answers. `json` is `body` as sent. */
export interface EntryAnswer {
  status: number;
  body: unknown;
  json: string;
  headers?: Record<string, string>;
  replayed?: boolean;
  /** The write's change set, when this request applied it (its numbers exist after the flush). */
  changes?: ChangeSet;
}

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The hash that ties an Idempotency-Key to one request: of the mutation's REST call (method,
 * path, JSON body), whether it arrived as that call or as a batch entry. It is the hash the server
 * stored before mutations had names, so a write answered then is still recognised.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

/** The hash of a batch entry given as `{name, args}`: that of its REST call. */
export function entryHash(name: MutationName, args: unknown): string {
  const call = restCall(name, (args ?? {}) as MutationArgs<typeof name>);
  return requestHash(call.method, call.path, call.body);
}

function replayOf(stored: StoredResponse, hash: string): EntryAnswer {
  if (stored.requestHash !== hash) {
    throw new AppError(
      422,
      'idempotency_mismatch',
      'This Idempotency-Key was already used for a different request',
    );
  }
  return {
    status: stored.status,
    body: JSON.parse(stored.body),
    json: stored.body,
    replayed: true,
  };
}

/** Checks the answers of every mutation against its schema, in tests (cheap enough to keep). */
const CHECK_ANSWERS = process.env.NODE_ENV === 'test' || !!process.env.VITEST;

/**
 * Steps 1-3: parse the arguments and pre-check. A replay (a key seen before) is mostly found
 * when its write fails instead of by a lookup before every write (one statement less per
 * write): its idempotency record or its row's id conflicts with the stored one, or a check
 * refuses it now, and then `storedAnswer` finds what was stored. Mutations with a pre-check
 * (a throttle) look first, so a replay is not counted as another attempt.
 */
async function prepare(
  trx: Db,
  caller: Caller,
  entry: Entry,
): Promise<{ replay: EntryAnswer } | { args: unknown; context: MutationContext }> {
  const pre = PRE_CHECKS[entry.name] as
    ((c: MutationContext, args: unknown) => Promise<void>) | undefined;
  // 1. A key seen before answers its stored response and changes nothing.
  if (entry.key && pre) {
    const stored = await findIdempotent(trx, caller.me.id, entry.key);
    if (stored) return { replay: replayOf(stored, entry.requestHash) };
  }
  // 2. The arguments, parsed by the mutation's schema (a malformed write is a 400).
  const spec = MUTATIONS[entry.name];
  const parsed = spec.args.safeParse(entry.args ?? {});
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw badRequest(issues[0]?.message ?? 'Invalid request', issues);
  }
  // 3. Checks that count even when the write is refused (throttles), outside its own unit.
  const context: MutationContext = {
    ...caller,
    trx,
    changes: new ChangeSet(),
  };
  if (pre) await pre(context, parsed.data);
  return { args: parsed.data, context };
}

/**
 * Steps 4-5, in the entry's own unit: the handler, then the idempotency record beside it; with
 * `deferred`, the record waits there to be stored with the group's others, before its commit
 * (saveDeferred).
 */
async function applyParsed(
  uow: UnitOfWork,
  caller: Caller,
  entry: Entry,
  args: unknown,
  deferred?: IdempotentRecord[],
): Promise<EntryAnswer> {
  const handler = HANDLERS[entry.name] as (
    c: MutationContext,
    args: unknown,
  ) => Promise<{ status?: number; body: unknown }>;
  const outcome = await handler({ ...caller, ...uow }, args);
  if (CHECK_ANSWERS) MUTATIONS[entry.name].result.parse(outcome.body);
  const status = outcome.status ?? 200;
  const json = jsonOf(outcome.body);
  if (entry.key && deferred) {
    deferred.push({
      caller: caller.me.id,
      key: entry.key,
      requestHash: entry.requestHash,
      status,
      body: json,
    });
  } else if (entry.key) {
    const saved = await saveIdempotent(uow.trx, caller.me.id, entry.key, {
      requestHash: entry.requestHash,
      status,
      body: json,
    });
    if (!saved) throw new IdempotentTwin();
  }
  return { status, body: outcome.body, json };
}

/** One REST call: one unit in its own transaction, announced after its commit. */
export async function applyOne(
  db: Db,
  announcer: Announcer | undefined,
  caller: Caller,
  entry: Entry,
): Promise<EntryAnswer> {
  try {
    const prepared = await prepare(db, caller, entry);
    if ('replay' in prepared) return prepared.replay;
    return await runUnit(db, announcer, (uow) => applyParsed(uow, caller, entry, prepared.args));
  } catch (err) {
    const stored = await storedAnswer(db, caller, entry);
    if (stored) return stored;
    throw err;
  }
}

/**
 * What was stored for the entry's key, when its write failed: the write was a replay (its record
 * or its row's id conflicted with the stored ones, or a check refuses it now), or two deliveries
 * of one key raced (two nodes, or a duplicate on one) and the other committed first. Either way
 * the stored answer is the answer, and the failed write changed nothing (its unit rolled back).
 * Undefined without a key, with none stored, or when the lookup fails too (the write's own
 * error is then the one to report).
 */
async function storedAnswer(
  db: Db,
  caller: Caller,
  entry: Entry,
): Promise<EntryAnswer | undefined> {
  if (!entry.key) return undefined;
  const stored = await findIdempotent(db, caller.me.id, entry.key).catch(() => undefined);
  return stored ? replayOf(stored, entry.requestHash) : undefined;
}

/**
 * A transaction several writes share (a batch, a group commit: coalesce.ts), each write in a
 * savepoint, or none (`savepoints` false: see WithoutSavepoints). On PostgreSQL, where every
 * statement is a round trip, a write's savepoint is released by the next one's (`release write;
 * savepoint write`, one round trip) or by the commit, not on its own.
 */
export interface SharedTransaction {
  trx: Db;
  /** The change sets of the writes applied so far, for the commit to flush and announce. */
  committed: ChangeSet[];
  /** Each write in a savepoint of its own (false: none, and a write's failure ends the group). */
  savepoints: boolean;
  /** The last write's savepoint is still open (PostgreSQL). */
  savepointOpen: boolean;
  /** Savepoints opened (tests). */
  opened: number;
  /**
   * Without savepoints: the idempotency records of the writes applied so far, stored together by
   * saveDeferred (one statement, on PostgreSQL one round trip, instead of one per write).
   */
  deferred: IdempotentRecord[];
}

export function sharedTransaction(trx: Db, savepoints: boolean): SharedTransaction {
  return { trx, committed: [], savepoints, savepointOpen: false, opened: 0, deferred: [] };
}

/**
 * Stores the idempotency records a group without savepoints deferred, in its transaction before
 * the commit. A record that finds its (caller, key) taken (a replay whose write changed nothing
 * else that conflicts, or a twin another node committed first) fails the group as a failed write
 * does: it runs again with savepoints, where each write stores its own record and the taken one
 * is answered with what was stored (WithoutSavepoints).
 */
export async function saveDeferred(shared: SharedTransaction): Promise<void> {
  if (!shared.deferred.length) return;
  let saved;
  try {
    saved = await saveIdempotentEach(shared.trx, shared.deferred);
  } catch (err) {
    // A deadlock or serialization failure runs the whole group again as it is (coalesce.ts).
    if (isRetryableConflict(err)) throw err;
    throw new WithoutSavepoints(err);
  }
  if (!saved) throw new WithoutSavepoints(new IdempotentTwin());
}

/**
 * A write failed in a group applied without savepoints: its half-done work cannot be undone alone,
 * so the whole transaction rolls back and the group runs again, each write in its own savepoint
 * (coalesce.ts). Most groups have no failure at all, and a savepoint costs every write: on SQLite
 * two statements and a copy of every page the write changes (its sub-journal), on PostgreSQL a
 * round trip.
 */
export class WithoutSavepoints extends Error {
  constructor(override readonly cause: unknown) {
    super('a write failed in a group applied without savepoints');
  }
}

/**
 * Steps 1-5 of one write inside a shared transaction (a batch, a group commit), its own work in a
 * savepoint: a refusal rolls back that write alone. Without savepoints, a failure of the write
 * itself (after its checks) throws WithoutSavepoints.
 */
export async function applyInSavepoint(
  shared: SharedTransaction,
  caller: Caller,
  entry: Entry,
): Promise<EntryAnswer> {
  const { trx } = shared;
  // A key a write of this group used already, its record not stored yet: this one is its replay,
  // found where each write stores its record at once (the group runs again with savepoints).
  if (entry.key && shared.deferred.some((r) => r.key === entry.key && r.caller === caller.me.id)) {
    throw new WithoutSavepoints(new IdempotentTwin());
  }
  let prepared;
  try {
    prepared = await prepare(trx, caller, entry);
  } catch (err) {
    const stored = await storedAnswer(trx, caller, entry);
    if (stored) return stored;
    throw err;
  }
  if ('replay' in prepared) return prepared.replay;
  if (!shared.savepoints) {
    const changes = new ChangeSet();
    try {
      const answer = await applyParsed(
        { trx, changes },
        caller,
        entry,
        prepared.args,
        shared.deferred,
      );
      shared.committed.push(changes);
      return { ...answer, changes };
    } catch (err) {
      // Its after-rollback work is not run: the group runs again, and this write with it.
      throw new WithoutSavepoints(err);
    }
  }
  const postgres = dialectOf(trx) === 'postgres';
  for (let attempt = 0; ; attempt++) {
    // One write at a time in a transaction: each savepoint is released or rolled back before the
    // next begins, so one name serves all, and its statements are compiled once.
    await executeCompiled(trx, shared.savepointOpen ? RELEASE_AND_SAVEPOINT : SAVEPOINT);
    shared.savepointOpen = true;
    shared.opened += 1;
    const changes = new ChangeSet();
    try {
      const answer = await applyParsed({ trx, changes }, caller, entry, prepared.args);
      if (!postgres) {
        await executeCompiled(trx, RELEASE);
        shared.savepointOpen = false;
      }
      shared.committed.push(changes);
      return { ...answer, changes };
    } catch (err) {
      // PostgreSQL gave up on the whole transaction's locks: the group runs again (coalesce.ts).
      if (isRetryableConflict(err)) throw new BrokenTransaction(err);
      try {
        if (postgres) await executeCompiled(trx, ROLLBACK_AND_RELEASE);
        else {
          await executeCompiled(trx, ROLLBACK_TO);
          await executeCompiled(trx, RELEASE);
        }
        shared.savepointOpen = false;
      } catch (broken) {
        await settle([changes], 'rolledBack');
        throw new BrokenTransaction(broken);
      }
      let stored;
      try {
        stored = await storedAnswer(trx, caller, entry);
      } catch (mismatch) {
        // The key was used for another request (422): this write is refused, rolled back.
        await settle([changes], 'rolledBack');
        throw mismatch;
      }
      if (stored) {
        await settle([changes], 'rolledBack');
        return stored;
      }
      // A check-then-insert that lost a race to another node's committed row: once more, in a
      // new savepoint, the write sees that row (unit-of-work.ts, `raced`). This attempt's
      // rollback work is not run: the next one does the same work (the same stored photo) and
      // registers its own.
      if (isUniqueViolation(err) && attempt < CONFLICT_RETRIES) continue;
      await settle([changes], 'rolledBack');
      throw err;
    }
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint write');
const RELEASE = CompiledQuery.raw('release write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to write');
/** PostgreSQL only: two statements in one round trip (a query without parameters may hold several). */
const RELEASE_AND_SAVEPOINT = CompiledQuery.raw('release write; savepoint write');
const ROLLBACK_AND_RELEASE = CompiledQuery.raw('rollback to write; release write');

/** A savepoint that could not be rolled back: the whole shared transaction is lost. */
export class BrokenTransaction extends Error {
  constructor(override readonly cause: unknown) {
    super('the shared transaction could not roll back a write');
  }
}
