/**
 * The unit of work of every write (docs/sync.md, "Mutations"): one database transaction that holds
 * the write's effects, its change-log rows and its idempotency record (guarantee 4), and the list
 * of announcements (`new_ping`, pokes, Web Push) that go out only once it has committed.
 *
 * A REST call runs one unit in its own transaction (`runUnit`); a batch runs each entry as a unit
 * inside one shared transaction, each in its own savepoint (sync/batch.ts), and announces after
 * the one commit.
 */
import type { Anchor, Ping } from '@pingme/shared';
import type { Transaction } from 'kysely';
import { recordChange, type Entity } from './changes';
import type { Db } from './connection';
import type { ChangeOp, Database } from './schema';

export type Trx = Transaction<Database>;

/** What committed writes tell the rest of the process (realtime/events.ts). */
export interface Announcer {
  /** The change sets of one commit, in the order their writes ran. */
  announce(sets: readonly ChangeSet[]): void;
}

/**
 * The changes of one unit: change-log rows written in its transaction, and whom to tell once it
 * commits. A unit that rolls back (its savepoint, or the whole transaction) drops its ChangeSet.
 */
export class ChangeSet {
  readonly affected = new Set<string>();
  readonly newPings: [receiverId: string, ping: Ping][] = [];
  readonly anchorRequests: [receiverId: string, anchor: Anchor][] = [];
  /** Work outside the database that follows the outcome (a stored file kept or removed). */
  readonly committed: (() => Promise<void>)[] = [];
  readonly rolledBack: (() => Promise<void>)[] = [];

  constructor(private readonly trx: Db) {}

  /** One change-log row per person, in the unit's transaction. */
  async record(userIds: Iterable<string>, entity: Entity, entityId: string, op?: ChangeOp) {
    const ids = [...userIds];
    for (const id of ids) this.affected.add(id);
    await recordChange(this.trx, ids, entity, entityId, op);
  }

  /** A delivered ping, announced to its receiver (ws `new_ping`, Web Push) after commit. */
  newPing(receiverId: string, ping: Ping): void {
    this.newPings.push([receiverId, ping]);
  }

  /** An anchor request, announced to the person asked (Web Push) after commit. */
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
 * Runs `fn` as one unit in its own transaction, then announces its changes. A throw rolls back
 * everything `fn` wrote and announces nothing.
 */
export async function runUnit<T>(
  db: Db,
  announcer: Announcer | undefined,
  fn: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  let changes: ChangeSet | undefined;
  let value: T;
  try {
    value = await db.transaction().execute(async (trx) => {
      changes = new ChangeSet(trx);
      return fn({ trx, changes });
    });
  } catch (err) {
    if (changes) await settle([changes], 'rolledBack');
    throw err;
  }
  if (changes) {
    await settle([changes], 'committed');
    announcer?.announce([changes]);
  }
  return value;
}

/** SQLite's and PostgreSQL's unique-constraint errors. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return (
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === '23505'
  );
}
