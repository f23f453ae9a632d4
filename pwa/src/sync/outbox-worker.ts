/**
 * The outbox worker's drain (docs/sync.md, "Client", steps O1-O6). DOM-free, so the service
 * worker runs the same code for Background Sync when no tab is open. The caller holds the
 * one-drainer lock (locks.ts) and decides when to try again (backoff.ts).
 */
import {
  BATCH_MAX_ENTRIES,
  isRetryableStatus,
  type BatchEntry,
  type BatchResponse,
} from '@pingme/shared';
import { db, type OutboxRow } from '../db';
import { acknowledgeWrites, rollbackWrite } from './effects';

/** At most this many entries per batch request… */
export const MAX_BATCH_ENTRIES = Math.min(50, BATCH_MAX_ENTRIES);
/** …and about this many bytes of bodies (the server takes 2 MB). */
export const MAX_BATCH_BYTES = 512 * 1024;

/** The batch request got no usable answer: status 0 for no answer at all. */
export class TransportError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** From a Retry-After header. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export type BatchSender = (entries: BatchEntry[]) => Promise<BatchResponse>;

export interface DrainDeps {
  send: BatchSender;
  /** A final 4xx: the write is already rolled back; tell the person (once). */
  onRejected(entry: OutboxRow, status: number, body: unknown): void | Promise<void>;
  maxEntries?: number;
  maxBytes?: number;
  /** Asked between batches: false stops (e.g. signed out). */
  shouldContinue?: () => boolean;
  /**
   * Send only this person's writes: the drain stops at an entry whose author is someone else
   * (it waits for that person's tab, or device-owner.ts forgets it). Entries naming no author
   * go with anyone's.
   */
  author?: string;
}

export interface DrainResult {
  sent: number;
  rejected: number;
  batches: number;
  /** Why the drain stopped with entries left; absent when the outbox is empty (or stopped early). */
  stopped?: { status: number; retryAfterMs?: number; unauthorized: boolean; error: string };
}

/** O1. The oldest entries, in seq order, bounded by count and size (and by author, if given). */
export async function nextBatch(
  maxEntries: number,
  maxBytes: number,
  author?: string,
): Promise<OutboxRow[]> {
  const rows = await db.outbox.orderBy('seq').limit(maxEntries).toArray();
  const batch: OutboxRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (author !== undefined && row.userId !== undefined && row.userId !== author) break;
    const size = JSON.stringify(row.body ?? null).length + row.path.length + 64;
    if (batch.length > 0 && bytes + size > maxBytes) break;
    batch.push(row);
    bytes += size;
  }
  return batch;
}

function toEntry(row: OutboxRow): BatchEntry {
  return {
    idempotencyKey: row.idempotencyKey,
    method: row.method,
    path: row.path,
    ...(row.body === undefined ? {} : { body: row.body }),
  };
}

async function noteFailure(row: OutboxRow, error: string): Promise<void> {
  if (row.seq === undefined) return;
  await db.outbox.update(row.seq, { attempts: row.attempts + 1, lastError: error });
}

/** O1-O5 until the outbox is empty or a transient failure stops it. */
export async function drainOutbox(deps: DrainDeps): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, rejected: 0, batches: 0 };
  const maxEntries = deps.maxEntries ?? MAX_BATCH_ENTRIES;
  const maxBytes = deps.maxBytes ?? MAX_BATCH_BYTES;
  for (;;) {
    if (deps.shouldContinue && !deps.shouldContinue()) return result;
    const rows = await nextBatch(maxEntries, maxBytes, deps.author);
    if (rows.length === 0) return result;

    // O2. One request for the batch, each entry with its own Idempotency-Key.
    let response: BatchResponse;
    try {
      result.batches++;
      response = await deps.send(rows.map(toEntry));
    } catch (err) {
      const status = err instanceof TransportError ? err.status : 0;
      const message = err instanceof Error ? err.message : String(err);
      await noteFailure(rows[0]!, message);
      result.stopped = {
        status,
        unauthorized: status === 401,
        error: message,
        ...(err instanceof TransportError && err.retryAfterMs !== undefined
          ? { retryAfterMs: err.retryAfterMs }
          : {}),
      };
      return result;
    }

    // O3. Results in order, matched to their entries by key. Acknowledged entries go in one
    // delete per run of them (one transaction, so live queries over the outbox wake once per
    // batch rather than once per entry), always before anything later is rolled back or noted.
    const byKey = new Map(response.results.map((r) => [r.idempotencyKey, r]));
    let acked: number[] = [];
    const removeAcked = async () => {
      if (acked.length === 0) return;
      await acknowledgeWrites(acked);
      acked = [];
    };
    for (const row of rows) {
      const res = byKey.get(row.idempotencyKey);
      const status = res?.status ?? 0;
      if (status >= 200 && status < 300) {
        // Acknowledged: the entry goes; its optimistic rows stay until the pull replaces them
        // (or get the server's version a pull already brought: acknowledgeWrites).
        acked.push(row.seq!);
        result.sent++;
        continue;
      }
      await removeAcked();
      if (status === 401 || isRetryableStatus(status, res?.body)) {
        // O4. Transient (or the session is gone): stop here; this and later entries wait.
        const error = `${status}: ${bodyError(res?.body) ?? 'not attempted'}`;
        await noteFailure(row, error);
        result.stopped = { status, unauthorized: status === 401, error };
        return result;
      }
      // O5. Final: undo the optimistic change and tell the person; the queue goes on.
      await rollbackWrite(row);
      result.rejected++;
      await deps.onRejected(row, status, res?.body);
    }
    await removeAcked();
  }
}

export function bodyError(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'string') return error;
  }
  return undefined;
}
