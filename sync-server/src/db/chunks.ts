/**
 * Reads by a list of ids, a chunk of ids per query: SQLite allows many bound parameters, but
 * loads are chunked so no list can exceed it.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';

const CHUNK = 500;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The rows `query` returns for each chunk of the distinct `ids`, one after the other. */
export async function readInChunks<T>(
  ids: readonly string[],
  query: (part: string[]) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunks([...new Set(ids)])) out.push(...(await query(part)));
  return out;
}

/**
 * The records among `ids` that `load` finds (it is given a chunk of the distinct ids at a time),
 * in the order of `ids`; ids it does not find are left out.
 */
export async function loadInOrder<T extends { id: string }>(
  ids: readonly string[],
  load: (part: string[]) => Promise<T[]>,
): Promise<T[]> {
  const byId = new Map<string, T>();
  for (const found of await readInChunks(ids, load)) byId.set(found.id, found);
  return ids.flatMap((id) => {
    const found = byId.get(id);
    return found ? [found] : [];
  });
}

/**
 * `condition` checked on each row a read by ids finds, written so that no index can serve it
 * (`case when … then 1 else 0 end = 1`). A prepared statement's generic plan does not see whose
 * rows a read asks for, and PostgreSQL planned `id in (…) and owner = ?` as a read of every row of
 * the owner from the owner's index, filtered by the ids, however many rows the owner has: a pull of
 * a few new pings read all 10,000 of a heavy person (db/query-plans.pg.test.ts).
 */
export function checkedOnEachRow<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  condition: Expression<SqlBool>,
): Expression<SqlBool> {
  return eb(eb.case().when(condition).then(1).else(0).end(), '=', 1);
}
