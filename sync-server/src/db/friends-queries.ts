/**
 * Read queries behind /api/friends: the friend list, one friend, the stats of a friendship and
 * the pending requests (the sync views read friends through `linkedUsers` too). Mutations of the
 * friendships table live in friendships.ts.
 */
import type { Db } from './connection';
import { countRows } from './count';
import type { UserRow } from './schema';
import { linksBoth } from './two-people';

type Side = 'either' | 'sent' | 'received';

/** A user row together with the friendship row that links them to the caller. */
export type LinkedUser = UserRow & {
  friendshipId: string;
  friendshipCreatedAt: string;
  acceptedAt: string | null;
};

/**
 * Everyone linked to `userId` by a friendship row with `status`, on the side given by `side`
 * ('either' for friendships, 'sent' for requests userId made, 'received' for requests to them).
 */
export function linkedUsers(db: Db, userId: string, status: 'pending' | 'accepted', side: Side) {
  return db
    .selectFrom('friendships as f')
    .innerJoin('users as u', (join) =>
      join.on((eb) => {
        const asRequester = eb.and([
          eb('f.requesterId', '=', userId),
          eb('f.addresseeId', '=', eb.ref('u.id')),
        ]);
        const asAddressee = eb.and([
          eb('f.addresseeId', '=', userId),
          eb('f.requesterId', '=', eb.ref('u.id')),
        ]);
        if (side === 'sent') return asRequester;
        if (side === 'received') return asAddressee;
        return eb.or([asRequester, asAddressee]);
      }),
    )
    .selectAll('u')
    .select([
      'f.id as friendshipId',
      'f.createdAt as friendshipCreatedAt',
      'f.acceptedAt as acceptedAt',
    ])
    .where('f.status', '=', status);
}

/** Accepted friends of userId, by first name (people without one last), then last name. */
export async function listFriends(db: Db, userId: string): Promise<LinkedUser[]> {
  return linkedUsers(db, userId, 'accepted', 'either')
    .orderBy((eb) => eb('u.firstName', 'is', null))
    .orderBy((eb) => eb.fn('lower', ['u.firstName']))
    .orderBy((eb) => eb.fn('lower', ['u.lastName']))
    .orderBy('u.id')
    .execute();
}

/** friendId when they are an accepted friend of userId, else undefined. */
export async function findFriend(
  db: Db,
  userId: string,
  friendId: string,
): Promise<LinkedUser | undefined> {
  return linkedUsers(db, userId, 'accepted', 'either')
    .where('u.id', '=', friendId)
    .executeTakeFirst();
}

/** Pending requests userId sent and received, newest first. */
export async function listPending(
  db: Db,
  userId: string,
): Promise<{ sent: LinkedUser[]; received: LinkedUser[] }> {
  const newestFirst = (side: Side) =>
    linkedUsers(db, userId, 'pending', side)
      .orderBy('f.createdAt', 'desc')
      .orderBy('f.id', 'desc')
      .execute();
  const [sent, received] = await Promise.all([newestFirst('sent'), newestFirst('received')]);
  return { sent, received };
}

/** Pings between a and b in either direction, and the reactions either of them left on those. */
export async function pingCountsBetween(
  db: Db,
  a: string,
  b: string,
): Promise<{ totalPings: number; totalReactions: number }> {
  const between = db
    .selectFrom('pings as p')
    .where((eb) => linksBoth(eb, 'p.senderId', 'p.receiverId', a, b));
  const totalPings = await countRows(between);
  const totalReactions = await countRows(
    between.innerJoin('reactions as r', 'r.pingId', 'p.id').where('r.userId', 'in', [a, b]),
  );
  return { totalPings, totalReactions };
}
