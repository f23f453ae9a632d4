/**
 * Anchors: a pinned ping between two friends. A row is asked by `userId` of `friendId`; it is
 * 'pending' until the friend answers, then 'accepted' or 'declined'. A declined row stays as
 * history, and the pair may ask again with a new row.
 */
import type { Anchor } from '@pingme/shared';
import type { Db } from './connection';
import { idsWithParty } from './paging';
import type { AnchorRow } from './schema';
import { involves, involvesEach, linksBoth } from './two-people';

export type AnchorStatus = AnchorRow['status'];
const ACTIVE: AnchorStatus[] = ['pending', 'accepted'];

/**
 * Anchors (any status) with both people's public card, limited to those the viewer is part of
 * (`party`: involvesEach where the anchors are found by their ids).
 */
function anchorsWithPeople(db: Db, viewerId: string, party = involves) {
  return db
    .selectFrom('anchors as a')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .innerJoin('users as f', 'f.id', 'a.friendId')
    .select([
      'a.id',
      'a.userId',
      'a.friendId',
      'a.label',
      'a.text',
      'a.emoji',
      'a.color',
      'a.status',
      'a.createdAt',
      'a.respondedAt',
      'u.firstName as uFirstName',
      'u.lastName as uLastName',
      'u.profileImageUrl as uProfileImageUrl',
      'u.email as uEmail',
      'f.firstName as fFirstName',
      'f.lastName as fLastName',
      'f.profileImageUrl as fProfileImageUrl',
      'f.email as fEmail',
    ])
    .where((eb) => party(eb, 'a.userId', 'a.friendId', viewerId));
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof anchorsWithPeople>['execute']>>[number];

/**
 * An anchor as the viewer sees it. The label is the asker's own name for the friend ("My
 * favourite chai buddy"): only the asker sees it; the friend's tile names the asker.
 */
function toAnchor(r: JoinedRow, viewerId: string): Anchor {
  return {
    id: r.id,
    userId: r.userId,
    friendId: r.friendId,
    user: {
      id: r.userId,
      firstName: r.uFirstName,
      lastName: r.uLastName,
      profileImageUrl: r.uProfileImageUrl,
      email: r.uEmail,
    },
    friend: {
      id: r.friendId,
      firstName: r.fFirstName,
      lastName: r.fLastName,
      profileImageUrl: r.fProfileImageUrl,
      email: r.fEmail,
    },
    label: r.userId === viewerId ? r.label : null,
    text: r.text,
    emoji: r.emoji,
    color: r.color,
    status: r.status,
    createdAt: r.createdAt,
    respondedAt: r.respondedAt,
  };
}

/**
 * The anchors among `ids` that the viewer asked or was asked (any status), in id order. Ids the
 * viewer may not see are left out. Used by /api/sync/pull and by the anchor routes.
 */
export async function loadAnchors(db: Db, viewerId: string, ids: string[]): Promise<Anchor[]> {
  if (ids.length === 0) return [];
  const rows = await anchorsWithPeople(db, viewerId, involvesEach)
    .where('a.id', 'in', [...new Set(ids)])
    .orderBy('a.id')
    .execute();
  return rows.map((r) => toAnchor(r, viewerId));
}

/** One anchor the viewer is part of, or undefined. */
export async function loadAnchor(
  db: Db,
  viewerId: string,
  id: string,
): Promise<Anchor | undefined> {
  return (await loadAnchors(db, viewerId, [id]))[0];
}

/**
 * Ids of every anchor the viewer is part of (any status), in id order, after `afterId`: pages of a
 * full snapshot for /api/sync/pull.
 */
export const visibleAnchorIds = idsWithParty('anchors');

/** The accepted anchors the viewer is part of, either direction, newest first. */
export async function listAcceptedAnchors(db: Db, viewerId: string): Promise<Anchor[]> {
  const rows = await anchorsWithPeople(db, viewerId)
    .where('a.status', '=', 'accepted')
    .orderBy('a.createdAt', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((r) => toAnchor(r, viewerId));
}

/** Pending requests the viewer received ('to') or sent ('from'), newest first. */
export async function listPendingAnchors(
  db: Db,
  viewerId: string,
  direction: 'to' | 'from',
): Promise<Anchor[]> {
  const rows = await anchorsWithPeople(db, viewerId)
    .where('a.status', '=', 'pending')
    .where(direction === 'to' ? 'a.friendId' : 'a.userId', '=', viewerId)
    .orderBy('a.createdAt', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((r) => toAnchor(r, viewerId));
}

export async function findAnchorRow(db: Db, id: string): Promise<AnchorRow | undefined> {
  return db.selectFrom('anchors').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The pending or accepted anchors between two people, either direction (at most one normally). */
export async function activeAnchorsBetween(db: Db, a: string, b: string): Promise<AnchorRow[]> {
  return db
    .selectFrom('anchors')
    .selectAll()
    .where('status', 'in', ACTIVE)
    .where((eb) => linksBoth(eb, 'userId', 'friendId', a, b))
    .execute();
}

/** How many pending or accepted anchors each of `userIds` is part of (absent → 0). */
export async function countActiveAnchors(db: Db, userIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('anchors')
    .select(['userId', 'friendId'])
    .where('status', 'in', ACTIVE)
    .where((eb) => eb.or([eb('userId', 'in', userIds), eb('friendId', 'in', userIds)]))
    .execute();
  for (const r of rows) {
    if (counts.has(r.userId)) counts.set(r.userId, counts.get(r.userId)! + 1);
    if (counts.has(r.friendId)) counts.set(r.friendId, counts.get(r.friendId)! + 1);
  }
  return counts;
}

export async function insertAnchor(
  db: Db,
  row: Omit<AnchorRow, 'respondedAt'> & { respondedAt?: string | null },
): Promise<void> {
  await db
    .insertInto('anchors')
    .values({ ...row, respondedAt: row.respondedAt ?? null })
    .execute();
}

/** Answers a pending anchor; false when it was no longer pending (someone answered first). */
export async function answerAnchor(
  db: Db,
  id: string,
  status: 'accepted' | 'declined',
  at: string,
): Promise<boolean> {
  const r = await db
    .updateTable('anchors')
    .set({ status, respondedAt: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteAnchor(db: Db, id: string): Promise<void> {
  await db.deleteFrom('anchors').where('id', '=', id).execute();
}
