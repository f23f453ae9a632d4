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
  type BatchResult,
} from '@pingme/shared';
import { db, describeEntry, type OutboxRow } from '../db';
import { answeredRows } from './answers';
import { acknowledgeWrites, rollbackWrite, type Acknowledged } from './effects';

/** At most this many entries per batch request (the most the server takes)… */
export const MAX_BATCH_ENTRIES = BATCH_MAX_ENTRIES;
/** …and about this many bytes of arguments (the server takes 1 MB). */
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
  /** 2xx answers that did not match their mutation's result schema (left to the pull). */
  unreadAnswers: number;
  /** Why the drain stopped with entries left; absent when the outbox is empty (or stopped early). */
  stopped?: { status: number; retryAfterMs?: number; unauthorized: boolean; error: string };
}

/** The bytes an entry adds to a batch, near enough. */
function entrySize(row: OutboxRow): number {
  return 'name' in row
    ? JSON.stringify(row.args).length + row.name.length + 64
    : JSON.stringify(row.body ?? null).length + row.path.length + 64;
}

/**
 * O1. The oldest entries after `afterSeq`, in seq order, bounded by count and size (and by
 * author, if given).
 */
export async function nextBatch(
  maxEntries: number,
  maxBytes: number,
  author?: string,
  afterSeq = 0,
): Promise<OutboxRow[]> {
  const rows = await db.outbox.where('seq').above(afterSeq).limit(maxEntries).toArray();
  const batch: OutboxRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (author !== undefined && row.userId !== undefined && row.userId !== author) break;
    const size = entrySize(row);
    if (batch.length > 0 && bytes + size > maxBytes) break;
    batch.push(row);
    bytes += size;
  }
  return batch;
}

/** O2. An entry as the batch sends it: its mutation and arguments, or its REST call. */
function toEntry(row: OutboxRow): BatchEntry {
  if ('name' in row) return { idempotencyKey: row.idempotencyKey, name: row.name, args: row.args };
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

/** An acknowledged entry, its answer's body and its change number (absent on a replay). */
interface Ack {
  row: OutboxRow;
  body: unknown;
  change: number | undefined;
}

/** What one batch's answer says, entry by entry, before anything is written. */
interface Outcome {
  /** In order: runs of acknowledged entries and the refusals between them. */
  steps: ({ ack: Ack[] } | { reject: OutboxRow; result: BatchResult | undefined })[];
  /** O4: the entry the batch stopped at, and why. */
  stop?: { row: OutboxRow; status: number; error: string };
}

function readAnswer(rows: OutboxRow[], response: BatchResponse, result: DrainResult): Outcome {
  const byKey = new Map(response.results.map((r) => [r.idempotencyKey, r]));
  const outcome: Outcome = { steps: [] };
  let run: Ack[] = [];
  for (const row of rows) {
    const res = byKey.get(row.idempotencyKey);
    const status = res?.status ?? 0;
    if (status >= 200 && status < 300) {
      // O3. Acknowledged (its answer is read below, off the path of the next batch).
      run.push({ row, body: res?.body, change: res?.change });
      result.sent++;
      continue;
    }
    if (run.length) outcome.steps.push({ ack: run });
    run = [];
    if (status === 401 || isRetryableStatus(status, res?.body)) {
      // O4. Transient (or the session is gone): stop here; this and later entries wait.
      outcome.stop = {
        row,
        status,
        error: `${status}: ${bodyError(res?.body) ?? 'not attempted'}`,
      };
      break;
    }
    // O5. Final: undone and told below; the queue goes on.
    outcome.steps.push({ reject: row, result: res });
    result.rejected++;
  }
  if (run.length) outcome.steps.push({ ack: run });
  return outcome;
}

/** O3. The rows each answer holds (none: the pull brings them); an unreadable one is counted. */
function readAcks(acks: readonly Ack[], result: DrainResult): Acknowledged[] {
  const unread: string[] = [];
  const read = acks.map(({ row, body, change }) => {
    const rows = answeredRows(row, body);
    if (rows === 'invalid') unread.push(describeEntry(row));
    return {
      seq: row.seq!,
      ...(rows === 'invalid' ? {} : { rows }),
      ...(change === undefined ? {} : { change }),
    };
  });
  if (unread.length) {
    result.unreadAnswers += unread.length;
    console.warn(`answers that do not match their schema, left to the pull: ${unread.join(', ')}`);
  }
  return read;
}

/**
 * O3-O5 in Dexie, in order: acknowledged entries go in one transaction per run of them (so live
 * queries over the outbox wake once per batch rather than once per entry), always before anything
 * later is rolled back or noted.
 */
async function applyOutcome(outcome: Outcome, deps: DrainDeps, result: DrainResult): Promise<void> {
  for (const step of outcome.steps) {
    if ('ack' in step) {
      await acknowledgeWrites(readAcks(step.ack, result));
    } else {
      await rollbackWrite(step.reject);
      await deps.onRejected(step.reject, step.result?.status ?? 0, step.result?.body);
    }
  }
  if (outcome.stop) await noteFailure(outcome.stop.row, outcome.stop.error);
}

/**
 * O1-O5 until the outbox is empty or a transient failure stops it. Batches go one at a time, in
 * order: the next is sent only once the one before has answered, so the server never sees them
 * out of order and a transient failure in one holds back every later entry. The device's own
 * work stays off that path: the next batch is read while the current one is on the way, and an
 * answer is written to Dexie while the next batch is on the way.
 */
export async function drainOutbox(deps: DrainDeps): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, rejected: 0, batches: 0, unreadAnswers: 0 };
  const maxEntries = deps.maxEntries ?? MAX_BATCH_ENTRIES;
  const maxBytes = deps.maxBytes ?? MAX_BATCH_BYTES;
  // The previous answer's Dexie work, still running while the next batch travels.
  let applying: Promise<void> = Promise.resolve();
  try {
    let rows = await nextBatch(maxEntries, maxBytes, deps.author);
    while (rows.length > 0) {
      if (deps.shouldContinue && !deps.shouldContinue()) break;

      // O2. One request for the batch, each entry with its own Idempotency-Key.
      result.batches++;
      const sending = deps.send(rows.map(toEntry));
      const following = nextBatch(maxEntries, maxBytes, deps.author, rows.at(-1)!.seq);
      let response: BatchResponse;
      try {
        response = await sending;
      } catch (err) {
        following.catch(() => undefined);
        await applying;
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

      // O3-O5. Results in order, matched to their entries by key.
      const outcome = readAnswer(rows, response, result);
      const previous = applying;
      applying = previous.then(() => applyOutcome(outcome, deps, result));
      if (outcome.stop) {
        following.catch(() => undefined);
        await applying;
        const { status, error } = outcome.stop;
        result.stopped = { status, unauthorized: status === 401, error };
        return result;
      }
      rows = await following;
    }
  } finally {
    await applying;
  }
  return result;
}

export function bodyError(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'string') return error;
  }
  return undefined;
}
