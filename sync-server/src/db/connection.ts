/**
 * Opens the database and the Kysely handle every query module uses: the SQLite file (the
 * default), or PostgreSQL when given a `postgres://` URL (DATABASE_URL, several nodes: see
 * docs/deploy.md). Queries are written with Kysely's builder, so both run the same query modules
 * and the same migrations; what differs is in dialect.ts.
 */
import BetterSqlite3 from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type Logger as KyselyLogger,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { logger } from '../logger';
import { startCheckpointer } from './checkpointer';
import { registerDirectConnection } from './compiled';
import {
  SessionCache,
  SqliteDataVersion,
  UNWATCHED,
  registerSessionCache,
  watchIdentityWrites,
  watchPostgresIdentityWrites,
  writeScope,
} from './session-cache';
import { Migrator, type Migration } from 'kysely/migration';
import { isPostgres, isPostgresUrl, PostgresMigrationPlugin, type DialectName } from './dialect';
import { migrations } from './migrations/index';
import { nameStatements } from './postgres-statements';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedDb {
  db: Db;
  dialect: DialectName;
  /** The SQLite handle (SQLite only: backups, tests). */
  sqlite: BetterSqlite3.Database;
  /** The connection pool (PostgreSQL only). */
  pool: pg.Pool | undefined;
  /** The PostgreSQL URL, or the SQLite file. */
  location: string;
  /** SQLite: checkpoints the WAL into the main file, empties it, and closes the database. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Called after every statement with its kind (`SelectQueryNode`…), time (metrics) and text. */
  onQuery?: (nodeKind: string, millis: number, sql: string) => void;
  /** PostgreSQL: connections in the pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** SQLite file: WAL checkpoints on a thread of their own (checkpointer.ts; the server). */
  checkpointThread?: boolean;
}

/** Opens `location` (a SQLite file, or a PostgreSQL URL) and runs the migrations. */
export async function openDatabase(location: string, opts: OpenOptions = {}): Promise<OpenedDb> {
  if (isPostgresUrl(location)) return openPostgres(location, opts);
  const file = location;
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives a process kill (SIGKILL); only an OS crash or power
  // loss can drop the last transactions, never corrupt the file. See docs/decisions.md.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Every write runs in its own savepoint of a shared transaction (mutations/coalesce.ts), and
  // SQLite keeps the first copy of each page a savepoint changes in a sub-journal. By default the
  // sub-journal moves to a temporary file once a savepoint passes 64 KB (a send that splits
  // index pages can), and stays a file for the rest of the transaction: two write() calls per
  // page for every later write, 45 % of the server's file writes under a load of sends. In
  // memory it holds one write's pages at a time (docs/performance.md, "The savepoints'
  // sub-journal"); temporary tables and sorts live in memory too.
  sqlite.pragma('temp_store = MEMORY');
  const sessions = new SessionCache(new SqliteDataVersion(sqlite));
  const database = withStatementCache(sqlite, STATEMENT_CACHE_SIZE, sessions);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database }),
    plugins: [new CamelCasePlugin()],
    ...(opts.onQuery ? { log: timer(opts.onQuery) } : {}),
  });
  await migrate(db);
  registerSessionCache(db, sessions);
  registerDirectConnection(db, {
    database,
    inTransaction: () => sqlite.inTransaction,
    onQuery: opts.onQuery,
  });
  const checkpointer =
    opts.checkpointThread && file !== ':memory:' ? startCheckpointer(sqlite, file) : undefined;
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    pool: undefined,
    location: file,
    async close() {
      await checkpointer?.stop();
      if (sqlite.open) checkpoint(sqlite);
      await db.destroy();
    },
  };
}

/**
 * PostgreSQL's int8 (counts, and every integer column: dialect.ts) and numeric (sums) as
 * JavaScript numbers, as SQLite gives them: this server's integers stay far below 2^53.
 */
const PG_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A pool whose connections keep their statements prepared (postgres-statements.ts), and that
 * never throws from an idle connection's error (a restarted server, a kill).
 */
export function postgresPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: PG_TYPES });
  pool.on('connect', nameStatements);
  pool.on('error', (err) => logger.warn({ err }, 'an idle PostgreSQL connection failed'));
  return pool;
}

