import { sql, type Kysely } from 'kysely';
import { createIndex, notNull, optionalPerson, person, primaryKey } from './schema';
import { keyedTable, optionalText, people, requiredInteger, requiredText } from './tables';

/** Accounts, sessions, single-use tokens, friendships, idempotency records and rate-limit buckets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'users')
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .$call(optionalText('password_hash', 'password_changed_at'))
    .$call(optionalText('first_name', 'last_name', 'profile_image_url', 'tagline'))
    .addColumn('handle', 'text', (c) => c.unique())
    .$call(optionalText('bio', 'status', 'location', 'personal_link'))
    .addColumn('profile_visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('onboarding_completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('onboarding_step', 'integer')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rate_limit_per_day', 'integer', (c) => c.notNull().defaultTo(50))
    .$call(optionalText('quiet_hours_start', 'quiet_hours_end'))
    .addColumn('invite_code', 'text', (c) => c.notNull().unique())
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('last_active_at', 'text')
    .$call(requiredText('created_at', 'updated_at'))
    .execute();
  await createIndex(db, 'users_created_at', 'users', ['created_at']);

  await keyedTable(db, 'sessions')
    .addColumn('user_id', 'text', optionalPerson)
    .addColumn('data', 'text', notNull)
    .addColumn('expires_at', 'integer', notNull)
    .addColumn('created_at', 'text', notNull)
    .execute();
  await createIndex(db, 'sessions_user', 'sessions', ['user_id']);

  await keyedTable(db, 'tokens')
    .addColumn('user_id', 'text', person)
    .addColumn('kind', 'text', notNull)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'integer', notNull)
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();

  await keyedTable(db, 'friendships')
    .$call(people('requester_id', 'addressee_id'))
    .$call(requiredText('status', 'created_at'))
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
    .$call(requiredText('caller', 'key', 'request_hash'))
    .addColumn('status', 'integer', notNull)
    .$call(requiredText('body', 'created_at'))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', primaryKey)
    .$call(requiredInteger('count', 'reset_at'))
    .execute();
}
