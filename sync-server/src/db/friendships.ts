import { randomUUID } from 'node:crypto';
import type { Db } from './connection';
import { countRows } from './count';
import { nowIso } from './connection';
import type { FriendshipRow } from './schema';
import { involves, linksBoth } from './two-people';

/** The one row, whatever its status, between two people. */
export async function findFriendshipBetween(
  db: Db,
  a: string,
  b: string,
): Promise<FriendshipRow | undefined> {
  return db
    .selectFrom('friendships')
    .selectAll()
    .where((eb) => linksBoth(eb, 'requesterId', 'addresseeId', a, b))
    .executeTakeFirst();
}

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const f = await findFriendshipBetween(db, a, b);
  return f?.status === 'accepted';
}

export async function countFriends(db: Db, userId: string): Promise<number> {
  return countRows(
    db
      .selectFrom('friendships')
      .where('status', '=', 'accepted')
      .where((eb) => involves(eb, 'requesterId', 'addresseeId', userId)),
  );
}

/** Ids of everyone who is a friend of userId. */
export async function friendIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('friendships')
    .select(['requesterId', 'addresseeId'])
    .where('status', '=', 'accepted')
    .where((eb) => involves(eb, 'requesterId', 'addresseeId', userId))
    .execute();
  return rows.map((r) => (r.requesterId === userId ? r.addresseeId : r.requesterId));
}

/**
 * Ids of everyone who has a friendship row with userId, whatever its status: accepted friends
 * and both sides of pending requests (each of whom is shown userId's card).
 */
export async function linkedPeopleIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('friendships')
    .select(['requesterId', 'addresseeId'])
    .where((eb) => involves(eb, 'requesterId', 'addresseeId', userId))
    .execute();
  return rows.map((r) => (r.requesterId === userId ? r.addresseeId : r.requesterId));
}

export async function findFriendshipById(db: Db, id: string): Promise<FriendshipRow | undefined> {
  return db.selectFrom('friendships').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A new row between two people; the unordered pair is unique (migration 001). `at` (ISO) backdates
 * the row, for the demo data; it defaults to now.
 */
export async function insertFriendship(
  db: Db,
  fields: {
    requesterId: string;
    addresseeId: string;
    status: 'pending' | 'accepted';
    at?: string;
  },
): Promise<FriendshipRow> {
  const now = fields.at ?? nowIso();
  return db
    .insertInto('friendships')
    .values({
      id: randomUUID(),
      requesterId: fields.requesterId,
      addresseeId: fields.addresseeId,
      status: fields.status,
      createdAt: now,
      acceptedAt: fields.status === 'accepted' ? now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Turns a pending row into a friendship, from now. */
export async function acceptFriendship(db: Db, id: string): Promise<FriendshipRow> {
  return db
    .updateTable('friendships')
    .set({ status: 'accepted', acceptedAt: nowIso() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteFriendship(db: Db, id: string): Promise<void> {
  await db.deleteFrom('friendships').where('id', '=', id).execute();
}
