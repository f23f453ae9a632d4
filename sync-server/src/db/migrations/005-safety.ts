import { sql, type Kysely } from 'kysely';

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
    .addColumn('blocker_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await db.schema.createIndex('blocks_blocked').on('blocks').column('blocked_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reported_user_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('ping_id', 'text', (c) => c.references('pings.id').onDelete('cascade'))
    // 'spam' | 'harassment' | 'inappropriate' | 'other'
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    // 'open' | 'resolved'
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .execute();
  await db.schema
    .createIndex('reports_status')
    .on('reports')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema.createIndex('reports_reporter').on('reports').column('reporter_id').execute();
  await db.schema
    .createIndex('reports_reported')
    .on('reports')
    .column('reported_user_id')
    .execute();

  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'integer').execute();
  await sql`update sessions set last_seen_at = ${Date.now()}`.execute(db);
}
