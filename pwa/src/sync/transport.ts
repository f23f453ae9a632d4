/**
 * The batch request without the page's API client, for the service worker (no DOM, no toasts):
 * the same route, cookies and Idempotency-Keys, errors as TransportError with Retry-After.
 */
import { BatchResponse, type BatchEntry } from '@pingme/shared';
import { parseRetryAfter } from './backoff';
import { TransportError } from './outbox-worker';

export const BATCH_PATH = '/api/sync/batch';

/**
 * A batch with no whole answer after this long is given up and sent again later with the same
 * keys (exactly once all the same). Without it, a request the network swallowed (a half-open
 * connection, a proxy that never answers) held the one-drainer lock of every tab, and each tab's
 * pulls wait behind its flush: the device stopped syncing until the tab closed. Batches carry at
 * most about 512 KB of bodies (MAX_BATCH_BYTES), so a minute also suits a slow link.
 */
export const BATCH_TIMEOUT_MS = 60_000;

export async function postBatch(
  entries: BatchEntry[],
  fetchImpl: typeof fetch = fetch,
  timeoutMs = BATCH_TIMEOUT_MS,
): Promise<BatchResponse> {
  // A timer rather than AbortSignal.timeout: page clocks (and tests' fake ones) drive it.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetchImpl(BATCH_PATH, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries }),
      signal: controller.signal,
    });
    text = await res.text();
  } catch (err) {
    throw new TransportError(
      0,
      controller.signal.aborted
        ? `No answer in ${Math.round(timeoutMs / 1000)} s`
        : `Network error: ${err instanceof Error ? err.message : err}`,
    );
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    throw new TransportError(
      res.status,
      `${res.status}: ${text || res.statusText}`,
      parseRetryAfter(res.headers.get('Retry-After')),
    );
  }
  try {
    return BatchResponse.parse(JSON.parse(text));
  } catch {
    // A foreign answer (a captive portal, a proxy page): transient, try again later.
    throw new TransportError(502, `${BATCH_PATH} answered an unexpected body`);
  }
}
