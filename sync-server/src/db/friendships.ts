import type { Db } from './connection';
import type { FriendshipRow } from './schema';

/** The one row, whatever its status, between two people. */
export async function findFriendshipBetween(
  db: Db,
  a: string,
  b: string,
): Promise<FriendshipRow | undefined> {
  return db
    .selectFrom('friendships')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('requesterId', '=', a), eb('addresseeId', '=', b)]),
        eb.and([eb('requesterId', '=', b), eb('addresseeId', '=', a)]),
      ]),
    )
    .executeTakeFirst();
}

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const f = await findFriendshipBetween(db, a, b);
  return f?.status === 'accepted';
}

export async function countFriends(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('friendships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'accepted')
    .where((eb) => eb.or([eb('requesterId', '=', userId), eb('addresseeId', '=', userId)]))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Ids of everyone who is a friend of userId. */
export async function friendIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('friendships')
    .select(['requesterId', 'addresseeId'])
    .where('status', '=', 'accepted')
    .where((eb) => eb.or([eb('requesterId', '=', userId), eb('addresseeId', '=', userId)]))
    .execute();
  return rows.map((r) => (r.requesterId === userId ? r.addresseeId : r.requesterId));
}
