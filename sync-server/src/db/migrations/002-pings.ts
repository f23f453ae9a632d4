import { type Kysely } from 'kysely';

/**
 * Prompts, pings, reactions, anchors, moods, moments, ping packs, push subscriptions, and the
 * change log every device pulls from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prompts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // null for the default prompts every person has
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prompts_owner').on('prompts').column('owner_id').execute();

  await db.schema
    .createTable('prompt_assignments')
    .addColumn('prompt_id', 'text', (c) => c.notNull().references('prompts.id').onDelete('cascade'))
    .addColumn('friend_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prompt_assignments_pk', ['prompt_id', 'friend_id'])
    .execute();

  await db.schema
    .createTable('pings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('receiver_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'prompt' | 'custom' | 'surprise' | 'anchor'
    .addColumn('kind', 'text', (c) => c.notNull())
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
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pings_receiver')
    .on('pings')
    .columns(['receiver_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('pings_sender')
    .on('pings')
    .columns(['sender_id', 'receiver_id', 'created_at'])
    .execute();
  await db.schema.createIndex('pings_created').on('pings').column('created_at').execute();

  await db.schema
    .createTable('reactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ping_id', 'text', (c) => c.notNull().references('pings.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reaction_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reactions_one_per_person', ['ping_id', 'user_id'])
    .execute();
  await db.schema.createIndex('reactions_user').on('reactions').column('user_id').execute();

  await db.schema
    .createTable('anchors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('friend_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    // 'pending' | 'accepted' | 'declined'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('responded_at', 'text')
    .execute();
  await db.schema
    .createIndex('anchors_user')
    .on('anchors')
    .columns(['user_id', 'status'])
    .execute();
  await db.schema
    .createIndex('anchors_friend')
    .on('anchors')
    .columns(['friend_id', 'status'])
    .execute();

  await db.schema
    .createTable('moods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('friend_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mood', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('moods_pair')
    .on('moods')
    .columns(['user_id', 'friend_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('moods_friend')
    .on('moods')
    .columns(['friend_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('moments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ping_id', 'text', (c) => c.notNull().references('pings.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('moments_one_per_ping', ['user_id', 'ping_id'])
    .execute();

  await db.schema
    .createTable('packs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('prompts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('install_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('pack_installs')
    .addColumn('pack_id', 'text', (c) => c.notNull().references('packs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pack_installs_pk', ['pack_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user')
    .on('push_subscriptions')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('energy_snapshots')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('friend_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('energy_snapshots_pk', ['user_id', 'friend_id'])
    .execute();

  // The change log: one row per affected user per change, written in the change's transaction.
  await db.schema
    .createTable('changes')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    // 'upsert' | 'delete'
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('changes_user_seq')
    .on('changes')
    .columns(['user_id', 'seq'])
    .execute();
}
