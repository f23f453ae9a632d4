/**
 * The queries behind the 'user' and 'friendship' sync views (sync/views.ts, docs/sync.md
 * "Views"): who the viewer's friends are, and the friendship rows the viewer is part of. What a
 * row looks like to the viewer is decided in sync/views.ts; these only read. Lists of ids of any
 * length are read in chunks.
 */
import { chunks, readInChunks } from './chunks';
import type { Db } from './connection';
import { linkedUsers, type LinkedUser } from './friends-queries';
import { idsWithParty } from './paging';
import type { FriendshipRow, UserRow } from './schema';
import { involvesEach, linksAnyOf } from './two-people';

/** Accepted friends of viewerId among `ids` (all of them when `ids` is undefined). */
export async function friendsAmong(
  db: Db,
  viewerId: string,
  ids?: string[],
): Promise<LinkedUser[]> {
  const friends = linkedUsers(db, viewerId, 'accepted', 'either');
  if (!ids) return friends.execute();
  return readInChunks(ids, (part) => friends.where('u.id', 'in', part).execute());
}

/** Ids of the friendship rows (any status) between viewerId and any of `otherIds`. */
export async function friendshipIdsWith(
  db: Db,
  viewerId: string,
  otherIds: string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const part of chunks(otherIds)) {
    const rows = await db
      .selectFrom('friendships')
      .select('id')
      .where((eb) => linksAnyOf(eb, 'requesterId', 'addresseeId', viewerId, part))
      .execute();
    for (const r of rows) out.push(r.id);
  }
  return out;
}

/** The friendship rows among `ids` that viewerId is part of (either side, any status). */
export async function friendshipsOfViewer(
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<FriendshipRow[]> {
  return readInChunks(ids, (part) =>
    db
      .selectFrom('friendships')
      .selectAll()
      .where('id', 'in', part)
      .where((eb) => involvesEach(eb, 'requesterId', 'addresseeId', viewerId))
      .execute(),
  );
}

/** The users among `ids` that exist. */
export async function usersByIds(db: Db, ids: string[]): Promise<UserRow[]> {
  return readInChunks(ids, (part) =>
    db.selectFrom('users').selectAll().where('id', 'in', part).execute(),
  );
}

/** Ids of every friendship row viewerId is part of, ascending, after `afterId`, at most `limit`. */
export const friendshipIdsOf = idsWithParty('friendships');

/** The two people of each existing friendship row among `ids`, whoever asks. */
export async function friendshipParties(
  db: Db,
  ids: string[],
): Promise<Pick<FriendshipRow, 'id' | 'requesterId' | 'addresseeId'>[]> {
  return readInChunks(ids, (part) =>
    db
      .selectFrom('friendships')
      .select(['id', 'requesterId', 'addresseeId'])
      .where('id', 'in', part)
      .execute(),
  );
}
