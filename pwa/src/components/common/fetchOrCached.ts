/**
 * A server-computed answer read once, the network first: fetched and kept in the Dexie `cache`
 * table, or, when the fetch fails, the copy kept last time with the time it was computed. What
 * the friend screens' stats and the friendship insights show (offline with "as of ...").
 */
import { readCache, writeCache } from '../../sync/local-write';

export interface FetchedOrCached<T> {
  value: T;
  /** When the cached copy shown was computed (ISO); null for a fresh answer. */
  cachedAt: string | null;
}

export interface FetchOrCachedOptions<T> {
  /** When the answer was computed, kept with it (default: now). */
  computedAt?(value: T): string;
  /** Whether a failure may fall back to the cached copy (default: any may). */
  fallBack?(error: unknown): boolean;
}

/** Rejects with the fetch's error when it may not fall back or nothing is cached. */
export async function fetchOrCached<T>(
  key: string,
  fetch: () => Promise<T>,
  { computedAt, fallBack }: FetchOrCachedOptions<T> = {},
): Promise<FetchedOrCached<T>> {
  let value: T;
  try {
    value = await fetch();
  } catch (err) {
    if (fallBack && !fallBack(err)) throw err;
    const cached = await readCache<T>(key).catch(() => undefined);
    if (!cached) throw err;
    return { value: cached.value, cachedAt: cached.computedAt };
  }
  await writeCache(key, value, computedAt?.(value)).catch(() => undefined);
  return { value, cachedAt: null };
}
