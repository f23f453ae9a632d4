/**
 * The tables and runs of columns the shipped migrations build alike, written once (the single
 * column definitions they use are in schema.ts). Part of shipped migrations, so frozen like them:
 * the SQL each helper builds must never change; a different table or run of columns is a new
 * helper, or a new migration.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';
import { cascadeFrom, notNull, person, primaryKey, type Column } from './schema';

/**
 * Columns of one type and definition, added in the order named, for `$call`: a run of alike
 * columns in one line, as `.$call(people('user_id', 'friend_id'))` adds two `person` columns.
 */
const alike =
  (type: 'text' | 'integer', column?: Column) =>
  <N extends string>(...names: N[]) =>
  <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    names.reduce<CreateTableBuilder<T, C | N>>((t, name) => t.addColumn(name, type, column), table);

/** `person` columns. */
export const people = alike('text', person);

/** Text columns every row has. */
export const requiredText = alike('text', notNull);

/** Text columns a row may leave null. */
export const optionalText = alike('text');

/** Integer columns every row has. */
export const requiredInteger = alike('integer', notNull);

/** `create table name` whose first column is its key, the text `id`. */
export const keyedTable = (db: Kysely<unknown>, name: string) =>
  db.schema.createTable(name).addColumn('id', 'text', primaryKey);

/**
 * prompt_assignments' columns, made by two migrations: 002 creates the table, and 003 makes it
 * again (as prompt_assignments_new) with the owner in its key. The caller adds the key.
 */
export const promptAssignmentsTable = (db: Kysely<unknown>, name: string) =>
  db.schema
    .createTable(name)
    .addColumn('prompt_id', 'text', cascadeFrom('prompts.id'))
    .$call(people('friend_id', 'owner_id'))
    .addColumn('created_at', 'text', notNull);
