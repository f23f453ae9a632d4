/**
 * The batch request without the page's API client, for the service worker (no DOM, no toasts):
 * the same route, cookies and Idempotency-Keys, errors as TransportError with Retry-After.
 */
import { BatchResponse, type BatchEntry } from '@pingme/shared';
import { parseRetryAfter } from './backoff';
import { TransportError } from './outbox-worker';

export const BATCH_PATH = '/api/sync/batch';

export async function postBatch(
  entries: BatchEntry[],
  fetchImpl: typeof fetch = fetch,
): Promise<BatchResponse> {
  let res: Response;
  try {
    res = await fetchImpl(BATCH_PATH, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries }),
    });
  } catch (err) {
    throw new TransportError(0, `Network error: ${err instanceof Error ? err.message : err}`);
  }
  const text = await res.text();
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
