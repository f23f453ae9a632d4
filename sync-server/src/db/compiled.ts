/**
 * Queries compiled once (docs/performance.md, "Kysely's per-query cost"). Building a query with
 * Kysely's builder and compiling it to SQL costs more CPU than SQLite's own run of a small
 * query (a join by primary key: about 10 µs to build and compile, 2 µs to run); the hottest
 * queries of a ping send have a fixed shape, so their SQL is compiled on first use and later
 * calls only bind new values to the same parameters. Results still pass through Kysely's
 * plugins (CamelCasePlugin), so callers see the same rows as from the builder.
 *
 * Every query of this server uses the same plugins (db/connection.ts), so one compiled text per
 * dialect serves every connection and transaction (a process may hold both: migrate-to-postgres).
 */
import {
  CamelCasePlugin,
  type Compilable,
  type CompiledQuery,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type { Db } from './connection';
import { dialectOf, type DialectName } from './dialect';

const MARK = '\u0000PingMe-Argument-';

interface Template<R> {
  query: CompiledQuery<R>;
  /** For each parameter of the SQL: the index of the argument bound there, or -1 (a constant). */
  slots: number[];
}

/**
 * Wraps a query builder whose arguments are all bound as parameters (values, never shapes: no
 * lists, nothing that changes the SQL) into a function that compiles it once. On first use each
 * argument is replaced by a marker to learn which parameters it fills; an argument that is not
 * bound as-is (transformed, or used for the query's shape) is refused there and then.
 */
export function compiledOnce<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<QueryResult<R>> {
  const templates = new Map<DialectName, Template<R>>();
  return (db, ...args) => {
    const dialect = dialectOf(db);
    let template = templates.get(dialect);
    if (!template) {
      template = compileTemplate(db, build, args.length);
      templates.set(dialect, template);
    }
    const { query, slots } = template;
    const parameters = slots.map((slot, i) => (slot < 0 ? query.parameters[i] : args[slot]));
    return executeCompiled<R>(db, { ...query, parameters });
  };
}

// ---------- on SQLite's connection directly, inside the group's transaction ----------

/**
 * SQLite's one connection as Kysely's driver uses it (connection.ts: the statement cache), and
 * the timer Kysely's log would call.
 */
export interface DirectConnection {
  database: SqliteDatabase;
  onQuery?: ((nodeKind: string, millis: number) => void) | undefined;
}

const roots = new WeakMap<Db, DirectConnection>();
const transactions = new WeakMap<Db, DirectConnection>();

/** The SQLite database `db` runs on (connection.ts), for its transactions to use directly. */
export function registerDirectConnection(db: Db, connection: DirectConnection): void {
  roots.set(db, connection);
}

/**
 * Lets the compiled queries of `trx`, a transaction of `root` that holds SQLite's one connection
 * until it commits (the group commit's, mutations/coalesce.ts), run on that connection directly:
 * better-sqlite3 answers at once, and Kysely's path around each statement (the connection's
 * mutex, its plugins, its logger, six promises) cost more than most of these statements do,
 * about 5 µs each (docs/performance.md, "Sessions kept in memory, and the group's statements on
 * the connection").
 * Nothing else can use the connection meanwhile: Kysely gives it to no other query until the
 * transaction ends. On PostgreSQL, and for every other handle, nothing changes.
 */
export function runCompiledDirectly(root: Db, trx: Db): void {
  const connection = roots.get(root);
  if (connection && trx.isTransaction) transactions.set(trx, connection);
}

/** Before `trx` ends: its queries go through Kysely again (which refuses them once it has). */
export function stopCompiledDirectly(trx: Db): void {
  transactions.delete(trx);
}

/** Runs a compiled query as `db.executeQuery` does: directly where runCompiledDirectly allows. */
export function executeCompiled<R>(db: Db, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const connection = transactions.get(db);
  if (!connection) return db.executeQuery<R>(query);
  try {
    return Promise.resolve(runDirect(connection, query));
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/** Column names as the CamelCasePlugin every query of this server uses turns them. */
class ColumnNames extends CamelCasePlugin {
  private readonly names = new Map<string, string>();
  of(column: string): string {
    let name = this.names.get(column);
    if (name === undefined) {
      name = this.camelCase(column);
      this.names.set(column, name);
    }
    return name;
  }
}
const columnNames = new ColumnNames();

/** What Kysely's SQLite connection answers, with the plugin's names (SQLite's values are flat). */
function runDirect<R>(connection: DirectConnection, query: CompiledQuery<R>): QueryResult<R> {
  const started = connection.onQuery ? performance.now() : 0;
  try {
    const stmt = connection.database.prepare(query.sql);
    if (stmt.reader) {
      const rows = stmt.all(query.parameters) as Record<string, unknown>[];
      return {
        rows: rows.map((row) => {
          const out: Record<string, unknown> = {};
          for (const key in row) out[columnNames.of(key)] = row[key];
          return out as R;
        }),
      };
    }
    const { changes, lastInsertRowid } = stmt.run(query.parameters);
    return { insertId: BigInt(lastInsertRowid), numAffectedRows: BigInt(changes), rows: [] };
  } finally {
    // Kysely's logger times failed statements too.
    connection.onQuery?.(query.query.kind, performance.now() - started);
  }
}

function compileTemplate<A extends unknown[], R>(
  db: Db,
  build: (db: Db, ...args: A) => Compilable<R>,
  arity: number,
): Template<R> {
  const marks = Array.from({ length: arity }, (_, k) => `${MARK}${k}`);
  const query = build(db, ...(marks as unknown as A)).compile();
  const slots = query.parameters.map((p) => {
    if (typeof p !== 'string' || !p.includes(MARK)) return -1;
    const k = marks.indexOf(p);
    if (k < 0) throw new Error(`compiledOnce: an argument is not bound as-is in ${query.sql}`);
    return k;
  });
  for (let k = 0; k < arity; k++) {
    if (!slots.includes(k)) throw new Error(`compiledOnce: argument ${k} unused in ${query.sql}`);
  }
  return { query, slots };
}