async function openPostgres(url: string, opts: OpenOptions): Promise<OpenedDb> {
  const pool = postgresPool(url, opts.poolSize);
  // Unused until the change bus, which hears other nodes' writes, is attached (server.ts).
  const sessions = new SessionCache(UNWATCHED);
  watchPostgresIdentityWrites(pool, sessions);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
    ...(opts.onQuery ? { log: timer(opts.onQuery) } : {}),
  });
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  registerSessionCache(db, sessions);
  return {
    db,
    dialect: 'postgres',
    get sqlite(): BetterSqlite3.Database {
      throw new Error('This database is PostgreSQL, not SQLite');
    },
    pool,
    location: url,
    async close() {
      await db.destroy();
    },
  };
}

/** How many prepared statements are kept: every query text of the server, with room to spare. */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite dialect, but every transaction begins IMMEDIATE (Kysely's driver sends a plain,
 * deferred `begin`). Deferred, a transaction that has read cannot write once another process
 * (`npm run make-admin`, an operator's sqlite3 shell, a second server on the same DATA_DIR) has
 * committed meanwhile: SQLite answers SQLITE_BUSY at once, busy_timeout or not, and the write
 * failed with a 500. IMMEDIATE takes the write lock first, so such a transaction waits its turn
 * (busy_timeout) instead; within the server nothing changes, its one connection was the only
 * writer anyway. test/another-writer.test.ts.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite driver prepares every query anew, and preparing (parsing and planning the SQL)
 * costs more than running a typical query of this server. The same SQL text gets the same
 * prepared statement back here: the query texts are few (values are always bound parameters), so
 * a bounded least-recently-used map holds them all; a list of a new length (`IN (?, ?, …)`) only
 * adds an entry. Kysely runs one query at a time on its single connection, so a statement is
 * never in use twice at once, and SQLite re-prepares a cached statement by itself after a schema
 * change (migrations). docs/performance.md has the before and after. With a session cache, a
 * statement that writes `users` or `sessions` comes back wrapped so that it first drops what it
 * may change from the cache (session-cache.ts).
 */
export function withStatementCache(
  sqlite: BetterSqlite3.Database,
  size = STATEMENT_CACHE_SIZE,
  sessions?: SessionCache,
): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used goes last; the first entry is the one to evict.
        cache.delete(sql);
      } else {
        const prepared = sqlite.prepare(sql);
        stmt = sessions
          ? watchIdentityWrites(sessions, writeScope(sql, prepared.readonly), prepared)
          : prepared;
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
  return (event) => onQuery(event.query.query.kind, event.queryDurationMillis, event.query.sql);
}

/**
 * The migrations to hand Kysely's migrator: this version's, and by name only those a newer version
 * has already run on the database (`newer`), which are never run here. Without them the migrator
 * refuses to start ("previously executed migration … is missing"): an old node restarted during
 * a rolling upgrade, after a new one migrated, could not come back.
 */
const migrator = (db: Db, newer: readonly string[] = []) =>
  new Migrator({
    db,
    provider: {
      getMigrations: async () => ({
        ...migrations,
        ...Object.fromEntries(newer.map((name) => [name, ranByNewerVersion(name)])),
      }),
    },
  });

function ranByNewerVersion(name: string): Migration {
  return {
    up: () => Promise.reject(new Error(`Migration ${name} belongs to a newer version`)),
  };
}

/** Migrations the database records that this version does not have: a newer version ran them. */
async function newerMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return rows.map((r) => r.name).filter((name) => !Object.hasOwn(migrations, name));
}

async function migrate(db: Db): Promise<void> {
  const newer = await newerMigrations(db);
  if (newer.length) {
    // A migration keeps the previous version working (docs/deploy.md, "Rolling restarts and
    // upgrades"), so this version runs on the newer schema.
    logger.warn(
      { migrations: newer },
      'the database has migrations of a newer version of PingMe; this version runs on it without them',
    );
  }
  // On PostgreSQL the migrations' SQLite types are translated (dialect.ts); the migrator takes a
  // lock of its own there, so nodes that start together migrate once.
  const target = isPostgres(db) ? db.withPlugin(new PostgresMigrationPlugin()) : db;
  const { error, results } = await migrator(target, newer).migrateToLatest();
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
