/**
 * The partial index on the change log's friendship rows, made by two migrations: 006 adds it,
 * and 008 makes it again on the new `changes` table that replaces the old one. Part of shipped
 * migrations, so frozen like them: a different index is a new migration, never an edit here.
 */
import { sql, type Kysely } from 'kysely';

/** `changes_friendship`: changes(entity_id) where entity = 'friendship'. */
export async function createChangesFriendshipIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('changes_friendship')
    .on('changes')
    .column('entity_id')
    .where(sql.ref('entity'), '=', 'friendship')
    .execute();
}
