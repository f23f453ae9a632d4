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

/** Failure counts (sign-in throttling) are the buckets named `login:…`; see FailureCount. */
export const FAILURE_BUCKETS = 'login:%';

/**
 * Deletes what no longer counts (housekeeping), answering how many rows went: fixed-window
 * buckets whose window has ended (readBucket already reads them as empty), and failure counts
 * with no failure for `forgetMs` (readFailures already ignores them).
 */
export async function deleteExpiredBuckets(
  db: Db,
  forgetMs: number,
  now = Date.now(),
): Promise<number> {
  const r = await db
    .deleteFrom('rateLimits')
    .where((eb) =>
      eb.or([
        eb.and([eb('bucket', 'not like', FAILURE_BUCKETS), eb('resetAt', '<=', now)]),
        eb.and([eb('bucket', 'like', FAILURE_BUCKETS), eb('resetAt', '<=', now - forgetMs)]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
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
