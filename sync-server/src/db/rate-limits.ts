import type { ExpressionBuilder } from 'kysely';
import type { Db } from './connection';
import type { Database } from './schema';

export interface Bucket {
  count: number;
  resetAt: number;
}

export async function readBucket(db: Db, bucket: string, now = Date.now()): Promise<Bucket> {
  const row = await db
    .selectFrom('rateLimits')
    .select(['count', 'resetAt'])
    .where('bucket', '=', bucket)
    .executeTakeFirst();
  if (!row || row.resetAt <= now) return { count: 0, resetAt: now };
  return row;
}

/**
 * Adds one hit to a fixed-window bucket and returns it, in one statement: it runs as it is inside
 * the caller's transaction (a batch) or on its own, and two concurrent hits never lose one.
 */
export async function hitBucket(
  db: Db,
  bucket: string,
  windowMs: number,
  now = Date.now(),
): Promise<Bucket> {
  const expired = (eb: ExpressionBuilder<Database, 'rateLimits'>) =>
    eb('rateLimits.resetAt', '<=', now);
  return db
    .insertInto('rateLimits')
    .values({ bucket, count: 1, resetAt: now + windowMs })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when(expired(eb))
          .then(1)
          .else(eb('rateLimits.count', '+', 1))
          .end(),
        resetAt: eb
          .case()
          .when(expired(eb))
          .then(now + windowMs)
          .else(eb.ref('rateLimits.resetAt'))
          .end(),
      })),
    )
    .returning(['count', 'resetAt'])
    .executeTakeFirstOrThrow();
}

export async function clearBucket(db: Db, bucket: string) {
  await db.deleteFrom('rateLimits').where('bucket', '=', bucket).execute();
}

/**
 * Deletes buckets whose window has ended: readBucket already reads them as empty, so nothing
 * changes but the table's size (housekeeping). Answers how many went.
 */
export async function deleteExpiredBuckets(db: Db, now = Date.now()): Promise<number> {
  const r = await db.deleteFrom('rateLimits').where('resetAt', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
