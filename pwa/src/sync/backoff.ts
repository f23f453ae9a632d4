/** Exponential backoff with full jitter for the outbox worker (and the ws reconnects). */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 60_000;

/** The delay before retry number `attempt` (1 = first retry): random in [base·2^(n-1)/2, that]. */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  base = BACKOFF_BASE_MS,
  cap = BACKOFF_CAP_MS,
): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After: seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
