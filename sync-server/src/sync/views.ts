/**
 * What each synced entity looks like to one person (docs/sync.md, "Views"). The pull, the
 * snapshot and the data export all read through this registry, so the three can never disagree
 * about what someone may see. Each view answers:
 *   load(db, viewerId, ids)                 the current state of those ids the viewer may see
 *                                           (invisible or unknown ids are left out: a tombstone)
 *   visibleIds(db, viewerId, afterId, n)    every id the viewer may see, ascending, for snapshots
 *   related?(db, viewerId, ids)             other records whose visibility moves with these ones
 * The 'user' and 'friendship' views live here; the other entities' loaders live with their routes'
 * queries in db/.
 */
import type { SyncEntity, SyncFriendship, SyncUser } from '@pingme/shared';
import type { Db } from '../db/connection';
import { loadAnchors, visibleAnchorIds } from '../db/anchors';
import { loadMoods, visibleMoodIds } from '../db/moods';
import { loadMoments, loadPings, visibleMomentIds, visiblePingIds } from '../db/pings';
import { chunks, loadPrompts, visiblePromptIds } from '../db/prompts';
import type { FriendshipRow, UserRow } from '../db/schema';
import { toProfileFields, toSelf, toSummary } from '../db/users';

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

type FriendRow = UserRow & {
  friendshipId: string;
  friendshipCreatedAt: string;
  acceptedAt: string | null;
};

/** Accepted friends of viewerId among `ids` (all of them when `ids` is undefined). */
async function friendsAmong(db: Db, viewerId: string, ids?: string[]): Promise<FriendRow[]> {
  const query = (part?: string[]) => {
    let q = db
      .selectFrom('friendships as f')
      .innerJoin('users as u', (join) =>
        join.on((eb) =>
          eb.or([
            eb.and([eb('f.requesterId', '=', viewerId), eb('f.addresseeId', '=', eb.ref('u.id'))]),
            eb.and([eb('f.addresseeId', '=', viewerId), eb('f.requesterId', '=', eb.ref('u.id'))]),
          ]),
        ),
      )
      .selectAll('u')
      .select([
        'f.id as friendshipId',
        'f.createdAt as friendshipCreatedAt',
        'f.acceptedAt as acceptedAt',
      ])
      .where('f.status', '=', 'accepted');
    if (part) q = q.where('u.id', 'in', part);
    return q.execute();
  };
  if (!ids) return query();
  const out: FriendRow[] = [];
  for (const part of chunks([...new Set(ids)])) out.push(...(await query(part)));
  return out;
}

export async function loadUsers(db: Db, viewerId: string, ids: string[]): Promise<SyncUser[]> {
  const byId = new Map<string, SyncUser>();
  if (ids.includes(viewerId)) {
    const self = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', viewerId)
      .executeTakeFirst();
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

/** A friend's profile changed: the friendship row, which shows it too, is sent again. */
async function friendshipsOfUsers(db: Db, viewerId: string, ids: string[]): Promise<EntityRef[]> {
  const others = ids.filter((id) => id !== viewerId);
  if (others.length === 0) return [];
  const out: EntityRef[] = [];
  for (const part of chunks(others)) {
    const rows = await db
      .selectFrom('friendships')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('requesterId', '=', viewerId), eb('addresseeId', 'in', part)]),
          eb.and([eb('addresseeId', '=', viewerId), eb('requesterId', 'in', part)]),
        ]),
      )
      .execute();
    for (const r of rows) out.push({ entity: 'friendship', id: r.id });
  }
  return out;
}

// ---------- friendship: every row the person is part of, with the other person ----------

export async function loadFriendships(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<SyncFriendship[]> {
  const byId = new Map<string, SyncFriendship>();
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('friendships')
      .selectAll()
      .where('id', 'in', part)
      .where((eb) => eb.or([eb('requesterId', '=', viewerId), eb('addresseeId', '=', viewerId)]))
      .execute();
    if (rows.length === 0) continue;
    const people = await db
      .selectFrom('users')
      .selectAll()
      .where(
        'id',
        'in',
        rows.map((r) => otherOf(r, viewerId)),
      )
      .execute();
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
  let q = db
    .selectFrom('friendships')
    .select('id')
    .where((eb) => eb.or([eb('requesterId', '=', viewerId), eb('addresseeId', '=', viewerId)]));
  if (afterId !== undefined) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

/**
 * A friendship that changed changes what the viewer may see of the other person: their 'user'
 * record appears (accepted) or becomes a tombstone (declined, withdrawn, unfriended). A deleted
 * row no longer names the other person, but its change-log rows do: every friendship change is
 * recorded for both people, so the other person is the other user_id under the same entity id.
 */
async function usersOfFriendships(db: Db, viewerId: string, ids: string[]): Promise<EntityRef[]> {
  const others = new Set<string>();
  for (const part of chunks([...new Set(ids)])) {
    const live = await db
      .selectFrom('friendships')
      .select(['id', 'requesterId', 'addresseeId'])
      .where('id', 'in', part)
      .execute();
    for (const r of live) others.add(otherOf(r, viewerId));
    const gone = part.filter((id) => !live.some((r) => r.id === id));
    if (gone.length === 0) continue;
    const logged = await db
      .selectFrom('changes')
      .select('userId')
      .distinct()
      .where('entity', '=', 'friendship')
      .where('entityId', 'in', gone)
      .where('userId', '!=', viewerId)
      .execute();
    for (const r of logged) others.add(r.userId);
  }
  others.delete(viewerId);
  return [...others].map((id) => ({ entity: 'user', id }));
}

/**
 * A pending request shows the other person's card (name, photo, handle, tagline), but their
 * profile changes are logged only for themself and their friends. So the pull also reads, for
 * the seq range it covers, the 'user' rows that the people the viewer has a pending request with
 * recorded about themselves, and sends those friendship rows again.
 */
export async function requestCardsChanged(
  db: Db,
  viewerId: string,
  afterSeq: number,
  upToSeq: number,
): Promise<EntityRef[]> {
  if (upToSeq <= afterSeq) return [];
  const pending = await db
    .selectFrom('friendships')
    .select(['id', 'requesterId', 'addresseeId'])
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('requesterId', '=', viewerId), eb('addresseeId', '=', viewerId)]))
    .execute();
  if (pending.length === 0) return [];
  const rowOf = new Map(pending.map((r) => [otherOf(r, viewerId), r.id]));
  const out: EntityRef[] = [];
  for (const part of chunks([...rowOf.keys()])) {
    const changed = await db
      .selectFrom('changes')
      .select('userId')
      .distinct()
      .where('userId', 'in', part)
      .where('entity', '=', 'user')
      .whereRef('entityId', '=', 'userId')
      .where('seq', '>', afterSeq)
      .where('seq', '<=', upToSeq)
      .execute();
    for (const r of changed) out.push({ entity: 'friendship', id: rowOf.get(r.userId)! });
  }
  return out;
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
