/**
 * Idempotency records (docs/sync.md, guarantee 2): the answer to each (caller, key), stored in the
 * transaction of the write it answers. Across nodes the primary key decides a race: the second
 * insert of a (caller, key) waits for the first one's transaction (PostgreSQL holds the index
 * entry until then) and then inserts nothing; its caller rolls its own write back and answers
 * what the first one stored (mutations/apply.ts).
 */
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

/**
 * Thrown inside a write whose idempotency record lost the race to a twin that committed first:
 * the write rolls back and its caller answers the stored record instead.
 */
export class IdempotentTwin extends Error {
  constructor() {
    super('a concurrent delivery of this Idempotency-Key committed first');
  }
}
