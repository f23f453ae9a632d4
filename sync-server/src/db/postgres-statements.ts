/**
 * Named prepared statements on PostgreSQL: PostgreSQL's counterpart of SQLite's statement cache
 * (connection.ts). Kysely sends every query unnamed, so the server parses and plans its text on
 * every run; a send's dozen short statements spend much of their time there. Each query text gets
 * a name here, and node-postgres parses a name once per connection and then only binds and runs
 * it (docs/performance.md, "Prepared statements on PostgreSQL").
 */
import type pg from 'pg';

/**
 * How many texts get a name; beyond that a text runs unnamed. The server's texts are few (values
 * are always bound), but an `IN (...)` list of a new length is a new text.
 */
export const NAMED_STATEMENTS_MAX = 2000;

/** PostgreSQL's "cached plan must not change result type": a table changed under a statement. */
const PLAN_CHANGED = '0A000';

const names = new Map<string, string>();
let issued = 0;

/** The name of `text`'s prepared statement, or undefined when it runs unnamed. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_STATEMENTS_MAX) {
    name = `pingme_${++issued}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A migration on another node changed a table under this text's statement (a rolling upgrade):
 * the text gets a new name, so every connection prepares it afresh.
 */
function renamed(text: string): void {
  names.delete(text);
}

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;

/**
 * Makes `client` send Kysely's queries with parameters (text and an array of values, no
 * callback) as named statements. Other calls (no parameters, callbacks, cursors, LISTEN) pass
 * through unchanged.
 */
export function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    // A query without parameters (BEGIN, a savepoint) goes as one simple-protocol message, which
    // may hold several statements (mutations/apply.ts); it has nothing to plan.
    if (
      args.length !== 2 ||
      typeof text !== 'string' ||
      !Array.isArray(values) ||
      values.length === 0
    ) {
      return query(...args);
    }
    const name = statementName(text);
    if (name === undefined) return query(text, values);
    return query({ name, text, values }).catch(async (err: unknown) => {
      if ((err as { code?: string }).code !== PLAN_CHANGED) throw err;
      renamed(text);
      // Outside a transaction the query runs again at once; inside one the transaction is
      // already lost, and the original error tells the unit of work to run it again (dialect.ts).
      try {
        return await query({ name: statementName(text), text, values });
      } catch {
        throw err;
      }
    });
  };
}
