import { sql, type Kysely } from 'kysely';
import { createIndex, notNull, optionalCascadeFrom, person, primaryKey } from './schema';

/** Accounts, sessions, single-use tokens, friendships, idempotency records and rate-limit buckets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', primaryKey)
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
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await createIndex(db, 'users_created_at', 'users', ['created_at']);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', optionalCascadeFrom('users.id'))
    .addColumn('data', 'text', notNull)
    .addColumn('expires_at', 'integer', notNull)
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'sessions_user', 'sessions', ['user_id']);

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', primaryKey)
    .addColumn('user_id', 'text', person)
    .addColumn('kind', 'text', notNull)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'integer', notNull)
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();

  await db.schema
    .createTable('friendships')
    .addColumn('id', 'text', primaryKey)
    .addColumn('requester_id', 'text', person)
    .addColumn('addressee_id', 'text', person)
    .addColumn('status', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addColumn('accepted_at', 'text')
    .execute();
  // One row per pair, whoever asked: the unordered pair is unique.
  await sql`CREATE UNIQUE INDEX friendships_pair ON friendships (min(requester_id, addressee_id), max(requester_id, addressee_id))`.execute(
    db,
  );
  await createIndex(db, 'friendships_addressee', 'friendships', ['addressee_id', 'status']);
  await createIndex(db, 'friendships_requester', 'friendships', ['requester_id', 'status']);

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('caller', 'text', notNull)
    .addColumn('key', 'text', notNull)
    .addColumn('request_hash', 'text', notNull)
    .addColumn('status', 'integer', notNull)
    .addColumn('body', 'text', notNull)
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', primaryKey)
    .addColumn('count', 'integer', notNull)
    .addColumn('reset_at', 'integer', notNull)
    .execute();
}
