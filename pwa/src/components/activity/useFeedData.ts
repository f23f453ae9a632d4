/** The device's rows the activity and notifications screens derive their lists from (feed.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { db } from '../../db';
import {
  anchorRequestNotificationId,
  friendRequestNotificationId,
  useMarkViewedAfterDelay,
} from '../../notifications/viewed';
import type { FeedInput } from './feed';

/** undefined while Dexie is being read. `now` moves every minute so times stay right. */
export function useFeedInput(meId: string | undefined): FeedInput | undefined {
  const now = useNow(60_000);
  const rows = useLiveQuery(async () => {
    const [pings, friendships, anchors, moments] = await Promise.all([
      db.pings.toArray(),
      db.friendships.toArray(),
      db.anchors.toArray(),
      db.moments.toArray(),
    ]);
    return { pings, friendships, anchors, moments };
  }, []);
  // One object per change of its parts, so the screens' derivations (useMemo over it) run when
  // the data or the minute changes, not on every render.
  return useMemo(() => (rows && meId ? { meId, now, ...rows } : undefined), [rows, meId, now]);
}

export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The friend and anchor requests a feed screen shows count as viewed after a moment on it
 * (the navigation badges drop them); nothing while the feed is still loading.
 */
export function useMarkRequestsViewed(
  shown: { requests: { id: string }[]; anchors: { id: string }[] } | undefined,
): void {
  useMarkViewedAfterDelay(
    shown
      ? [
          ...shown.requests.map((r) => friendRequestNotificationId(r.id)),
          ...shown.anchors.map((a) => anchorRequestNotificationId(a.id)),
        ]
      : [],
  );
}
