/**
 * Queries compiled once (docs/performance.md, "Ping send"). Building a query with
 * Kysely's builder and compiling it to SQL costs more CPU than SQLite's own run of a small
 * query (a join by primary key: about 10 µs to build and compile, 2 µs to run); the hottest
 * queries (a ping send's, a pull's, a reaction's, a read mark's) have a fixed shape, or one per
 * length of a list of ids, so their SQL is compiled on first use and later calls only bind new
 * values to the same parameters (docs/performance.md, "The mixed load's queries compiled
 * once"). Results are what Kysely's plugins (CamelCasePlugin) make of them, so callers see the
 * same rows as from the builder. On SQLite they run on the connection directly where that
 * answers the same (executeCompiled).
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
import { dialectOf } from './dialect';

const MARK = '\u0000PingMe-Argument-';

interface Template<R> {
  query: CompiledQuery<R>;
  /** For each parameter of the SQL: the index of the argument bound there, or -1 (a constant). */
  slots: number[];
  /** For each parameter from a list argument: the element's index in it (else -1). */
  elements: number[];
}

/**
 * Templates one query keeps, at most: one per dialect and length of each list argument. Loads
 * are chunked (chunks.ts, 500 ids), so a list query needs at most a few hundred.
 */
const MAX_TEMPLATES = 1024;

/**
 * Wraps a query builder whose arguments are all bound as parameters (values, never shapes:
 * nothing that changes the SQL) into a function that compiles it once. On first use each
 * argument is replaced by a marker to learn which parameters it fills; an argument that is not
 * bound as-is (transformed, or used for the query's shape) is refused there and then.
 * An array argument is a list of values (`where id in (…)`): each element must be bound as-is,
 * and the query is compiled once per length of the list (an empty list too: what the builder
 * makes of it, it makes once).
 */
export function compiledOnce<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<QueryResult<R>> {
  const templates = new Map<string, Template<R>>();
  return (db, ...args) => {
    let key: string = dialectOf(db);
    for (const a of args) if (Array.isArray(a)) key += `,${a.length}`;
    let template = templates.get(key);
    if (!template) {
      template = compileTemplate(db, build, args);
      if (templates.size < MAX_TEMPLATES) templates.set(key, template);
    }
    const { query, slots, elements } = template;
    const parameters = slots.map((slot, i) => {
      if (slot < 0) return query.parameters[i];
      const at = elements[i]!;
      return at < 0 ? args[slot] : (args[slot] as unknown[])[at];
    });
    return executeCompiled<R>(db, { ...query, parameters });
  };
}

// ---------- on SQLite's connection directly: a group's transaction, or no transaction ----------

/**
 * SQLite's one connection as Kysely's driver uses it (connection.ts: the statement cache),
 * whether a transaction is open on it, and the timer Kysely's log would call.
 */
export interface DirectConnection {
  database: SqliteDatabase;
  inTransaction: () => boolean;
  onQuery?: ((nodeKind: string, millis: number, sql: string) => void) | undefined;
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

/**
 * Runs a compiled query as `db.executeQuery` does, directly on SQLite's connection where that
 * answers the same: in a transaction runCompiledDirectly allows, or on the database itself while
 * no transaction is open on the connection (a statement then runs on its own, as Kysely would run
 * it, and better-sqlite3 runs it to the end before anything else can use the connection). While
 * a transaction is open the query waits its turn through Kysely, and sees only what committed.
 */
export function executeCompiled<R>(db: Db, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  let connection = transactions.get(db);
  if (!connection) {
    const root = roots.get(db);
    if (root && !root.inTransaction()) connection = root;
  }
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
    connection.onQuery?.(query.query.kind, performance.now() - started, query.sql);
  }
}

function compileTemplate<A extends unknown[], R>(
  db: Db,
  build: (db: Db, ...args: A) => Compilable<R>,
  args: A,
): Template<R> {
  // Where each marker stands: its argument and, for an element of a list, its index there.
  const where = new Map<string, [number, number]>();
  const marked = args.map((a, k) => {
    if (!Array.isArray(a)) {
      where.set(`${MARK}${k}`, [k, -1]);
      return `${MARK}${k}`;
    }
    return a.map((_, j) => {
      where.set(`${MARK}${k}.${j}`, [k, j]);
      return `${MARK}${k}.${j}`;
    });
  });
  const query = build(db, ...(marked as A)).compile();
  const slots: number[] = [];
  const elements: number[] = [];
  const used = new Set<string>();
  for (const p of query.parameters) {
    const at = typeof p === 'string' ? where.get(p) : undefined;
    if (!at && typeof p === 'string' && p.includes(MARK)) {
      throw new Error(`compiledOnce: an argument is not bound as-is in ${query.sql}`);
    }
    slots.push(at ? at[0] : -1);
    elements.push(at ? at[1] : -1);
    if (at) used.add(p as string);
  }
  for (const [marker, [k]] of where) {
    if (!used.has(marker)) throw new Error(`compiledOnce: argument ${k} unused in ${query.sql}`);
  }
  return { query, slots, elements };
}
