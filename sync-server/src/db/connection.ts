/**
 * Opens the SQLite file and the Kysely handle every query module uses.
 * Kysely is the seam for a second dialect: queries are written with its builder, so a
 * PostgreSQL backend needs a dialect and migrations, not new routes.
 */
import BetterSqlite3 from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  sql,
  SqliteDialect,
  type Logger as KyselyLogger,
  type SqliteDatabase,
} from 'kysely';
import { logger } from '../logger';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedDb {
  db: Db;
  sqlite: BetterSqlite3.Database;
  /** Checkpoints the WAL into the main file, empties it, and closes the database. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Called after every statement with its kind (`SelectQueryNode`…) and time (metrics). */
  onQuery?: (nodeKind: string, millis: number) => void;
}

export async function openDatabase(file: string, opts: OpenOptions = {}): Promise<OpenedDb> {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives a process kill (SIGKILL); only an OS crash or power
  // loss can drop the last transactions, never corrupt the file. See docs/decisions.md.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new CamelCasePlugin()],
    ...(opts.onQuery ? { log: timer(opts.onQuery) } : {}),
  });
  await migrate(db);
  return {
    db,
    sqlite,
    async close() {
      if (sqlite.open) checkpoint(sqlite);
      await db.destroy();
    },
  };
}

/** How many prepared statements are kept: every query text of the server, with room to spare. */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite driver prepares every query anew, and preparing (parsing and planning the SQL)
 * costs more than running a typical query of this server. The same SQL text gets the same
 * prepared statement back here: the query texts are few (values are always bound parameters), so
 * a bounded least-recently-used map holds them all; a list of a new length (`IN (?, ?, …)`) only
 * adds an entry. Kysely runs one query at a time on its single connection, so a statement is
 * never in use twice at once, and SQLite re-prepares a cached statement by itself after a schema
 * change (migrations). docs/performance.md has the before and after.
 */
export function withStatementCache(
  sqlite: BetterSqlite3.Database,
  size = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used goes last; the first entry is the one to evict.
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * Copies every committed page of the WAL into the database file and truncates the WAL to zero
 * bytes, so a stopped server leaves one self-contained file (what a copy or a backup of
 * `pingme.sqlite` alone then holds). SQLite does this by itself when the last connection closes,
 * but not while another process (a backup, an sqlite3 shell) keeps the file open.
 */
function checkpoint(sqlite: BetterSqlite3.Database) {
  const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as {
    busy: number;
    log: number;
    checkpointed: number;
  }[];
  if (result?.busy) {
    logger.warn(result, 'WAL checkpoint at close was blocked by a reader; the WAL is kept');
  }
}

function timer(onQuery: NonNullable<OpenOptions['onQuery']>): KyselyLogger {
  return (event) => onQuery(event.query.query.kind, event.queryDurationMillis);
}

const migrator = (db: Db) =>
  new Migrator({ db, provider: { getMigrations: async () => migrations } });

async function migrate(db: Db): Promise<void> {
  const { error, results } = await migrator(db).migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') logger.error({ migration: r.migrationName }, 'migration failed');
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Why the database cannot serve requests, or undefined when it can: it answers a query and
 * every migration this code knows is applied (GET /readyz).
 */
export async function notReadyReason(db: Db): Promise<string | undefined> {
  try {
    await sql`select 1`.execute(db);
    const pending = (await migrator(db).getMigrations()).filter((m) => !m.executedAt);
    if (pending.length > 0) {
      return `Database migrations not applied: ${pending.map((m) => m.name).join(', ')}`;
    }
    return undefined;
  } catch {
    return 'The database does not answer';
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}
