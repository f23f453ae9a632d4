/**
 * The column definitions and indexes the shipped migrations repeat, written once. Part of
 * shipped migrations, so frozen like them: the SQL each helper builds must never change (a
 * database migrated before the helper existed has exactly what a fresh one gets); a different
 * column or index is a new helper, or a new migration.
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/** What `addColumn` takes as its third argument. */
export type Column = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** The table's key. */
export const primaryKey: Column = (c) => c.primaryKey();

/** A value every row has. */
export const notNull: Column = (c) => c.notNull();

/** A reference every row has to `target` (`table.column`); the row goes when that row does. */
export const cascadeFrom =
  (target: string): Column =>
  (c) =>
    c.notNull().references(target).onDelete('cascade');

/** The same reference where a row may have none (null). */
export const optionalCascadeFrom =
  (target: string): Column =>
  (c) =>
    c.references(target).onDelete('cascade');

/** A person the row belongs to or is about: it goes with their account. */
export const person: Column = cascadeFrom('users.id');

/** The same where the row may have no person (null); with one, it goes with their account. */
export const optionalPerson: Column = optionalCascadeFrom('users.id');

/** `create index name on table (columns…)`. */
export async function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
): Promise<void> {
  await db.schema.createIndex(name).on(table).columns(columns).execute();
}
