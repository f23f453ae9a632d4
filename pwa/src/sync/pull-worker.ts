/**
 * The pull worker (docs/sync.md, "Client", steps P1-P6). DOM-free: it only needs a way to fetch
 * one page, so the page (through api.ts) and tests (through a fake server) drive the same code.
 *
 * Snapshots use MARK-AND-SWEEP: a snapshot spans pages, and the device keeps what it had until
 * the last page has arrived. Each snapshot page's upserts are written at once and their ids are
 * remembered (meta `pullSnapshot`, saved in the page's own transaction with its continuation
 * token, so a closed tab resumes where it stopped); the last page deletes every row no page
 * mentioned, except rows a waiting write touches, and only then stores the snapshot's cursor.
 * The screens never see an empty database in between.
 */
import type { PullQuery, PullResponse, SyncEntity } from '@pingme/shared';
import { db, getMeta, setMeta, type EffectTable } from '../db';
import {
  EFFECT_TABLES,
  pendingKeys,
  reapplyPendingWrites,
  rememberServerRows,
  rowKey,
  tableOf,
} from './effects';
import { deleteSyncMeta, getSyncMeta, setSyncMeta, type SnapshotProgress } from './meta';

export const ENTITY_TABLE: Record<SyncEntity, EffectTable> = {
  user: 'users',
  friendship: 'friendships',
  prompt: 'prompts',
  ping: 'pings',
  anchor: 'anchors',
  mood: 'moods',
  moment: 'moments',
};

export interface PullDeps {
  /** The signed-in person: snapshot progress of someone else is ignored. */
  userId: string;
  /** GET /api/sync/pull with this query; throws when there is no 2xx answer. */
  fetchPage(query: PullQuery): Promise<PullResponse>;
  /** Rows per page (default: the server's). */
  limit?: number;
  /** Asked between pages: false stops early (e.g. the person signed out). */
  shouldContinue?: () => boolean;
  /**
   * Awaited before each page: the engine answers its drain under way, if any. A page applied
   * beside a drain holds the outbox and every table in one transaction (half a second for 500
   * rows on a 2-core machine), stalling the drain, and brings rows the drain is about to answer.
   */
  beforePage?: () => Promise<unknown> | undefined;
}

export interface PullResult {
  pages: number;
  changes: number;
  /** A snapshot completed (reset) during this pull. */
  reset: boolean;
}

/** A 4xx for a snapshot token (it does not decode): forget the snapshot and start over. */
export class BadSnapshotToken extends Error {}

const MAX_PAGES = 10_000;

/** P1-P6: pages until hasMore is false. Each page is one Dexie transaction. */
export async function pullAll(deps: PullDeps): Promise<PullResult> {
  const result: PullResult = { pages: 0, changes: 0, reset: false };
  for (let i = 0; i < MAX_PAGES; i++) {
    await deps.beforePage?.();
    if (deps.shouldContinue && !deps.shouldContinue()) break;
    const progress = await currentSnapshot(deps.userId);
    const cursor = await getMeta('cursor');
    // P1. Continue a snapshot in progress, else pull from the cursor (none: a snapshot).
    const query: PullQuery = progress
      ? { snapshot: progress.token }
      : cursor !== undefined
        ? { since: cursor }
        : {};
    if (deps.limit) query.limit = deps.limit;
    let page: PullResponse;
    try {
      page = await deps.fetchPage(query);
    } catch (err) {
      if (progress && err instanceof BadSnapshotToken) {
        await deleteSyncMeta('pullSnapshot');
        continue;
      }
      throw err;
    }
    await applyPage(deps.userId, page, progress);
    result.pages++;
    result.changes += page.changes.length;
    if (page.reset && !page.hasMore) result.reset = true;
    if (!page.hasMore) break;
  }
  return result;
}

async function currentSnapshot(userId: string): Promise<SnapshotProgress | undefined> {
  const progress = await getSyncMeta('pullSnapshot');
  return progress && progress.userId === userId ? progress : undefined;
}

