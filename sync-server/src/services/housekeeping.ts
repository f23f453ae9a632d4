/**
 * Housekeeping: what the database sheds on a schedule (at start, then every
 * HOUSEKEEPING_EVERY_MINUTES). Each step removes only rows that can never matter again:
 *
 * - change-log rows older than SYNC_RETENTION_DAYS (docs/sync.md, "Change log", step 5);
 * - sessions past their absolute or idle expiry (docs/security.md, "Sessions"): a read already
 *   treats them as gone, but a session nobody presents again would stay for ever;
 * - rate-limit buckets whose window has ended (a read already counts them as empty).
 *
 * Idempotency records are kept on purpose: they live as long as the account (docs/decisions.md,
 * "Idempotency records are never pruned").
 */
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { deleteExpiredBuckets } from '../db/rate-limits';
import { deleteExpiredSessions } from '../db/sessions';
import { pruneChangeLog } from '../sync/pull';

export interface HousekeepingReport {
  changes: number;
  sessions: number;
  rateLimits: number;
}

export async function runHousekeeping(
  db: Db,
  config: Pick<Config, 'syncRetentionMs' | 'sessionIdleMs' | 'loginThrottle'>,
  now = Date.now(),
): Promise<HousekeepingReport> {
  const changes = await pruneChangeLog(db, config.syncRetentionMs, now);
  const sessions = await deleteExpiredSessions(db, { idleMs: config.sessionIdleMs, now });
  const rateLimits = await deleteExpiredBuckets(db, config.loginThrottle.forgetMs, now);
  return { changes, sessions, rateLimits };
}
