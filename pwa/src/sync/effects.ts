/**
 * Applying and undoing the optimistic effects of outbox entries. DOM-free: the pages and the
 * service worker (Background Sync) both run it against the same Dexie database.
 */
import { db, type EffectTable, type OutboxRow } from '../db';
import { getSyncMeta, setSyncMeta } from './meta';

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

/** The key of one row in `OutboxRow.serverRows`. */
export function rowKey(table: EffectTable, key: string): string {
  return `${table}:${key}`;
}

/**
 * Undo a refused write: every row goes back to what it was before, unless a later write of the
 * same row is still waiting (then that later write's `after` stays, and its own undo covers it).
 * "Before" is the server's version when a pull brought one while the write waited (it is newer
 * than the row the write replaced, and the pull will not send it again).
 */
export async function rollbackWrite(entry: OutboxRow): Promise<void> {
  const effects = entry.effects ?? [];
  const tables = [...new Set(effects.map((e) => e.table))].map(tableOf);
  await db.transaction('rw', [db.outbox, ...tables], async () => {
    const stored = entry.seq !== undefined ? await db.outbox.get(entry.seq) : undefined;
    const serverRows = stored?.serverRows ?? entry.serverRows ?? {};
    const held = await heldByLaterWrites(
      effects.map((e) => rowKey(e.table, e.key)),
      entry.seq ?? 0,
    );
    for (const e of [...effects].reverse()) {
      if (held.has(rowKey(e.table, e.key))) continue;
      const table = tableOf(e.table);
      const k = rowKey(e.table, e.key);
      const before = k in serverRows ? serverRows[k]! : e.before;
      if (before) await table.put(before, e.key);
      else await table.delete(e.key);
    }
    if (entry.seq !== undefined) await db.outbox.delete(entry.seq);
  });
}

/** One row of a 2xx answer (sync/answers.ts): the server's current state of that record. */
export interface AnsweredRow {
  table: EffectTable;
  key: string;
  row: Record<string, unknown>;
}

/** An acknowledged entry and the rows its answer holds (none when it holds no entity). */
export interface Acknowledged {
  seq: number;
  rows?: readonly AnsweredRow[];
  /** The write's change number for this person (`BatchResult.change`): absent on a replay. */
  change?: number;
}

/**
 * O3. Acknowledged entries leave the outbox (one delete), and their rows take the server's
 * version at once where the device has it, unless another waiting write still holds the row (that
 * write's optimistic version stays, guarantee 7). Per row, the last acknowledged write that
 * touches it decides, with
 *   1. the server's version a pull brought while the write waited, if it is at least as new as
 *      the write: its page's cursor reaches the write's change number, or the answer has none (a
 *      replay: the first answer was lost and the pull ran before the retry, so the pulled version
 *      is at least as new as the response stored then). No later pull sends it again;
 *   2. else the answer's row (the record as the pull delivers it, right after the write);
 *   3. else nothing: the optimistic row stays until the pull brings the server's.
 * A pulled version that predates the write (its page was read before the server had it) is
 * never put over the write's own change when the answer has a change number: rule 1 passes it
 * by, and a page read before the write and applied after this leaves the rows that now hold the
 * server's version alone until a page covers the number (`ackedChanges`, applyPage). Without a
 * number (a replay), the next pull, which the engine runs after every drain that sent, brings
 * the write's change.
 */
export async function acknowledgeWrites(acks: readonly Acknowledged[]): Promise<void> {
  if (acks.length === 0) return;
  const answers = new Map(acks.map((a) => [a.seq, a.rows ?? []]));
  const changes = new Map(acks.map((a) => [a.seq, a.change]));
  const seqs = [...answers.keys()].sort((a, b) => a - b);
  const first = seqs[0]!;
  const last = seqs.at(-1)!;
  await db.transaction('rw', [db.meta, db.outbox, ...EFFECT_TABLES.map(tableOf)], async () => {
    // The acknowledged entries of a batch are consecutive in the outbox (a batch is read as the
    // oldest entries in seq order, and new entries get higher seqs): one read of their range and
    // one delete of it, instead of a request per entry. Anything else in the range stays.
    const inRange = await db.outbox.where('seq').between(first, last, true, true).toArray();
    const acked = inRange.filter((e) => answers.has(e.seq!));
    if (acked.length === inRange.length) {
      await db.outbox.where('seq').between(first, last, true, true).delete();
    } else {
      await db.outbox.bulkDelete(acked.map((e) => e.seq!));
    }
    const restore = new Map<
      string,
      { table: EffectTable; key: string; row?: unknown; change?: number }
    >();
    for (const entry of acked) {
      const server = entry.serverRows ?? {};
      const change = changes.get(entry.seq!);
      const numbered = change === undefined ? {} : { change };
      // A version pulled without its page's cursor (an older app recorded it) counts as current.
      const pulled = (k: string) =>
        k in server && (change === undefined || (entry.serverCursors?.[k] ?? change) >= change);
      for (const e of entry.effects ?? []) {
        const k = rowKey(e.table, e.key);
        restore.set(k, {
          table: e.table,
          key: e.key,
          ...(pulled(k) ? { row: server[k], ...numbered } : {}),
        });
      }
      for (const a of answers.get(entry.seq!) ?? []) {
        const k = rowKey(a.table, a.key);
        if (!pulled(k)) restore.set(k, { table: a.table, key: a.key, row: a.row, ...numbered });
      }
    }
    const settled = [...restore].filter(([, r]) => 'row' in r);
    if (settled.length === 0) return;
    const waiting = await heldByLaterWrites(settled.map(([k]) => k));
    // Only rows that now hold the server's version after the write are kept over older pages: an
    // optimistic row the server may never mention again (it changed nothing there) must take
    // whatever the next page brings.
    const written = new Map(
      settled.flatMap(([k, r]) =>
        r.change !== undefined && !waiting.has(k) ? [[k, r.change] as const] : [],
      ),
    );
    if (written.size) await rememberAckedChanges(written);
    // One bulk call per table (every effect table keys its rows by their own `id`): a put per
    // row cost a Dexie request and a merge of the liveQuery ranges each, about 0.4 ms a row on a
    // 2-core machine with 100 rows a batch.
    const puts = new Map<EffectTable, Record<string, unknown>[]>();
    const deletes = new Map<EffectTable, string[]>();
    for (const [k, r] of settled) {
      if (waiting.has(k)) continue;
      if (r.row) pushTo(puts, r.table, r.row as Record<string, unknown>);
      else pushTo(deletes, r.table, r.key);
    }
    for (const [name, keys] of deletes) await tableOf(name).bulkDelete(keys);
    for (const [name, rows] of puts) await tableOf(name).bulkPut(rows);
  });
}

