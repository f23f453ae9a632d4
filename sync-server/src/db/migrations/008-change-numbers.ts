import { sql, type Kysely } from 'kysely';
import { createChangesFriendshipIndex } from './changes-friendship-index';
import { createIndex, notNull, primaryKey } from './schema';
import { requiredInteger, requiredText } from './tables';

/**
 * Change numbers per person (docs/sync.md, "Change log"): a device's cursor counts its person's
 * changes, not everyone's. One global autoincrement is not safe with several writers: on
 * PostgreSQL a sequence value becomes visible when its transaction commits, not when it is
 * taken, so a reader could pass 11 while 10 is still to commit and skip 10 for ever. Each
 * person's next numbers now come from their row in change_counters, updated in the write's own
 * transaction: the row lock orders that person's writers, so their numbers commit in order.
 *
 * The rows already in the log keep their numbers: each person's numbers only have to increase,
 * and every counter starts at the highest number issued so far, so a cursor a device got before
 * this migration means exactly what it meant (it has every change up to it) and is served
 * without a snapshot. `floor` is the highest number pruned (a cursor below it gets a snapshot);
 * here the lowest kept number minus one, as the old log's single floor was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_log')
    .addColumn('user_id', 'text', notNull)
    .addColumn('seq', 'integer', notNull)
    // op: 'upsert' | 'delete' | 'create' (a record's first change: a ping delivered)
    .$call(requiredText('entity', 'entity_id', 'op', 'created_at'))
    .addPrimaryKeyConstraint('change_log_pk', ['user_id', 'seq'])
    .execute();
  await sql`insert into change_log (user_id, seq, entity, entity_id, op, created_at)
    select user_id, seq, entity, entity_id, op, created_at from changes`.execute(db);

  await db.schema
    .createTable('change_counters')
    .addColumn('user_id', 'text', primaryKey)
    .$call(requiredInteger('seq', 'floor'))
    .execute();
  await sql`insert into change_counters (user_id, seq, floor)
    select u.id, b.last, b.floor from users u,
      (select coalesce(max(seq), 0) as last, coalesce(min(seq) - 1, 0) as floor from changes) b`.execute(
    db,
  );

  await db.schema.dropTable('changes').execute();
  await sql`alter table change_log rename to changes`.execute(db);
  await createChangesFriendshipIndex(db);
  await createIndex(db, 'changes_created', 'changes', ['created_at']);
}
