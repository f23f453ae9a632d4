import type { Kysely } from 'kysely';
import { createIndex, notNull, primaryKey } from './schema';
import { keyedTable, requiredText } from './tables';

/**
 * What several nodes share through the database (docs/deploy.md):
 *
 * - server_settings: values every node must agree on and that are generated once, by whichever
 *   node starts first (the session secret and the Web Push key pair, when the environment does
 *   not set them);
 * - push_jobs: each Web Push to send, written in the transaction of the write that causes it
 *   and claimed by one node at a time (`claimed_until`, ms; 0 when nobody holds it), so a push
 *   goes out once, and goes out even when the node that took the write dies before sending it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_settings')
    .addColumn('name', 'text', primaryKey)
    .addColumn('value', 'text', notNull)
    .execute();

  await keyedTable(db, 'push_jobs')
    // job: JSON, the payload, its urgency and whether quiet hours apply (push/notifier.ts PushJob)
    .$call(requiredText('receiver_id', 'job'))
    .addColumn('created_at', 'integer', notNull)
    .addColumn('claimed_until', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createIndex(db, 'push_jobs_claimed', 'push_jobs', ['claimed_until', 'created_at']);
}
