/**
 * Applying and undoing the optimistic effects of outbox entries. DOM-free: the pages and the
 * service worker (Background Sync) both run it against the same Dexie database.
 */
import { db, type EffectTable, type OutboxRow } from '../db';

export const EFFECT_TABLES: readonly EffectTable[] = [
  'users',
  'friendships',
  'prompts',
  'pings',
  'anchors',
  'moods',
  'moments',
];

export function tableOf(name: EffectTable) {
  return db.table<Record<string, unknown>, string>(name);
}

/**
 * Undo a refused write: every row goes back to what it was before, unless a later write of the
 * same row is still waiting (then that later write's `after` stays, and its own undo covers it).
 */
export async function rollbackWrite(entry: OutboxRow): Promise<void> {
  const effects = entry.effects ?? [];
  const tables = [...new Set(effects.map((e) => e.table))].map(tableOf);
  await db.transaction('rw', [db.outbox, ...tables], async () => {
    const later = (
      await db.outbox
        .where('seq')
        .above(entry.seq ?? 0)
        .toArray()
    ).flatMap((o) => o.effects ?? []);
    for (const e of [...effects].reverse()) {
      if (later.some((l) => l.table === e.table && l.key === e.key)) continue;
      const table = tableOf(e.table);
      if (e.before) await table.put(e.before, e.key);
      else await table.delete(e.key);
    }
    if (entry.seq !== undefined) await db.outbox.delete(entry.seq);
  });
}

/**
 * After a pull wrote server state: put back the optimistic rows of every write still waiting,
 * oldest first, so a pending change never disappears (guarantee 7). Call inside the pull's
 * transaction (it must include db.outbox and the effect tables).
 */
export async function reapplyPendingWrites(): Promise<void> {
  const waiting = await db.outbox.orderBy('seq').toArray();
  for (const entry of waiting) {
    for (const e of entry.effects ?? []) {
      const table = tableOf(e.table);
      if (e.after) await table.put(e.after, e.key);
      else await table.delete(e.key);
    }
  }
}

/** Keys of rows that a waiting write touches, per table (the snapshot sweep keeps them). */
export async function pendingKeys(): Promise<Map<EffectTable, Set<string>>> {
  const keys = new Map<EffectTable, Set<string>>();
  for (const entry of await db.outbox.toArray()) {
    for (const e of entry.effects ?? []) {
      let set = keys.get(e.table);
      if (!set) keys.set(e.table, (set = new Set()));
      set.add(e.key);
    }
  }
  return keys;
}
