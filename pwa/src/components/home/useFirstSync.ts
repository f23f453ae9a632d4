/**
 * Whether this device has finished its first sync, and the friend requests waiting for the
 * person, read together in one live query that Home and the friend-request banner share.
 *
 * A new device has never completed a pull (`meta.cursor` is written at the end of the snapshot,
 * in the same transaction as its last page: pwa/src/sync/pull-worker.ts). Home then shows its
 * header and a loading state under it instead of an empty Home. The banner shows the requests
 * the server named while the app's chunks loaded (the root's loader asks it, primeFirstSyncState),
 * so it is in the first frame above the header rather than pushing it down once the snapshot
 * lands (a layout shift Lighthouse counts); from the snapshot on, the device's own rows. A device
 * that has pulled once never waits again (offline it shows what it has), and an offline device
 * that never pulled shows the empty Home rather than a spinner that cannot finish.
 */
import { liveQuery } from 'dexie';
import { useSyncExternalStore } from 'react';
import { db } from '../../db';
import { selectOnline, useConnectivity } from '../../stores';

export interface FirstSyncState {
  /** The device has completed a pull. */
  pulled: boolean;
  /**
   * Received friend requests still pending: the device's own once it has pulled, before that the
   * ones the server named at start (none if it was not asked or could not answer).
   */
  requestIds: string[];
}

/** The received requests the server named before this device's first pull (primeFirstSyncState). */
let requestsBeforeFirstPull: string[] = [];

export function readFirstSyncState(): Promise<FirstSyncState> {
  return db.transaction('r', [db.meta, db.friendships], async () => {
    const pulled = (await db.meta.get('cursor')) !== undefined;
    const requestIds = pulled
      ? ((await db.friendships
          .where('[status+direction]')
          .equals(['pending', 'received'])
          .primaryKeys()) as string[])
      : requestsBeforeFirstPull;
    return { pulled, requestIds };
  });
}

let current: FirstSyncState | undefined;
const listeners = new Set<() => void>();
let subscription: { unsubscribe(): void } | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  subscription ??= liveQuery(readFirstSyncState).subscribe({
    next: (state) => {
      current = state;
      // Every reader is told in the same task: React renders Home and the banner together.
      for (const l of listeners) l();
    },
    error: (err: unknown) => {
      // The database cannot answer: show Home with what it has rather than a loading state.
      console.warn('could not read the first-sync state', err);
      current = { pulled: true, requestIds: [] };
      for (const l of listeners) l();
    },
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      subscription?.unsubscribe();
      subscription = undefined;
    }
  };
}

/** The shared answer; `undefined` until the device database has answered once. */
export function useFirstSyncState(): FirstSyncState | undefined {
  return useSyncExternalStore(subscribe, () => current);
}

/**
 * Read before a signed-in render (the root's loader), so the first frame already knows;
 * `beforeFirstPull`: the received requests the server named, for a device that has not pulled.
 * Without them (the server was not asked or did not answer) none are shown until the first pull:
 * never the list of an earlier start, which may have been another person's on this page.
 */
export async function primeFirstSyncState(beforeFirstPull?: string[]): Promise<void> {
  requestsBeforeFirstPull = beforeFirstPull ?? [];
  try {
    current = await readFirstSyncState();
  } catch {
    current = undefined;
  }
}

/** Home's question: still waiting for a first sync that can happen (the server is reachable)? */
export function useAwaitingFirstSync(): boolean | undefined {
  const state = useFirstSyncState();
  const online = useConnectivity(selectOnline);
  return state === undefined ? undefined : !state.pulled && online;
}
