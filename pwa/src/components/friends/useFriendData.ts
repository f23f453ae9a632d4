/**
 * Live reads of the friends screens, straight from Dexie (the sync engine fills the tables).
 * `undefined` means "still reading", so screens can tell loading from empty.
 */
import { displayName, type Mood, type SyncFriendship } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db';

export function useFriendships(): SyncFriendship[] | undefined {
  return useLiveQuery(() => db.friendships.toArray(), []);
}

const byName = (a: SyncFriendship, b: SyncFriendship) =>
  displayName(a.other).localeCompare(displayName(b.other), undefined, { sensitivity: 'base' });

export interface FriendshipGroups {
  friends: SyncFriendship[];
  received: SyncFriendship[];
  sent: SyncFriendship[];
}

/** Accepted friends by name; received and sent requests newest first. */
export function groupFriendships(rows: readonly SyncFriendship[]): FriendshipGroups {
  const newest = (a: SyncFriendship, b: SyncFriendship) => b.createdAt.localeCompare(a.createdAt);
  return {
    friends: rows.filter((f) => f.status === 'accepted').sort(byName),
    received: rows.filter((f) => f.status === 'pending' && f.direction === 'received').sort(newest),
    sent: rows.filter((f) => f.status === 'pending' && f.direction === 'sent').sort(newest),
  };
}

/** For each friend, the newest mood they shared with me (friendId = me). */
export function useLatestMoodsFromFriends(meId: string | undefined): Map<string, Mood> {
  return useLiveQuery(
    async () => {
      const latest = new Map<string, Mood>();
      if (!meId) return latest;
      const moods = await db.moods.where('friendId').equals(meId).sortBy('createdAt');
      for (const m of moods) latest.set(m.userId, m);
      return latest;
    },
    [meId],
    new Map<string, Mood>(),
  );
}
