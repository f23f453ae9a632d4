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
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
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
    return db.executeQuery<R>({ ...query, parameters });
  };
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
