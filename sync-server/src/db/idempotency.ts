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
    db.insertInto('idempotencyKeys').values({ caller, key, requestHash, status, body, createdAt }),
);

/** Every keyed write runs both: compiled once (db/compiled.ts). */
export async function findIdempotent(
  db: Db,
  caller: string,
  key: string,
): Promise<StoredResponse | undefined> {
  return (await findQuery(db, caller, key)).rows[0];
}

export async function saveIdempotent(db: Db, caller: string, key: string, r: StoredResponse) {
  await saveQuery(db, caller, key, r.requestHash, r.status, r.body, nowIso());
}
