/**
 * Which friend and anchor requests the person has already seen (spec sections 3 and 4,
 * "Notification viewed state"). Kept on the device in localStorage under 'viewedNotifications'
 * as a JSON list of ids ('friend_request_{requestId}', 'anchor_request_{id}'). A request counts
 * in the Activity badge until it is marked viewed, which the notifications list does 2 s after it
 * appears (`useMarkViewedAfterDelay`). Readers re-read the store every 2 s, on 'storage' events
 * (other tabs) and at once when this tab marks something.
 *
 *   const ids = requests.map((r) => friendRequestNotificationId(r.id));
 *   useMarkViewedAfterDelay(ids);          // in the list that shows them
 *   const viewed = useViewedNotifications(); // wherever unseen ones are counted
 */
import { DELAYS_MS, POLL_MS } from '@pingme/shared';
import { useEffect, useSyncExternalStore } from 'react';

export const VIEWED_STORAGE_KEY = 'viewedNotifications';
/** The oldest ids are dropped beyond this many, so the list cannot grow without bound. */
export const VIEWED_MAX_IDS = 1000;
/** Dispatched on window when this tab changes the store ('storage' only reaches other tabs). */
const CHANGE_EVENT = 'pingme:viewed-notifications';

export const friendRequestNotificationId = (requestId: string) => `friend_request_${requestId}`;
export const anchorRequestNotificationId = (anchorId: string) => `anchor_request_${anchorId}`;

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStorage(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: nothing is remembered, every request counts as new
  }
}

/** The ids in the store, oldest first; anything unreadable counts as empty. */
export function parseViewed(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function readViewed(storage: KeyValueStore | null = defaultStorage()): Set<string> {
  return new Set(parseViewed(storage?.getItem(VIEWED_STORAGE_KEY) ?? null));
}

/** Adds ids to the store (keeping its order, newest last); returns whether anything changed. */
export function markViewed(
  ids: Iterable<string>,
  storage: KeyValueStore | null = defaultStorage(),
): boolean {
  if (!storage) return false;
  const list = parseViewed(storage.getItem(VIEWED_STORAGE_KEY));
  const known = new Set(list);
  let changed = false;
  for (const id of ids) {
    if (known.has(id)) continue;
    known.add(id);
    list.push(id);
    changed = true;
  }
  if (!changed) return false;
  try {
    storage.setItem(VIEWED_STORAGE_KEY, JSON.stringify(list.slice(-VIEWED_MAX_IDS)));
  } catch {
    return false; // quota or private mode: the badge simply keeps counting
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGE_EVENT));
  return true;
}

/** How many of the ids are not in the viewed set. */
export function countUnseen(ids: readonly string[], viewed: ReadonlySet<string>): number {
  return ids.reduce((n, id) => (viewed.has(id) ? n : n + 1), 0);
}

// ── React ────────────────────────────────────────────────────────────────────────────────

let cachedRaw: string | null | undefined;
let cachedSet: ReadonlySet<string> = new Set();

function snapshot(): ReadonlySet<string> {
  const raw = defaultStorage()?.getItem(VIEWED_STORAGE_KEY) ?? null;
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSet = new Set(parseViewed(raw));
  }
  return cachedSet;
}

function subscribe(onChange: () => void): () => void {
  const timer = setInterval(onChange, POLL_MS.viewedNotifications);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === VIEWED_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    clearInterval(timer);
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

const EMPTY: ReadonlySet<string> = new Set();

/** The viewed ids, kept current (re-read every 2 s, on other tabs' changes and on this tab's). */
export function useViewedNotifications(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}

/**
 * Marks the ids viewed 2 s (DELAYS_MS.viewedMarker) after they are on screen. Pass the ids of
 * the requests the list shows; a new id restarts the wait for the ones not yet marked.
 */
export function useMarkViewedAfterDelay(ids: readonly string[], enabled = true): void {
  const key = [...ids].sort().join('\n');
  useEffect(() => {
    if (!enabled || !key) return;
    const timer = setTimeout(() => markViewed(key.split('\n')), DELAYS_MS.viewedMarker);
    return () => clearTimeout(timer);
  }, [key, enabled]);
}
