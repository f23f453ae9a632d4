/**
 * The statements a SQLite connection runs (better-sqlite3's `all`, which every read of the server
 * uses, Kysely's and the compiled ones alike), recorded by their text until restored: for tests
 * that hold a read to how many statements it takes.
 */
import type BetterSqlite3 from 'better-sqlite3';

export function recordStatements(sqlite: BetterSqlite3.Database) {
  const sources: string[] = [];
  const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<
    string,
    (...a: unknown[]) => unknown
  >;
  const all = proto.all!;
  proto.all = function (this: { source: string }, ...a: unknown[]) {
    sources.push(this.source);
    return all.apply(this, a);
  };
  return {
    sources,
    /** How many ran per table named after their first `from`. */
    byTable(): Record<string, number> {
      const out: Record<string, number> = {};
      for (const s of sources) {
        const table = /from "(\w+)"/.exec(s)?.[1] ?? '?';
        out[table] = (out[table] ?? 0) + 1;
      }
      return out;
    },
    restore: () => void (proto.all = all),
  };
}
