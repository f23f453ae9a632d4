/**
 * The unit of work of every write (docs/sync.md, "Mutations"): one database transaction that holds
 * the write's effects, its change-log rows and its idempotency record (guarantee 4), and the list
 * of announcements (`new_ping`, pokes, Web Push) that go out only once it has committed.
 *
 * A REST call runs one unit in its own transaction (`runUnit`); a batch runs each entry as a unit
 * inside one shared transaction, each all-or-nothing (mutations/coalesce.ts), and announces after
 * the one commit. Either way the change-log rows of every unit that stands are written last, just
 * before the commit (flushChanges): each person's counter is held from there to the commit only.
 */
import type { Anchor, Ping } from '@pingme/shared';
import type { Transaction } from 'kysely';
import { appendChanges, type ChangeRecord, type Entity } from './changes';
import type { Db } from './connection';
import { isRetryableConflict, isUniqueViolation } from './dialect';
import type { ChangeOp, Database } from './schema';

export { isUniqueViolation };

export type Trx = Transaction<Database>;

/** What committed writes tell the rest of the process (realtime/events.ts). */
export interface Announcer {
  /** The change sets of one commit, in the order their writes ran. */
  announce(sets: readonly ChangeSet[]): void;
  /**
   * In the transaction, after its change-log rows, before it commits: what must commit with the
   * writes (the hints for the other nodes, realtime/bus.ts; the pushes to send, push/notifier.ts).
   */
  beforeCommit?(
    trx: Db,
    sets: readonly ChangeSet[],
    newest: ReadonlyMap<string, number>,
  ): Promise<void>;
}

/** How many times a transaction PostgreSQL gave up on (deadlock, serialization) is run again. */
export const CONFLICT_RETRIES = 4;

/**
 * A write that met a concurrent writer: PostgreSQL gave up on it (deadlock, serialization), or it
 * lost a check-then-insert race (a unique violation: another node inserted the same pair first,
 * and committed, since the insert waited for it). Run again, the write sees the other's row and
 * does what it does on one node (replaces it, or refuses with a 409).
 */
export function raced(err: unknown): boolean {
  return isRetryableConflict(err) || isUniqueViolation(err);
}

/**
 * The changes of one unit: change-log rows to write before its transaction commits, and whom to
 * tell once it has. A unit that rolls back (its savepoint, or the whole transaction) drops its
 * ChangeSet, rows and all.
 */
export class ChangeSet {
  readonly affected = new Set<string>();
  /** Rows recorded, numbered and written by flushChanges. */
  readonly pending: ChangeRecord[] = [];
  /** After the flush: each affected person's change numbers in this unit, ascending. */
  readonly numbers = new Map<string, number[]>();
  /** Web Push jobs written with this unit (push/notifier.ts), claimed by this node after commit. */
  readonly pushJobs: string[] = [];
  readonly newPings: [receiverId: string, ping: Ping][] = [];
  readonly anchorRequests: [receiverId: string, anchor: Anchor][] = [];
  /** Work outside the database that follows the outcome (a stored file kept or removed). */
  readonly committed: (() => Promise<void>)[] = [];
  readonly rolledBack: (() => Promise<void>)[] = [];

  /** One change-log row per person, written with the unit's transaction (flushChanges). */
  async record(
    userIds: Iterable<string>,
    entity: Entity,
    entityId: string,
    op: ChangeOp = 'upsert',
  ) {
    for (const userId of new Set(userIds)) {
      this.affected.add(userId);
      this.pending.push({ userId, entity, entityId, op });
    }
  }

  /** A delivered ping, announced to its receiver (ws `new_ping`, Web Push) after commit. */
  newPing(receiverId: string, ping: Ping): void {
    this.newPings.push([receiverId, ping]);
  }

  /** An anchor request: the notifier writes its push job in the same transaction (push/notifier.ts). */
  anchorRequest(receiverId: string, anchor: Anchor): void {
    this.anchorRequests.push([receiverId, anchor]);
  }

  /** Runs once the unit has committed (never when it rolls back). */
  onCommit(fn: () => Promise<void>): void {
    this.committed.push(fn);
  }

  /** Runs when the unit rolls back instead. */
  onRollback(fn: () => Promise<void>): void {
    this.rolledBack.push(fn);
  }
}

/** Runs a unit's after-commit or after-rollback work; a failure there is logged, not thrown. */
export async function settle(sets: readonly ChangeSet[], outcome: 'committed' | 'rolledBack') {
  for (const set of sets) {
    for (const fn of set[outcome]) {
      await fn().catch((err: unknown) => console.error(`after ${outcome} work failed`, err));
    }
  }
}

/** The transaction and the change set a mutation works with. */
export interface UnitOfWork {
  readonly trx: Db;
  readonly changes: ChangeSet;
}

/**
 * The last step of a transaction before its commit: numbers and writes the change-log rows of
 * every unit that stands (db/changes.ts), then what must commit with them (announcer.beforeCommit).
 */
export async function flushChanges(
  trx: Db,
  sets: readonly ChangeSet[],
  announcer: Announcer | undefined,
): Promise<void> {
  const records = sets.flatMap((s) => s.pending);
  const seqs = await appendChanges(trx, records);
  const newest = new Map<string, number>();
  let i = 0;
  for (const set of sets) {
    for (const r of set.pending) {
      const seq = seqs[i++]!;
      const list = set.numbers.get(r.userId);
      if (list) list.push(seq);
      else set.numbers.set(r.userId, [seq]);
      newest.set(r.userId, Math.max(newest.get(r.userId) ?? 0, seq));
    }
  }
  await announcer?.beforeCommit?.(trx, sets, newest);
}

/**
 * Runs `fn` as one unit in its own transaction, then announces its changes. A throw rolls back
 * everything `fn` wrote and announces nothing. A write that met a concurrent writer (`raced`) runs
 * again, up to CONFLICT_RETRIES times.
 */
export async function runUnit<T>(
  db: Db,
  announcer: Announcer | undefined,
  fn: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let changes: ChangeSet | undefined;
    let value: T;
    try {
      value = await db.transaction().execute(async (trx) => {
        changes = new ChangeSet();
        const v = await fn({ trx, changes });
        await flushChanges(trx, [changes], announcer);
        return v;
      });
    } catch (err) {
      // A retry registers its own after-rollback work again; this attempt's is dropped.
      if (raced(err) && attempt < CONFLICT_RETRIES) continue;
      if (changes) await settle([changes], 'rolledBack');
      throw err;
    }
    if (changes) {
      await settle([changes], 'committed');
      announcer?.announce([changes]);
    }
    return value;
  }
}
