/**
 * Reads by a list of ids, a chunk of ids per query: SQLite allows many bound parameters, but
 * loads are chunked so no list can exceed it.
 */

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
