/**
 * Every mutation a screen makes goes through `localWrite` (ARCHITECTURE.md guarantee 1,
 * "durable before visible"): in ONE Dexie transaction it applies the optimistic rows, records
 * what they were before, and appends the outbox entry. The UI (useLiveQuery) shows the change
 * only once that transaction has committed, so closing the tab at any moment loses nothing shown.
 *
 *   await localWrite({
 *     request: { method: 'POST', path: '/api/pings', body: { id, promptId, receiverId } },
 *     effects: [{ table: 'pings', key: id, after: { ...optimisticPing, pending: true } }],
 *     errorToast: { description: 'Failed to send ping. Please try again.' },
 *   });
 *
 * The engine then (a) drops the `pending` marker when the pull brings the server's row,
 * (b) re-applies `after` of entries still waiting on top of pulled state (guarantee 7), and
 * (c) restores `before` and shows `errorToast` when the server refuses the write (guarantee 5).
 */
import { uuidv7 } from '@pingme/shared';
import { db, type EffectTable, type OutboxRow, type WriteEffect } from '../db';
import { useSession } from '../stores';
import { reapplyPendingWrites, rollbackWrite, tableOf } from './effects';
import { requestOutboxFlush } from './outbox';

export interface LocalWrite {
  request: { method: OutboxRow['method']; path: string; body?: unknown };
  /** Rows to put (after: the new row) or delete (after: null). */
  effects?: { table: EffectTable; key: string; after: Record<string, unknown> | null }[];
  errorToast?: { title?: string; description: string; preferServerMessage?: boolean };
}

/** Marks an optimistic row until the server's version replaces it. */
export const PENDING_FIELD = 'pending';

/** Whether a row read from Dexie is an optimistic one still waiting for the server's. */
export function isPending(row: object | null | undefined): boolean {
  return !!row && (row as Record<string, unknown>)[PENDING_FIELD] === true;
}

// Undo and re-apply live in effects.ts (DOM-free, shared with the service worker).
export { reapplyPendingWrites, rollbackWrite, tableOf };

/** Applies the effects and queues the request atomically; resolves once both are durable. */
export async function localWrite(write: LocalWrite): Promise<OutboxRow> {
  const effects = write.effects ?? [];
  const tables = [...new Set(effects.map((e) => e.table))].map(tableOf);
  const author = useSession.getState().user?.id;
  const row = await db.transaction('rw', [db.outbox, ...tables], async () => {
    const recorded: WriteEffect[] = [];
    for (const e of effects) {
      const table = tableOf(e.table);
      const before = (await table.get(e.key)) ?? null;
      if (e.after) await table.put(e.after, e.key);
      else await table.delete(e.key);
      recorded.push({ table: e.table, key: e.key, before, after: e.after });
    }
    const id = uuidv7();
    const entry: OutboxRow = {
      id,
      method: write.request.method,
      path: write.request.path,
      body: write.request.body ?? {},
      idempotencyKey: id,
      createdAt: new Date().toISOString(),
      attempts: 0,
      status: 'pending',
      effects: recorded,
      ...(write.errorToast ? { errorToast: write.errorToast } : {}),
      ...(author ? { userId: author } : {}),
    };
    entry.seq = await db.outbox.add(entry);
    return entry;
  });
  markLocalWrite(row);
  requestOutboxFlush();
  return row;
}

/** The User Timing mark set right after a write's transaction commits (docs/performance.md). */
export const LOCAL_WRITE_MARK = 'pingme:local-write';

/** The timeline keeps at most this many of the marks (observers still see every one). */
const MARKS_KEPT = 500;
let marks = 0;

/**
 * Always on and cheap (one entry, a few bytes): the device bench measures from this mark to the
 * written row on screen. The detail names the rows the write touched.
 */
function markLocalWrite(row: OutboxRow): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  try {
    performance.mark(LOCAL_WRITE_MARK, {
      detail: { id: row.id, rows: (row.effects ?? []).map((e) => `${e.table}:${e.key}`) },
    });
    if (++marks % MARKS_KEPT === 0) performance.clearMarks(LOCAL_WRITE_MARK);
  } catch {
    // A mark is never worth failing a write for.
  }
}

/** Reads a cached server-computed answer. */
export async function readCache<T>(
  key: string,
): Promise<{ value: T; computedAt: string } | undefined> {
  const row = await db.cache.get(key);
  return row ? { value: row.value as T, computedAt: row.computedAt } : undefined;
}

export async function writeCache<T>(
  key: string,
  value: T,
  computedAt = new Date().toISOString(),
): Promise<void> {
  await db.cache.put({ key, value, computedAt });
}
