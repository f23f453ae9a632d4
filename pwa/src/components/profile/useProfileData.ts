/**
 * Everything a profile screen shows about one person. The person's own profile and a friend's
 * come from Dexie (so they show offline and follow optimistic edits); anyone else, and the
 * friend's counts, come from GET /api/users/{id}/profile (non-friends get the summary only).
 */
import {
  ProfileResponse,
  type SelfUser,
  type UserProfileFields,
  type UserSummary,
} from '@pingme/shared';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../../api';
import { db } from '../../db';
import { toast, useSession } from '../../stores';
import type { ProfileRelation } from './profile-rules';

export type ProfilePerson = UserSummary &
  Partial<Omit<UserProfileFields, keyof UserSummary>> &
  Partial<Pick<SelfUser, 'quietHoursStart' | 'quietHoursEnd' | 'rateLimitPerDay' | 'isAdmin'>>;

export interface ProfileData {
  status: 'loading' | 'ready' | 'not-found' | 'error';
  isOwn: boolean;
  relation: ProfileRelation | undefined;
  person: ProfilePerson | null;
  /** Own profile: the full record (settings included). */
  self: SelfUser | null;
  counts: { friends: number | null; pings: number | null; unread: number | null };
}

type Remote = {
  status: 'idle' | 'loading' | 'ok' | 'not-found' | 'error';
  value?: ProfileResponse;
};

export function useProfileData(userId: string): ProfileData {
  const me = useSession((s) => s.user);
  const isOwn = !!me && me.id === userId;

  const local = useLiveQuery(async () => {
    const row = await db.users.get(userId);
    const friends = await db.friendships
      .where('[status+direction]')
      .anyOf([
        ['accepted', 'sent'],
        ['accepted', 'received'],
      ])
      .count();
    const pings = await db.pings.count();
    const unread = me
      ? await db.pings
          .where('senderId')
          .equals(userId)
          .filter((p) => p.receiverId === me.id && !p.isRead)
          .count()
      : 0;
    return { row: row ?? null, friends, pings, unread };
  }, [userId, me?.id]);

  const [remote, setRemote] = useState<Remote>({ status: 'idle' });
  useEffect(() => {
    if (isOwn) return;
    let cancelled = false;
    setRemote({ status: 'loading' });
    api
      .get(`/api/users/${encodeURIComponent(userId)}/profile`, { schema: ProfileResponse })
      .then((value) => !cancelled && setRemote({ status: 'ok', value }))
      .catch((err: unknown) => {
        if (cancelled) return;
        const missing = err instanceof ApiError && (err.status === 404 || err.status === 400);
        setRemote({ status: missing ? 'not-found' : 'error' });
      });
    return () => {
      cancelled = true;
    };
  }, [userId, isOwn]);

  const friendRow = local?.row?.relation === 'friend' ? local.row : null;
  useEffect(() => {
    if (remote.status === 'error' && !friendRow) {
      toast({ title: 'Error', description: 'Failed to fetch profile', variant: 'destructive' });
    }
  }, [remote.status, friendRow]);

  if (isOwn) {
    const selfRow = local?.row?.relation === 'self' ? (local.row as SelfUser) : null;
    const self = selfRow ?? me;
    return {
      status: local ? 'ready' : 'loading',
      isOwn,
      relation: 'self',
      person: self,
      self,
      counts: { friends: local?.friends ?? null, pings: local?.pings ?? null, unread: null },
    };
  }

  const value = remote.value;
  // The server's answer wins (it knows about a friendship that just ended); offline, Dexie.
  const relation: ProfileRelation | undefined = value
    ? value.relation
    : friendRow
      ? 'friends'
      : undefined;
  const person: ProfilePerson | null =
    relation === 'friends' ? (friendRow ?? value ?? null) : (value ?? null);
  const status: ProfileData['status'] = person
    ? 'ready'
    : remote.status === 'not-found'
      ? 'not-found'
      : remote.status === 'error'
        ? 'error'
        : 'loading';
  return {
    status,
    isOwn,
    relation,
    person,
    self: null,
    counts: {
      friends: value?.friendsCount ?? null,
      pings: value?.pingsCount ?? null,
      unread: relation === 'friends' ? (local?.unread ?? null) : null,
    },
  };
}
