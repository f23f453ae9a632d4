import type { Kysely } from 'kysely';

/**
 * pings.written_at: when the sender wrote the ping, as their device said (ISO), where that is
 * earlier than when the server received it (`created_at`): a ping written offline and sent hours
 * later. Null means the same as created_at (every ping before this column, and pings sent at
 * once). The server never stores a time after its own clock (services/pings.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pings').addColumn('written_at', 'text').execute();
}
