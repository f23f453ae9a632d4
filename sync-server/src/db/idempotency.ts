/**
 * Idempotency records (docs/sync.md, guarantee 2): the answer to each (caller, key), stored in the
 * transaction of the write it answers. Across nodes the primary key decides a race: the second
 * insert of a (caller, key) waits for the first one's transaction (PostgreSQL holds the index
 * entry until then) and then inserts nothing; its caller rolls its own write back and answers
 * what the first one stored (mutations/apply.ts).
 */
import { chunks } from './chunks';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { nowIso } from './connection';

export interface StoredResponse {
  requestHash: string;
  status: number;
  body: string;
}

const findQuery = compiledOnce((db: Db, caller: string, key: string) =>
  db
    .selectFrom('idempotencyKeys')
    .select(['requestHash', 'status', 'body'])
    .where('caller', '=', caller)
    .where('key', '=', key),
);

const saveQuery = compiledOnce(
  (
    db: Db,
    caller: string,
    key: string,
    requestHash: string,
    status: number,
    body: string,
    createdAt: string,
  ) =>
    db
      .insertInto('idempotencyKeys')
      .values({ caller, key, requestHash, status, body, createdAt })
      .onConflict((oc) => oc.columns(['caller', 'key']).doNothing()),
);

/** Every keyed write runs both: compiled once (db/compiled.ts). */
export async function findIdempotent(
  db: Db,
  caller: string,
  key: string,
): Promise<StoredResponse | undefined> {
  return (await findQuery(db, caller, key)).rows[0];
}

/** Stores the answer; false when (caller, key) already had one (a concurrent twin committed it). */
export async function saveIdempotent(
  db: Db,
  caller: string,
  key: string,
  r: StoredResponse,
): Promise<boolean> {
  const result = await saveQuery(db, caller, key, r.requestHash, r.status, r.body, nowIso());
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** An answer to store for a caller's key (saveIdempotentEach). */
export interface IdempotentRecord extends StoredResponse {
  caller: string;
  key: string;
}

const saveEachQuery = compiledOnce(
  (
    db: Db,
    callers: string[],
    keys: string[],
    requestHashes: string[],
    statuses: number[],
    bodies: string[],
    createdAt: string,
  ) =>
    db
      .insertInto('idempotencyKeys')
      .values(
        callers.map((caller, i) => ({
          caller,
          key: keys[i]!,
          requestHash: requestHashes[i]!,
          status: statuses[i]!,
          body: bodies[i]!,
          createdAt,
        })),
      )
      .onConflict((oc) => oc.columns(['caller', 'key']).doNothing())
      .returning(['caller', 'key']),
);

/**
 * Stores many answers, a statement per 500 instead of one each (a group of writes: apply.ts);
 * false when any (caller, key) already had one, which is then left as it was. In (caller, key)
 * order, as the change counters are locked in id order: two groups on two nodes that share keys
 * (one batch sent to both) wait for each other instead of deadlocking.
 */
export async function saveIdempotentEach(
  db: Db,
  records: readonly IdempotentRecord[],
): Promise<boolean> {
  const createdAt = nowIso();
  const ordered = [...records].sort((a, b) =>
    a.caller === b.caller ? compare(a.key, b.key) : compare(a.caller, b.caller),
  );
  let saved = 0;
  for (const part of chunks(ordered)) {
    const { rows } = await saveEachQuery(
      db,
      part.map((r) => r.caller),
      part.map((r) => r.key),
      part.map((r) => r.requestHash),
      part.map((r) => r.status),
      part.map((r) => r.body),
      createdAt,
    );
    saved += rows.length;
  }
  return saved === records.length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Thrown inside a write whose idempotency record lost the race to a twin that committed first:
 * the write rolls back and its caller answers the stored record instead.
 */
export class IdempotentTwin extends Error {
  constructor() {
    super('a concurrent delivery of this Idempotency-Key committed first');
  }
}
