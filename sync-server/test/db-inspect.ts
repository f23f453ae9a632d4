/**
 * Reading a test server's whole database, whichever engine holds it (SQLite or PostgreSQL): the
 * tables, and every row of one as the engine stores it (snake_case columns, no plugins).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../src/db/connection';
import { isPostgres } from '../src/db/dialect';

/** The server's own tables (not Kysely's migration tables). */
export async function tableNames(db: Db): Promise<string[]> {
  const raw = db.withoutPlugins();
  const r = isPostgres(db)
    ? await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
        raw,
      )
    : await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
        raw,
      );
  return r.rows
    .map((t) => t.name)
    .filter((n) => !n.startsWith('kysely_'))
    .sort();
}

/** Every row of `table` (those matching `where`, a `sql` fragment, when given). */
export async function tableRows(
  db: Db,
  table: string,
  where?: RawBuilder<unknown>,
): Promise<Record<string, unknown>[]> {
  const r = await sql<
    Record<string, unknown>
  >`select * from ${sql.table(table)} ${where ?? sql``}`.execute(db.withoutPlugins());
  return r.rows;
}
