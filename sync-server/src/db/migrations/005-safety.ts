import { sql, type Kysely } from 'kysely';
import { createIndex, notNull, optionalCascadeFrom } from './schema';
import { keyedTable, optionalText, people } from './tables';

/**
 * Trust and safety (issue 7): blocks between two people, reports about a person or a ping, and
 * the session's last use (idle expiry, docs/security.md).
 *
 * - blocks: one row per (blocker, blocked). Both people's rows go with either account.
 * - reports: reporter and reported person cascade with their accounts (deleting an account
 *   deletes everything it owns and everything about it); the ping is optional and goes with its
 *   ping. `resolved_by` is kept as a plain id: an admin who deletes their account leaves it.
 * - sessions.last_seen_at (ms): touched at most once an hour by signed-in requests; a session
 *   unused for SESSION_IDLE_DAYS is dead. Rows from before this migration count as seen now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('blocks')
    .$call(people('blocker_id', 'blocked_id'))
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await createIndex(db, 'blocks_blocked', 'blocks', ['blocked_id']);

  await keyedTable(db, 'reports')
    .$call(people('reporter_id', 'reported_user_id'))
    .addColumn('ping_id', 'text', optionalCascadeFrom('pings.id'))
    // 'spam' | 'harassment' | 'inappropriate' | 'other'
    .addColumn('reason', 'text', notNull)
    .addColumn('details', 'text')
    // 'open' | 'resolved'
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', notNull)
    .$call(optionalText('resolved_at', 'resolved_by'))
    .execute();
  await createIndex(db, 'reports_status', 'reports', ['status', 'created_at']);
  await createIndex(db, 'reports_reporter', 'reports', ['reporter_id']);
  await createIndex(db, 'reports_reported', 'reports', ['reported_user_id']);

  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'integer').execute();
  await sql`update sessions set last_seen_at = ${Date.now()}`.execute(db);
}
