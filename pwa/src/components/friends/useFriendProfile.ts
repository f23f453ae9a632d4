/**
 * What /friend/{id} and /ping-friend/{id} read: the friend from Dexie (users + friendships),
 * their stats from GET /api/friends/{id}/stats (server-computed, kept in the cache table and
 * shown offline with its time), and the latest pings between you from Dexie.
 */
import { FriendStats, type Ping, type UserProfileFields } from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../../api';
import { db } from '../../db';
import { fetchOrCached } from '../common/fetchOrCached';

export type FriendProfile = UserProfileFields & { friendsSince: string | null };

/** undefined: still reading; null: not a friend on this device. */
export function useFriend(friendId: string): FriendProfile | null | undefined {
  return useLiveQuery(async () => {
    const [user, friendship] = await Promise.all([
      db.users.get(friendId),
      db.friendships.where('otherUserId').equals(friendId).first(),
    ]);
    if (!friendship || friendship.status !== 'accepted') return null;
    if (user && user.relation === 'friend') return user;
    if ('email' in friendship.other) {
      return { ...friendship.other, friendsSince: friendship.acceptedAt };
    }
    return null;
  }, [friendId]);
}

export type StatsState =
  | { kind: 'loading' }
  | { kind: 'ready'; stats: FriendStats; cachedAt: string | null }
  | { kind: 'not-friend' }
  | { kind: 'unavailable' };

export function useFriendStats(friendId: string, enabled = true): StatsState {
  const [state, setState] = useState<StatsState>({ kind: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void fetchOrCached(
      `friend-stats:${friendId}`,
      () => api.get(`/api/friends/${friendId}/stats`, { schema: FriendStats }),
      { fallBack: (err) => !notFriend(err) },
    ).then(
      ({ value: stats, cachedAt }) => live && setState({ kind: 'ready', stats, cachedAt }),
      (err) => live && setState(notFriend(err) ? { kind: 'not-friend' } : { kind: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, [friendId, enabled]);
  return state;
}

/** The server's answer that the person is no friend of mine (any more). */
function notFriend(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 400);
}

/** The newest pings between me and the friend, both directions. */
export function usePingsWith(
  meId: string | undefined,
  friendId: string,
  limit: number,
): Ping[] | undefined {
  return useLiveQuery(async () => {
    if (!meId) return [];
    const [sent, received] = await Promise.all([
      db.pings
        .where('senderId')
        .equals(meId)
        .filter((p) => p.receiverId === friendId)
        .toArray(),
      db.pings
        .where('senderId')
        .equals(friendId)
        .filter((p) => p.receiverId === meId)
        .toArray(),
    ]);
    return [...sent, ...received]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
      .slice(0, limit);
  }, [meId, friendId, limit]);
}
