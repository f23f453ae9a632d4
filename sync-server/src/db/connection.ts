/**
 * Opens the SQLite file and the Kysely handle every query module uses.
 * Kysely is the seam for a second dialect: queries are written with its builder, so a
 * PostgreSQL backend needs a dialect and migrations, not new routes.
 */
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedDb {
  db: Db;
  sqlite: BetterSqlite3.Database;
  close(): Promise<void>;
}

export async function openDatabase(file: string): Promise<OpenedDb> {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives a process kill (SIGKILL); only an OS crash or power
  // loss can drop the last transactions, never corrupt the file. See docs/decisions.md.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  await migrate(db);
  return {
    db,
    sqlite,
    async close() {
      await db.destroy();
    },
  };
}

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') console.error(`migration ${r.migrationName} failed`);
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export function nowIso(): string {
  return new Date().toISOString();
}