/** Adds rows and their write's change number to `ackedChanges` (the highest number stays). */
async function rememberAckedChanges(written: ReadonlyMap<string, number>): Promise<void> {
  const acked = { ...(await getSyncMeta('ackedChanges')) };
  for (const [k, change] of written) acked[k] = Math.max(acked[k] ?? 0, change);
  await setSyncMeta('ackedChanges', acked);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Inside the pull's transaction, before waiting writes are re-applied over it: remember the
 * server's version of every pulled row that a waiting write touches, on that write, with the
 * cursor of the page that brought it.
 */
export async function rememberServerRows(
  pulled: ReadonlyMap<string, Record<string, unknown> | null>,
  cursor: number,
): Promise<void> {
  if (pulled.size === 0) return;
  const holding = await db.outbox
    .where('rows')
    .anyOf([...pulled.keys()])
    .distinct()
    .toArray();
  for (const entry of holding) {
    let rows: Record<string, Record<string, unknown> | null> | undefined;
    let cursors: Record<string, number> | undefined;
    for (const e of entry.effects ?? []) {
      const k = rowKey(e.table, e.key);
      if (!pulled.has(k)) continue;
      rows ??= { ...entry.serverRows };
      cursors ??= { ...entry.serverCursors };
      rows[k] = pulled.get(k)!;
      cursors[k] = cursor;
    }
    if (rows && entry.seq !== undefined) {
      await db.outbox.update(entry.seq, { serverRows: rows, serverCursors: cursors });
    }
  }
}

/**
 * After a pull wrote server state: put back the optimistic rows of every write still waiting
 * over the rows this page wrote (`table:key`), oldest first, so a pending change never disappears
 * (guarantee 7). Rows the page did not write still hold them. Call inside the pull's transaction
 * (it must include db.outbox and the effect tables).
 */
export async function reapplyPendingWrites(written: ReadonlySet<string>): Promise<void> {
  if (written.size === 0) return;
  const holding = await db.outbox
    .where('rows')
    .anyOf([...written])
    .distinct()
    .toArray();
  for (const entry of holding.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
    for (const e of entry.effects ?? []) {
      if (!written.has(rowKey(e.table, e.key))) continue;
      const table = tableOf(e.table);
      if (e.after) await table.put(e.after, e.key);
      else await table.delete(e.key);
    }
  }
}

/**
 * Which of these rows (`table:key`) a write still in the outbox holds, among the writes after
 * `afterSeq`; read from the outbox's `rows` index, not from the entries themselves.
 */
async function heldByLaterWrites(keys: readonly string[], afterSeq = 0): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const later = (seq: number | undefined) => (seq ?? 0) > afterSeq;
  // Usually no waiting write holds any of them: one read of the index's keys between the
  // smallest and the largest says so, where anyOf walks a cursor key by key (a request each).
  const sorted = [...keys].sort();
  const near = (await db.outbox
    .where('rows')
    .between(sorted[0]!, sorted.at(-1)!, true, true)
    .primaryKeys()) as number[];
  if (!near.some(later)) return new Set();
  const holding = await db.outbox
    .where('rows')
    .anyOf(sorted)
    .filter((o) => later(o.seq))
    .toArray();
  const wanted = new Set(keys);
  return new Set(holding.flatMap((o) => o.rows ?? []).filter((k) => wanted.has(k)));
}

/** Keys of rows that a waiting write touches, per table (the snapshot sweep keeps them). */
export async function pendingKeys(): Promise<Map<EffectTable, Set<string>>> {
  const keys = new Map<EffectTable, Set<string>>();
  for (const k of (await db.outbox.orderBy('rows').uniqueKeys()) as string[]) {
    const at = k.indexOf(':');
    const table = k.slice(0, at) as EffectTable;
    let set = keys.get(table);
    if (!set) keys.set(table, (set = new Set()));
    set.add(k.slice(at + 1));
  }
  return keys;
}