/** P2-P5: one page, its bookkeeping and the re-applied pending writes, in one transaction. */
export async function applyPage(
  userId: string,
  page: PullResponse,
  progress: SnapshotProgress | undefined,
): Promise<void> {
  const tables = EFFECT_TABLES.map(tableOf);
  await db.transaction('rw', [db.meta, db.outbox, ...tables], async () => {
    // A reset page of another snapshot (another cursor) starts a fresh mark set.
    const marks: SnapshotProgress | undefined = page.reset
      ? progress && progress.cursor === page.cursor
        ? progress
        : { userId, token: '', cursor: page.cursor, seen: {} }
      : undefined;
    const seen = new Map<EffectTable, Set<string>>();
    if (marks) for (const t of EFFECT_TABLES) seen.set(t, new Set(marks.seen[t] ?? []));

    // P2. Upserts are the record's whole current state; a tombstone deletes it. A row an
    // acknowledged write left newer than this page (its change number is above the page's
    // cursor: the page was read before the write) stays; a later page brings that change.
    const acked = (await getSyncMeta('ackedChanges')) ?? {};
    const pulled = new Map<string, Record<string, unknown> | null>();
    for (const change of page.changes) {
      const name = ENTITY_TABLE[change.entity];
      const table = tableOf(name);
      if ((acked[rowKey(name, change.id)] ?? 0) > page.cursor) {
        seen.get(name)?.add(change.id);
        continue;
      }
      if (change.op === 'upsert' && change.data) {
        await table.put(change.data as Record<string, unknown>, change.id);
        seen.get(name)?.add(change.id);
        pulled.set(rowKey(name, change.id), change.data as Record<string, unknown>);
      } else {
        await table.delete(change.id);
        seen.get(name)?.delete(change.id);
        pulled.set(rowKey(name, change.id), null);
      }
    }
    // Waiting writes keep the server's version of their rows (effects.ts, acknowledgeWrites).
    await rememberServerRows(pulled, page.cursor);

    if (marks && page.hasMore) {
      // P3. Snapshot in progress: remember the marks and where to continue; no cursor yet.
      const next: SnapshotProgress = {
        ...marks,
        token: page.snapshot ?? '',
        seen: Object.fromEntries([...seen].map(([t, ids]) => [t, [...ids]])),
      };
      if (!page.snapshot) throw new Error('snapshot page with hasMore but no token');
      await setSyncMeta('pullSnapshot', next);
    } else if (marks) {
      // P4. Last snapshot page: sweep what no page mentioned (keeping rows of waiting writes).
      const keep = await pendingKeys();
      for (const name of EFFECT_TABLES) {
        const table = tableOf(name);
        const mentioned = seen.get(name) ?? new Set<string>();
        const waiting = keep.get(name) ?? new Set<string>();
        const stale = ((await table.toCollection().primaryKeys()) as string[]).filter(
          (k) => !mentioned.has(k) && !waiting.has(k),
        );
        if (stale.length) await table.bulkDelete(stale);
      }
      await deleteSyncMeta('pullSnapshot');
      await setMeta('cursor', page.cursor);
      // Every later page is read after this one was applied (one pull at a time, PULL_LOCK), so
      // after every write acknowledged so far.
      await deleteSyncMeta('ackedChanges');
    } else {
      // P3'. A change page: its cursor is the `since` of the next page, stored with its data.
      await setMeta('cursor', page.cursor);
      await forgetCoveredChanges(acked, page.cursor);
    }

    // P5. Waiting writes stay visible on top of server state (guarantee 7).
    await reapplyPendingWrites(new Set(pulled.keys()));
  });
}

/** Drops the rows of `ackedChanges` whose write this cursor covers (a later page includes it). */
async function forgetCoveredChanges(acked: Record<string, number>, cursor: number): Promise<void> {
  const kept = Object.entries(acked).filter(([, change]) => change > cursor);
  if (kept.length === Object.keys(acked).length) return;
  if (kept.length === 0) await deleteSyncMeta('ackedChanges');
  else await setSyncMeta('ackedChanges', Object.fromEntries(kept));
}
