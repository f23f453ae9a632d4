/** What Home reads from the device database (filled by the sync engine), as live queries. */
import type { Anchor, Prompt, SyncUser } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';

export type FriendRow = Extract<SyncUser, { relation: 'friend' }>;

const byName = (a: FriendRow, b: FriendRow) =>
  (a.firstName ?? a.email ?? '').localeCompare(b.firstName ?? b.email ?? '');

/** The person's friends, by first name. */
export function useFriends(): FriendRow[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db.users.where('relation').equals('friend').toArray();
    return (rows as FriendRow[]).sort(byName);
  }, []);
}

export interface HomeCounts {
  /** Pings sent plus received (GET /api/pings/total-count semantics). */
  pings: number;
  friends: number;
  /** Received friend requests still pending. */
  requests: number;
}

export function useHomeCounts(): HomeCounts {
  return useLiveQuery(
    async () => {
      // Three index counts at once (no row is read), so a new ping costs one round trip here.
      const [pings, friends, requests] = await Promise.all([
        db.pings.count(),
        db.users.where('relation').equals('friend').count(),
        db.friendships.where('[status+direction]').equals(['pending', 'received']).count(),
      ]);
      return { pings, friends, requests };
    },
    [],
    { pings: 0, friends: 0, requests: 0 },
  );
}

/** The default prompts in their display order (their fixed ids sort that way). */
export function useDefaultPrompts(): Prompt[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db.prompts.toArray();
    return rows.filter((p) => p.isDefault).sort((a, b) => a.id.localeCompare(b.id));
  }, []);
}

/**
 * Anchors for the strip: accepted ones, and requests either way still waiting (they count to
 * the 5, so each has a tile: mine say they wait, theirs can be answered).
 */
export function useStripAnchors(meId: string): Anchor[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db.anchors.where('status').anyOf(['pending', 'accepted']).toArray();
    return rows
      .filter((a) => a.friendId === meId || a.userId === meId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }, [meId]);
}
