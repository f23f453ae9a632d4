import { type Kysely } from 'kysely';
import { cascadeFrom, createIndex, notNull, optionalPerson, person } from './schema';
import { keyedTable, optionalText, people, promptAssignmentsTable, requiredText } from './tables';

/**
 * Prompts, pings, reactions, anchors, moods, moments, ping packs, push subscriptions, and the
 * change log every device pulls from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'prompts')
    // null for the default prompts every person has
    .addColumn('owner_id', 'text', optionalPerson)
    .$call(requiredText('text', 'emoji'))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(requiredText('created_at', 'updated_at'))
    .execute();
  await createIndex(db, 'prompts_owner', 'prompts', ['owner_id']);

  await promptAssignmentsTable(db, 'prompt_assignments')
    .addPrimaryKeyConstraint('prompt_assignments_pk', ['prompt_id', 'friend_id'])
    .execute();

  await keyedTable(db, 'pings')
    .$call(people('sender_id', 'receiver_id'))
    // 'prompt' | 'custom' | 'surprise' | 'anchor'
    .addColumn('kind', 'text', notNull)
    // the prompt's text and emoji as they read when sent, so a later edit or delete does not
    // rewrite history
    .$call(optionalText('prompt_id', 'prompt_text', 'prompt_emoji'))
    .$call(optionalText('custom_text', 'custom_emoji'))
    .$call(optionalText('anchor_id', 'group_id'))
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'pings_receiver', 'pings', ['receiver_id', 'created_at']);
  await createIndex(db, 'pings_sender', 'pings', ['sender_id', 'receiver_id', 'created_at']);
  await createIndex(db, 'pings_created', 'pings', ['created_at']);

  await keyedTable(db, 'reactions')
    .addColumn('ping_id', 'text', cascadeFrom('pings.id'))
    .addColumn('user_id', 'text', person)
    .$call(requiredText('reaction_type', 'created_at'))
    .addUniqueConstraint('reactions_one_per_person', ['ping_id', 'user_id'])
    .execute();
  await createIndex(db, 'reactions_user', 'reactions', ['user_id']);

  await keyedTable(db, 'anchors')
    .$call(people('user_id', 'friend_id'))
    .addColumn('label', 'text')
    // status: 'pending' | 'accepted' | 'declined'
    .$call(requiredText('text', 'emoji', 'color', 'status', 'created_at'))
    .addColumn('responded_at', 'text')
    .execute();
  await createIndex(db, 'anchors_user', 'anchors', ['user_id', 'status']);
  await createIndex(db, 'anchors_friend', 'anchors', ['friend_id', 'status']);

  await keyedTable(db, 'moods')
    .$call(people('user_id', 'friend_id'))
    .$call(requiredText('mood', 'emoji'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'moods_pair', 'moods', ['user_id', 'friend_id', 'created_at']);
  await createIndex(db, 'moods_friend', 'moods', ['friend_id', 'created_at']);

  await keyedTable(db, 'moments')
    .addColumn('user_id', 'text', person)
    .addColumn('ping_id', 'text', cascadeFrom('pings.id'))
    .addColumn('title', 'text', notNull)
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('moments_one_per_ping', ['user_id', 'ping_id'])
    .execute();

  await keyedTable(db, 'packs')
    .addColumn('owner_id', 'text', optionalPerson)
    .addColumn('title', 'text', notNull)
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('prompts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('install_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', notNull)
    .execute();
  await db.schema
    .createTable('pack_installs')
    .addColumn('pack_id', 'text', cascadeFrom('packs.id'))
    .addColumn('user_id', 'text', person)
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('pack_installs_pk', ['pack_id', 'user_id'])
    .execute();

  await keyedTable(db, 'push_subscriptions')
    .addColumn('user_id', 'text', person)
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .$call(requiredText('p256dh', 'auth'))
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'push_subscriptions_user', 'push_subscriptions', ['user_id']);

  await db.schema
    .createTable('energy_snapshots')
    .$call(people('user_id', 'friend_id'))
    .addColumn('score', 'integer', notNull)
    .$call(requiredText('level', 'metrics', 'computed_at'))
    .addPrimaryKeyConstraint('energy_snapshots_pk', ['user_id', 'friend_id'])
    .execute();

  // The change log: one row per affected user per change, written in the change's transaction.
  await db.schema
    .createTable('changes')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    // op: 'upsert' | 'delete'
    .$call(requiredText('user_id', 'entity', 'entity_id', 'op', 'created_at'))
    .execute();
  await createIndex(db, 'changes_user_seq', 'changes', ['user_id', 'seq']);
}
