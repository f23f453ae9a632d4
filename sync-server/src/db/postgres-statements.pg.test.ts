/**
 * Named prepared statements on PostgreSQL (postgres-statements.ts), on a real server: Kysely's
 * queries are prepared once per connection and run by name, and a table changed under a prepared
 * statement (another node's migration in a rolling upgrade) costs a re-prepare, not an error; and
 * an old node restarted after a new one migrated the database still starts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from '../../test/postgres';
import { notReadyReason, openDatabase, postgresPool, type OpenedDb } from './connection';
import { isRetryableConflict } from './dialect';

let url: string;
let opened: OpenedDb;

beforeAll(async () => {
  url = await createDatabase(inject('postgres').adminUrl);
  // One connection: every query below meets the statements the earlier ones prepared.
  opened = await openDatabase(url, { poolSize: 1 });
});
afterAll(async () => {
  await opened.close();
  await dropDatabase(url);
});

/** The statements prepared on the pool's one connection, by their text. */
async function prepared(): Promise<string[]> {
  const { rows } = await sql<{
    statement: string;
  }>`select statement from pg_prepared_statements`.execute(opened.db);
  return rows.map((r) => r.statement);
}

describe('named prepared statements on PostgreSQL', () => {
  it('prepares a query the first time and runs it by name afterwards', async () => {
    const find = () =>
      opened.db.selectFrom('users').select('id').where('email', '=', 'nobody@x.test').execute();
    await find();
    const texts = (await prepared()).filter((t) => t.includes('from "users" where "email"'));
    expect(texts).toHaveLength(1);
    await find();
    await find();
    // Run again by name: still the one statement, not one per run.
    expect((await prepared()).filter((t) => t.includes('from "users" where "email"'))).toEqual(
      texts,
    );
  });

  it('re-prepares a statement whose table changed under it, outside a transaction', async () => {
    await sql`create table plan_change (id integer primary key)`.execute(opened.db);
    await sql`insert into plan_change (id) values (1)`.execute(opened.db);
    const all = () =>
      sql<Record<string, unknown>>`select * from plan_change where id = ${1}`.execute(opened.db);
    expect((await all()).rows).toEqual([{ id: 1 }]);
    // What a migration on another node does: the prepared `select *` now returns another shape.
    const other = postgresPool(url, 1);
    await other.query(`alter table plan_change add column note text default 'x'`);
    await other.end();
    expect((await all()).rows).toEqual([{ id: 1, note: 'x' }]);
  });

  it('inside a transaction, answers an error the unit of work runs again', async () => {
    await sql`create table plan_change_trx (id integer primary key)`.execute(opened.db);
    const all = (db: typeof opened.db) =>
      sql<Record<string, unknown>>`select * from plan_change_trx where id >= ${0}`.execute(db);
    await all(opened.db);
    const other = postgresPool(url, 1);
    await other.query(`alter table plan_change_trx add column note text`);
    await other.end();
    const err = await opened.db
      .transaction()
      .execute((trx) => all(trx))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ code: '0A000' });
    expect(isRetryableConflict(err)).toBe(true);
    // Run again, as the unit of work would: the text has a new name and is prepared afresh.
    expect((await opened.db.transaction().execute((trx) => all(trx))).rows).toEqual([]);
  });
});

describe('a rolling upgrade on PostgreSQL', () => {
  it('an old node restarted after a new one migrated the database starts, and is ready', async () => {
    const newer = await createDatabase(inject('postgres').adminUrl);
    try {
      await (await openDatabase(newer, { poolSize: 1 })).close();
      const other = await openDatabase(newer, { poolSize: 1 });
      // 1 ms after the latest migration, as a newer version's migrator records it (Kysely puts a
      // migration's time ahead of the clock when several finish within one millisecond).
      const { rows } = await sql<{
        t: string;
      }>`select max(timestamp) as t from kysely_migration`.execute(other.db);
      const after = new Date(Date.parse(rows[0]!.t) + 1).toISOString();
      await sql`insert into kysely_migration (name, timestamp) values ('999-from-a-newer-version', ${after})`.execute(
        other.db,
      );
      await other.close();
      const old = await openDatabase(newer, { poolSize: 1 });
      try {
        expect(await notReadyReason(old.db)).toBeUndefined();
      } finally {
        await old.close();
      }
    } finally {
      await dropDatabase(newer);
    }
  });
});
