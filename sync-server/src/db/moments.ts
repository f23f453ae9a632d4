/**
 * Moments: the pings a person bookmarked, with a title and a note. Each is its owner's alone;
 * a ping's `isBookmarked` (db/pings.ts) is read from here for the viewer.
 */
import type { Moment } from '@pingme/shared';
import type { Db } from './connection';
import { nowIso } from './connection';
import { checkedOnEachRow, loadInOrder } from './chunks';

/** viewerId's own moments among `ids`, order kept, others omitted. */
export async function loadMoments(db: Db, viewerId: string, ids: string[]): Promise<Moment[]> {
  return loadInOrder(ids, (part) =>
    db
      .selectFrom('moments')
      .select(['id', 'pingId', 'title', 'description', 'createdAt'])
      .where('id', 'in', part)
      .where((eb) => checkedOnEachRow(eb, eb('userId', '=', viewerId)))
      .execute(),
  );
}

/** Snapshot paging for /api/sync/pull: ids of viewerId's moments, ascending. */
export async function visibleMomentIds(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  let q = db.selectFrom('moments').select('id').where('userId', '=', viewerId);
  if (afterId !== undefined) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

export async function findMoment(
  db: Db,
  userId: string,
  pingId: string,
): Promise<{ id: string; title: string; description: string | null } | undefined> {
  return db
    .selectFrom('moments')
    .select(['id', 'title', 'description'])
    .where('userId', '=', userId)
    .where('pingId', '=', pingId)
    .executeTakeFirst();
}

export async function momentOwner(db: Db, id: string): Promise<string | undefined> {
  const r = await db.selectFrom('moments').select('userId').where('id', '=', id).executeTakeFirst();
  return r?.userId;
}

export async function insertMoment(
  db: Db,
  m: { id: string; userId: string; pingId: string; title: string; description: string | null },
): Promise<void> {
  await db
    .insertInto('moments')
    .values({ ...m, createdAt: nowIso() })
    .execute();
}

export async function updateMoment(
  db: Db,
  id: string,
  patch: { title?: string; description?: string | null },
): Promise<void> {
  await db.updateTable('moments').set(patch).where('id', '=', id).execute();
}

export async function deleteMoment(db: Db, id: string): Promise<void> {
  await db.deleteFrom('moments').where('id', '=', id).execute();
}
