/**
 * A server-computed answer (analytics, energy, admin metrics, profile tabs) that is not in the
 * change feed: fetched with api.ts, kept in the Dexie `cache` table, shown from there at once and
 * offline with the time it was computed, and refreshed every `pollMs` while the page is visible.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiError, NetworkError, api } from '../../api';
import { readCache, writeCache } from '../../sync/local-write';

export type AnswerStatus = 'loading' | 'ready' | 'error';

export interface CachedAnswer<T> {
  data: T | undefined;
  /** When the shown answer was computed (ISO), or undefined before any answer. */
  computedAt: string | undefined;
  status: AnswerStatus;
  /** The last fetch failed: why (an ApiError, a NetworkError...). The data may still be cached. */
  error: unknown;
  /** True when the last fetch got no answer (offline): the data shown is the cached copy. */
  offline: boolean;
  refresh(): Promise<void>;
  /** Replace the answer (e.g. with the result of an action), cached too. */
  replace(value: T): void;
}

export interface CachedAnswerOptions<T> {
  /** The Dexie cache key; include the person's id so two accounts never mix. */
  cacheKey: string;
  path: string;
  schema: z.ZodType<T>;
  pollMs?: number;
  enabled?: boolean;
}

export function useCachedAnswer<T>({
  cacheKey,
  path,
  schema,
  pollMs,
  enabled = true,
}: CachedAnswerOptions<T>): CachedAnswer<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [computedAt, setComputedAt] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<AnswerStatus>('loading');
  const [error, setError] = useState<unknown>(undefined);
  const schemaRef = useRef(schema);
  schemaRef.current = schema;
  const alive = useRef(true);

  const refresh = useCallback(async () => {
    try {
      const answer = await api.get(path, { schema: schemaRef.current });
      const at = computedAtOf(answer) ?? new Date().toISOString();
      if (!alive.current) return;
      setData(answer);
      setComputedAt(at);
      setError(undefined);
      setStatus('ready');
      await writeCache(cacheKey, answer, at).catch(() => undefined);
    } catch (err) {
      if (!alive.current) return;
      setError(err);
      setStatus((s) => (s === 'ready' ? s : 'error'));
    }
  }, [cacheKey, path]);

  useEffect(() => {
    alive.current = true;
    if (!enabled) return;
    let cancelled = false;
    void readCache<T>(cacheKey).then((cached) => {
      if (cancelled || !cached) return;
      // Only when the network has not answered first.
      setData((d) => d ?? cached.value);
      setComputedAt((c) => c ?? cached.computedAt);
      setStatus((s) => (s === 'loading' || s === 'error' ? 'ready' : s));
    });
    void refresh();
    return () => {
      cancelled = true;
      alive.current = false;
    };
  }, [cacheKey, enabled, refresh]);

  useEffect(() => {
    if (!enabled || !pollMs) return;
    const tick = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const timer = setInterval(tick, pollMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [enabled, pollMs, refresh]);

  const replace = useCallback(
    (value: T) => {
      const at = computedAtOf(value) ?? new Date().toISOString();
      setData(value);
      setComputedAt(at);
      setError(undefined);
      setStatus('ready');
      void writeCache(cacheKey, value, at).catch(() => undefined);
    },
    [cacheKey],
  );

  return {
    data,
    computedAt,
    status: data !== undefined && status === 'error' ? 'ready' : status,
    error,
    offline: error instanceof NetworkError,
    refresh,
    replace,
  };
}

/** Answers that say when they were computed (analytics, admin, energy entries). */
function computedAtOf(answer: unknown): string | undefined {
  if (answer && typeof answer === 'object') {
    if ('computedAt' in answer && typeof answer.computedAt === 'string') return answer.computedAt;
    if (Array.isArray(answer)) {
      const first = answer[0] as { computedAt?: unknown } | undefined;
      if (typeof first?.computedAt === 'string') return first.computedAt;
    }
  }
  return undefined;
}

/** The HTTP status of a failed fetch, when the server answered. */
export function errorStatus(err: unknown): number | undefined {
  return err instanceof ApiError ? err.status : undefined;
}
