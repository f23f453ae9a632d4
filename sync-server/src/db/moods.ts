/**
 * Moods: one person (`userId`) shares how they feel with one friend (`friendId`). Only those two
 * ever see the row.
 */
import type { Mood, MoodName } from '@pingme/shared';
import type { Db } from './connection';
import { idsWithParty } from './paging';
import type { MoodsTable } from './schema';
import type { Selectable } from 'kysely';
import { involvesEach } from './two-people';

export type MoodRow = Selectable<MoodsTable>;

export function toMood(r: MoodRow): Mood {
  return {
    id: r.id,
    userId: r.userId,
    friendId: r.friendId,
    mood: r.mood as MoodName,
    emoji: r.emoji,
    note: r.note,
    createdAt: r.createdAt,
  };
}

/**
 * The moods among `ids` the viewer shared or that were shared with the viewer, in id order;
 * anything else is left out. Used by /api/sync/pull and by the mood routes.
 */
export async function loadMoods(db: Db, viewerId: string, ids: string[]): Promise<Mood[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('moods')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where((eb) => involvesEach(eb, 'userId', 'friendId', viewerId))
    .orderBy('id')
    .execute();
  return rows.map(toMood);
}

/** Ids of every mood the viewer shared or received, in id order, after `afterId` (snapshot pages). */
export const visibleMoodIds = idsWithParty('moods');

export async function findMoodRow(db: Db, id: string): Promise<MoodRow | undefined> {
  return db.selectFrom('moods').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertMood(db: Db, row: MoodRow): Promise<void> {
  await db.insertInto('moods').values(row).execute();
}

/** The newest mood `sharerId` shared with `viewerId`, or undefined. */
export async function latestMoodSharedWith(
  db: Db,
  sharerId: string,
  viewerId: string,
): Promise<Mood | undefined> {
  const r = await db
    .selectFrom('moods')
    .selectAll()
    .where('userId', '=', sharerId)
    .where('friendId', '=', viewerId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? toMood(r) : undefined;
}
