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
 * Failure counts with growing delays (services/sign-in-throttle.ts) live in the same table under
 * their own bucket names: there `count` is the number of failures and `reset_at` the time of the
 * last one (ms).
 */
export interface FailureCount {
  failures: number;
  lastAt: number;
}

/** The counts of these buckets that are still remembered (a failure within `forgetMs`). */
export async function readFailures(
  db: Db,
  buckets: string[],
  forgetMs: number,
  now = Date.now(),
): Promise<Map<string, FailureCount>> {
  const out = new Map<string, FailureCount>();
  if (!buckets.length) return out;
  const rows = await db
    .selectFrom('rateLimits')
    .select(['bucket', 'count', 'resetAt'])
    .where('bucket', 'in', buckets)
    .execute();
  for (const r of rows) {
    if (now - r.resetAt < forgetMs) out.set(r.bucket, { failures: r.count, lastAt: r.resetAt });
  }
  return out;
}

/** One more failure in each bucket, now (a forgotten count starts again at 1). */
export async function addFailures(
  db: Db,
  buckets: string[],
  forgetMs: number,
  now = Date.now(),
): Promise<void> {
  const known = await readFailures(db, buckets, forgetMs, now);
  for (const bucket of buckets) {
    const next = { count: (known.get(bucket)?.failures ?? 0) + 1, resetAt: now };
    await db
      .insertInto('rateLimits')
      .values({ bucket, ...next })
      .onConflict((oc) => oc.column('bucket').doUpdateSet(next))
      .execute();
  }
}

/** Forgets these buckets' counts (a right password from that client). */
export async function clearBuckets(db: Db, buckets: string[]): Promise<void> {
  if (buckets.length) await db.deleteFrom('rateLimits').where('bucket', 'in', buckets).execute();
}
