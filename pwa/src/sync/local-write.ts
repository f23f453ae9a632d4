/**
 * Every mutation a screen makes goes through `localWrite` (docs/sync.md §8, guarantee 1,
 * "durable before visible"): it parses the mutation's arguments with the registry's schema
 * (shared/src/mutations.ts; a malformed write throws InvalidWrite and nothing is queued), then in
 * ONE Dexie transaction applies the optimistic rows, records what they were before, and appends
 * the outbox entry `{name, args}`. The UI (useLiveQuery) shows the change only once that
 * transaction has committed, so closing the tab at any moment loses nothing shown.
 *
 *   await localWrite({
 *     mutation: 'ping.send',
 *     args: { id, promptId, receiverId },
 *     effects: [{ table: 'pings', key: id, after: pendingPing(...) }],
 *     errorToast: { description: 'Failed to send ping. Please try again.' },
 *   });
 *
 * The screens call it through the write modules (src/writes/). The engine then (a) puts the
 * server's answer in place of the optimistic row, or leaves that to the pull (sync/effects.ts),
 * (b) re-applies `after` of entries still waiting on top of pulled state (guarantee 7), and
 * (c) restores `before` and shows `errorToast` when the server refuses the write (guarantee 5).
 */
import { MUTATIONS, uuidv7, type MutationInput, type MutationName } from '@pingme/shared';
import { db, type EffectTable, type MutationOutboxRow, type WriteEffect } from '../db';
import { useSession } from '../stores';
import { rowKey, tableOf } from './effects';
import { requestOutboxFlush } from './outbox';

export interface LocalWrite<N extends MutationName> {
  mutation: N;
  /** The mutation's arguments, as its schema takes them (parsed here). */
  args: MutationInput<N>;
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

/** A write whose arguments its mutation's schema refuses: nothing was changed or queued. */
export class InvalidWrite extends Error {
  constructor(
    readonly mutation: MutationName,
    readonly issues: readonly { path: PropertyKey[]; message: string }[],
  ) {
    super(`${mutation}: ${issues[0]?.message ?? 'invalid arguments'}`);
    this.name = 'InvalidWrite';
  }
}

/** Parses the arguments, applies the effects and queues the mutation atomically. */
export async function localWrite<N extends MutationName>(
  write: LocalWrite<N>,
): Promise<MutationOutboxRow> {
  const parsed = MUTATIONS[write.mutation].args.safeParse(write.args);
  if (!parsed.success) throw new InvalidWrite(write.mutation, parsed.error.issues);
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
    const entry: MutationOutboxRow = {
      id,
      name: write.mutation,
      args: parsed.data as Record<string, unknown>,
      idempotencyKey: id,
      createdAt: new Date().toISOString(),
      attempts: 0,
      status: 'pending',
      effects: recorded,
      rows: recorded.map((e) => rowKey(e.table, e.key)),
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
function markLocalWrite(row: MutationOutboxRow): void {
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
