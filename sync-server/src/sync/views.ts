/**
 * What each synced entity looks like to one person (docs/sync.md, "Views"). The pull, the
 * snapshot and the data export all read through this registry, so the three can never disagree
 * about what someone may see. Each view answers:
 *   load(db, viewerId, ids)                 the current state of those ids the viewer may see
 *                                           (invisible or unknown ids are left out: a tombstone)
 *   visibleIds(db, viewerId, afterId, n)    every id the viewer may see, ascending, for snapshots
 *   related?(db, viewerId, ids)             other records whose visibility moves with these ones
 * The 'user' and 'friendship' views live here, over the queries of db/sync-views.ts; the other
 * entities' loaders live with their routes' queries in db/.
 */
import type { SyncEntity, SyncFriendship, SyncUser } from '@pingme/shared';
import { loadAnchors, visibleAnchorIds } from '../db/anchors';
import { otherRecipients } from '../db/changes';
import type { Db } from '../db/connection';
import { loadMoods, visibleMoodIds } from '../db/moods';
import { loadPings, visiblePingIds } from '../db/pings';
import { loadMoments, visibleMomentIds } from '../db/moments';
import { loadPrompts, visiblePromptIds } from '../db/prompts';
import type { FriendshipRow, UserRow } from '../db/schema';
import {
  friendsAmong,
  friendshipIdsOf,
  friendshipIdsWith,
  friendshipParties,
  friendshipsOfViewer,
  usersByIds,
} from '../db/sync-views';
import { findUserById, toProfileFields, toSelf, toSummary } from '../db/users';

export interface EntityRef {
  entity: SyncEntity;
  id: string;
}

export interface EntityView {
  load(db: Db, viewerId: string, ids: string[]): Promise<{ id: string }[]>;
  visibleIds(
    db: Db,
    viewerId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<string[]>;
  related?(db: Db, viewerId: string, ids: string[]): Promise<EntityRef[]>;
}

// ---------- user: the person themself (SelfUser) and each friend (FriendUser) ----------

export async function loadUsers(db: Db, viewerId: string, ids: string[]): Promise<SyncUser[]> {
  const byId = new Map<string, SyncUser>();
  if (ids.includes(viewerId)) {
    const self = await findUserById(db, viewerId);
    if (self) byId.set(self.id, { ...toSelf(self), relation: 'self' });
  }
  const others = ids.filter((id) => id !== viewerId);
  if (others.length) {
    for (const f of await friendsAmong(db, viewerId, others)) {
      byId.set(f.id, {
        ...toProfileFields(f),
        friendshipId: f.friendshipId,
        friendsSince: f.acceptedAt ?? f.friendshipCreatedAt,
        relation: 'friend',
      });
    }
  }
  return keepOrder(ids, byId);
}

export async function visibleUserIds(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  // A person has at most a few hundred friends: sorting them here is cheaper than a UNION.
  const friends = await friendsAmong(db, viewerId);
  return [viewerId, ...friends.map((f) => f.id)]
    .sort()
    .filter((id) => afterId === undefined || id > afterId)
    .slice(0, limit);
}

/**
 * A person's profile changed: the friendship row with them, which shows it too (in full for a
 * friend, as a card for a pending request), is sent again.
 */
async function friendshipsOfUsers(db: Db, viewerId: string, ids: string[]): Promise<EntityRef[]> {
  const others = ids.filter((id) => id !== viewerId);
  if (others.length === 0) return [];
  const rows = await friendshipIdsWith(db, viewerId, others);
  return rows.map((id) => ({ entity: 'friendship', id }));
}

// ---------- friendship: every row the person is part of, with the other person ----------

export async function loadFriendships(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<SyncFriendship[]> {
  const byId = new Map<string, SyncFriendship>();
  const rows = await friendshipsOfViewer(db, viewerId, ids);
  if (rows.length) {
    const people = await usersByIds(
      db,
      rows.map((r) => otherOf(r, viewerId)),
    );
    const peopleById = new Map(people.map((p) => [p.id, p]));
    for (const r of rows) {
      const other = peopleById.get(otherOf(r, viewerId));
      if (other) byId.set(r.id, toSyncFriendship(r, viewerId, other));
    }
  }
  return keepOrder(ids, byId);
}

function otherOf(r: Pick<FriendshipRow, 'requesterId' | 'addresseeId'>, viewerId: string) {
  return r.requesterId === viewerId ? r.addresseeId : r.requesterId;
}

function toSyncFriendship(r: FriendshipRow, viewerId: string, other: UserRow): SyncFriendship {
  return {
    id: r.id,
    status: r.status,
    direction: r.requesterId === viewerId ? 'sent' : 'received',
    requesterId: r.requesterId,
    addresseeId: r.addresseeId,
    otherUserId: other.id,
    createdAt: r.createdAt,
    acceptedAt: r.acceptedAt,
    // The e-mail and the rest of the profile wait for the request to be accepted (spec 6).
    other:
      r.status === 'accepted'
        ? toProfileFields(other)
        : { ...toSummary(other), handle: other.handle, tagline: other.tagline },
  };
}

export async function visibleFriendshipIds(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  return friendshipIdsOf(db, viewerId, afterId, limit);
}

/**
 * A friendship that changed changes what the viewer may see of the other person: their 'user'
 * record appears (accepted) or becomes a tombstone (declined, withdrawn, unfriended). A deleted
 * row no longer names the other person, but its change-log rows do: every friendship change is
 * recorded for both people, so the other person is the other user_id under the same entity id.
 */
async function usersOfFriendships(db: Db, viewerId: string, ids: string[]): Promise<EntityRef[]> {
  const others = new Set<string>();
  const live = await friendshipParties(db, ids);
  for (const r of live) others.add(otherOf(r, viewerId));
  const liveIds = new Set(live.map((r) => r.id));
  const gone = [...new Set(ids)].filter((id) => !liveIds.has(id));
  if (gone.length) {
    for (const id of await otherRecipients(db, 'friendship', gone, viewerId)) others.add(id);
  }
  others.delete(viewerId);
  return [...others].map((id) => ({ entity: 'user', id }));
}

function keepOrder<T>(ids: string[], byId: Map<string, T>): T[] {
  return [...new Set(ids)].flatMap((id) => {
    const v = byId.get(id);
    return v ? [v] : [];
  });
}

// ---------- the registry ----------

export const views: Record<SyncEntity, EntityView> = {
  user: { load: loadUsers, visibleIds: visibleUserIds, related: friendshipsOfUsers },
  friendship: {
    load: loadFriendships,
    visibleIds: visibleFriendshipIds,
    related: usersOfFriendships,
  },
  prompt: { load: loadPrompts, visibleIds: visiblePromptIds },
  ping: { load: loadPings, visibleIds: visiblePingIds },
  anchor: { load: loadAnchors, visibleIds: visibleAnchorIds },
  mood: { load: loadMoods, visibleIds: visibleMoodIds },
  moment: { load: loadMoments, visibleIds: visibleMomentIds },
};

/** Every record of one entity the viewer may see, loaded page by page (the data export). */
export async function loadAllVisible<T extends { id: string }>(
  db: Db,
  viewerId: string,
  entity: SyncEntity,
  pageSize = 500,
): Promise<T[]> {
  const view = views[entity];
  const out: T[] = [];
  let after: string | undefined;
  for (;;) {
    const ids = await view.visibleIds(db, viewerId, after, pageSize);
    if (ids.length === 0) break;
    out.push(...((await view.load(db, viewerId, ids)) as T[]));
    if (ids.length < pageSize) break;
    after = ids[ids.length - 1];
  }
  return out;
}
