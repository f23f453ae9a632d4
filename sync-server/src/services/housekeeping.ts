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
 *
 * Several nodes (PostgreSQL) run it once between them: each node's timer asks, and the one that
 * takes the advisory lock and finds the last run older than the period runs it (runOnce).
 */
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { ADVISORY_LOCKS, isPostgres, tryAdvisoryXactLock } from '../db/dialect';
import { readSetting, writeSetting } from '../db/settings';
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

const LAST_RUN = 'housekeeping_ran_at';

/**
 * Housekeeping unless another node ran it less than a period ago (SQLite, one process: always).
 * The claim is its own short transaction: the advisory lock makes two nodes that ask at the same
 * moment take turns, and the time it writes makes the second one stand down. Answers undefined
 * when another node had it.
 */
export async function runHousekeepingOnce(
  db: Db,
  config: Pick<
    Config,
    'syncRetentionMs' | 'sessionIdleMs' | 'loginThrottle' | 'housekeepingEveryMs'
  >,
  now = Date.now(),
): Promise<HousekeepingReport | undefined> {
  if (isPostgres(db)) {
    const mine = await db.transaction().execute(async (trx) => {
      if (!(await tryAdvisoryXactLock(trx, ADVISORY_LOCKS.housekeeping))) return false;
      const last = Number((await readSetting(trx, LAST_RUN)) ?? 0);
      // A little under a period: timers of nodes started together drift apart.
      if (now - last < config.housekeepingEveryMs * 0.9) return false;
      await writeSetting(trx, LAST_RUN, String(now));
      return true;
    });
    if (!mine) return undefined;
  }
  return runHousekeeping(db, config, now);
}
