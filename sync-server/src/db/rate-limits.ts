import type { Db } from './connection';

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

/** Adds one hit to a fixed-window bucket and returns it. */
export async function hitBucket(
  db: Db,
  bucket: string,
  windowMs: number,
  now = Date.now(),
): Promise<Bucket> {
  return db.transaction().execute(async (trx) => {
    const current = await readBucket(trx, bucket, now);
    const next: Bucket =
      current.count === 0
        ? { count: 1, resetAt: now + windowMs }
        : { count: current.count + 1, resetAt: current.resetAt };
    await trx
      .insertInto('rateLimits')
      .values({ bucket, ...next })
      .onConflict((oc) => oc.column('bucket').doUpdateSet(next))
      .execute();
    return next;
  });
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
