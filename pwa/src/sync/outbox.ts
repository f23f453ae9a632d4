/**
 * Writing through the outbox (ARCHITECTURE.md guarantee 1, "durable before visible"): a screen
 * changes its Dexie table and appends the outbox entry in ONE transaction, then asks for a flush.
 *
 *   await db.transaction('rw', db.pings, db.outbox, async () => {
 *     await db.pings.add(ping);
 *     await enqueueWrite({ method: 'POST', path: '/api/pings', body: { id: ping.id, ... } });
 *   });
 *   requestOutboxFlush();
 */
import { uuidv7 } from '@pingme/shared';
import { db, type OutboxRow } from '../db';
import { requestBackgroundSync } from './background-sync';
import { syncEngine } from './engine';

export interface WriteIntent {
  method: OutboxRow['method'];
  path: string;
  body?: unknown;
}

/** Appends one entry; call it inside the caller's Dexie transaction that includes db.outbox. */
export async function enqueueWrite(intent: WriteIntent): Promise<OutboxRow> {
  const id = uuidv7();
  const row: OutboxRow = {
    id,
    method: intent.method,
    path: intent.path,
    body: intent.body ?? {},
    idempotencyKey: id,
    createdAt: new Date().toISOString(),
    attempts: 0,
    status: 'pending',
  };
  row.seq = await db.outbox.add(row);
  return row;
}

/** After the transaction commits: flush now if a tab is open, and when the network returns. */
export function requestOutboxFlush(): void {
  void syncEngine()
    .flushOutbox('write')
    .catch((err) => console.warn('outbox flush failed', err));
  void requestBackgroundSync();
}
