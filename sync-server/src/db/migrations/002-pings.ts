import { type Kysely } from 'kysely';
import {
  cascadeFrom,
  createIndex,
  notNull,
  optionalCascadeFrom,
  person,
  primaryKey,
} from './schema';

/**
 * Prompts, pings, reactions, anchors, moods, moments, ping packs, push subscriptions, and the
 * change log every device pulls from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prompts')
    .addColumn('id', 'text', primaryKey)
    // null for the default prompts every person has
    .addColumn('owner_id', 'text', optionalCascadeFrom('users.id'))
    .addColumn('text', 'text', notNull)
    .addColumn('emoji', 'text', notNull)
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await createIndex(db, 'prompts_owner', 'prompts', ['owner_id']);

  await db.schema
    .createTable('prompt_assignments')
    .addColumn('prompt_id', 'text', cascadeFrom('prompts.id'))
    .addColumn('friend_id', 'text', person)
    .addColumn('owner_id', 'text', person)
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('prompt_assignments_pk', ['prompt_id', 'friend_id'])
    .execute();

  await db.schema
    .createTable('pings')
    .addColumn('id', 'text', primaryKey)
    .addColumn('sender_id', 'text', person)
    .addColumn('receiver_id', 'text', person)
    // 'prompt' | 'custom' | 'surprise' | 'anchor'
    .addColumn('kind', 'text', notNull)
    .addColumn('prompt_id', 'text')
    // the prompt as it read when sent, so a later edit or delete does not rewrite history
    .addColumn('prompt_text', 'text')
    .addColumn('prompt_emoji', 'text')
    .addColumn('custom_text', 'text')
    .addColumn('custom_emoji', 'text')
    .addColumn('anchor_id', 'text')
    .addColumn('group_id', 'text')
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'pings_receiver', 'pings', ['receiver_id', 'created_at']);
  await createIndex(db, 'pings_sender', 'pings', ['sender_id', 'receiver_id', 'created_at']);
  await createIndex(db, 'pings_created', 'pings', ['created_at']);

  await db.schema
    .createTable('reactions')
    .addColumn('id', 'text', primaryKey)
    .addColumn('ping_id', 'text', cascadeFrom('pings.id'))
    .addColumn('user_id', 'text', person)
    .addColumn('reaction_type', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('reactions_one_per_person', ['ping_id', 'user_id'])
    .execute();
  await createIndex(db, 'reactions_user', 'reactions', ['user_id']);

  await db.schema
    .createTable('anchors')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', person)
    .addColumn('friend_id', 'text', person)
    .addColumn('label', 'text')
    .addColumn('text', 'text', notNull)
    .addColumn('emoji', 'text', notNull)
    .addColumn('color', 'text', notNull)
    // 'pending' | 'accepted' | 'declined'
    .addColumn('status', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('responded_at', 'text')
    .execute();
  await createIndex(db, 'anchors_user', 'anchors', ['user_id', 'status']);
  await createIndex(db, 'anchors_friend', 'anchors', ['friend_id', 'status']);

  await db.schema
    .createTable('moods')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', person)
    .addColumn('friend_id', 'text', person)
    .addColumn('mood', 'text', notNull)
    .addColumn('emoji', 'text', notNull)
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'moods_pair', 'moods', ['user_id', 'friend_id', 'created_at']);
  await createIndex(db, 'moods_friend', 'moods', ['friend_id', 'created_at']);

  await db.schema
    .createTable('moments')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', person)
    .addColumn('ping_id', 'text', cascadeFrom('pings.id'))
    .addColumn('title', 'text', notNull)
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('moments_one_per_ping', ['user_id', 'ping_id'])
    .execute();

  await db.schema
    .createTable('packs')
    .addColumn('id', 'text', primaryKey)
    .addColumn('owner_id', 'text', optionalCascadeFrom('users.id'))
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

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', person)
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', notNull)
    .addColumn('auth', 'text', notNull)
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'push_subscriptions_user', 'push_subscriptions', ['user_id']);

  await db.schema
    .createTable('energy_snapshots')
    .addColumn('user_id', 'text', person)
    .addColumn('friend_id', 'text', person)
    .addColumn('score', 'integer', notNull)
    .addColumn('level', 'text', notNull)
    .addColumn('metrics', 'text', notNull)
    .addColumn('computed_at', 'text', notNull)
    .addPrimaryKeyConstraint('energy_snapshots_pk', ['user_id', 'friend_id'])
    .execute();

  // The change log: one row per affected user per change, written in the change's transaction.
  await db.schema
    .createTable('changes')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'text', notNull)
    .addColumn('entity', 'text', notNull)
    .addColumn('entity_id', 'text', notNull)
    // 'upsert' | 'delete'
    .addColumn('op', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'changes_user_seq', 'changes', ['user_id', 'seq']);
}
