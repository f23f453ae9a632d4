import type { Db } from './connection';
import { nowIso } from './connection';

export interface StoredResponse {
  requestHash: string;
  status: number;
  body: string;
}

export async function findIdempotent(
  db: Db,
  caller: string,
  key: string,
): Promise<StoredResponse | undefined> {
  return db
    .selectFrom('idempotencyKeys')
    .select(['requestHash', 'status', 'body'])
    .where('caller', '=', caller)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function saveIdempotent(db: Db, caller: string, key: string, r: StoredResponse) {
  await db
    .insertInto('idempotencyKeys')
    .values({
      caller,
      key,
      requestHash: r.requestHash,
      status: r.status,
      body: r.body,
      createdAt: nowIso(),
    })
    .execute();
}

/** Records older than the retention window are dropped; a replay after that is a new request. */
export async function pruneIdempotent(db: Db, olderThanIso: string) {
  await db.deleteFrom('idempotencyKeys').where('createdAt', '<', olderThanIso).execute();
}
