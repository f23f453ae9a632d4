import { sql, type Kysely } from 'kysely';

/** Accounts, sessions, single-use tokens, friendships, idempotency records and rate-limit buckets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('password_changed_at', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('profile_image_url', 'text')
    .addColumn('tagline', 'text')
    .addColumn('handle', 'text', (c) => c.unique())
    .addColumn('bio', 'text')
    .addColumn('status', 'text')
    .addColumn('location', 'text')
    .addColumn('personal_link', 'text')
    .addColumn('profile_visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('onboarding_completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('onboarding_step', 'integer')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rate_limit_per_day', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('quiet_hours_start', 'text')
    .addColumn('quiet_hours_end', 'text')
    .addColumn('invite_code', 'text', (c) => c.notNull().unique())
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('last_active_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('friendships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('requester_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('addressee_id', 'text', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();
  // One row per pair, whoever asked: the unordered pair is unique.
  await sql`CREATE UNIQUE INDEX friendships_pair ON friendships (min(requester_id, addressee_id), max(requester_id, addressee_id))`.execute(
    db,
  );
  await db.schema
    .createIndex('friendships_addressee')
    .on('friendships')
    .columns(['addressee_id', 'status'])
    .execute();
  await db.schema
    .createIndex('friendships_requester')
    .on('friendships')
    .columns(['requester_id', 'status'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'integer', (c) => c.notNull())
    .execute();
}
