/**
 * The sync engine's own rows of the Dexie `meta` table (besides `cursor`, typed in db/index.ts).
 * Values name the person they belong to, so a row left by someone who signed out is ignored.
 */
import { db, type MetaRow } from '../db';
import type { EffectTable } from '../db';

/** A snapshot in progress: where to continue, and which records it has mentioned so far. */
export interface SnapshotProgress {
  userId: string;
  /** The continuation token of the next page. */
  token: string;
  /** The snapshot's cursor (every page answers the same one). */
  cursor: number;
  seen: Partial<Record<EffectTable, string[]>>;
}

/** A refusal the service worker handled while no tab was open: the next tab shows its toast. */
export interface SyncNotice {
  title: string;
  description: string;
}

export interface SyncMetaValues {
  pullSnapshot: SnapshotProgress;
  /** The id of the newest received ping the person has been told about (NewPingBanner). */
  lastSeenPingId: { userId: string; pingId: string };
  syncNotices: SyncNotice[];
  /** navigator.storage.persist()'s answer, once asked. */
  storagePersisted: boolean;
  /**
   * Rows (`table:key`) an acknowledged write left as the server had them right after it, with
   * that write's change number (`BatchResult.change`), until a pull page covers the number: a
   * page with a lower cursor was read before the write, so it does not overwrite them
   * (sync/effects.ts, acknowledgeWrites; pull-worker.ts, applyPage).
   */
  ackedChanges: Record<string, number>;
}
export type SyncMetaKey = keyof SyncMetaValues;

export async function getSyncMeta<K extends SyncMetaKey>(
  key: K,
): Promise<SyncMetaValues[K] | undefined> {
  const row = (await db.meta.get(key as never)) as { value: SyncMetaValues[K] } | undefined;
  return row?.value;
}

export async function setSyncMeta<K extends SyncMetaKey>(
  key: K,
  value: SyncMetaValues[K],
): Promise<void> {
  await db.meta.put({ key, value } as unknown as MetaRow);
}

export async function deleteSyncMeta(key: SyncMetaKey): Promise<void> {
  await db.meta.delete(key as never);
}
