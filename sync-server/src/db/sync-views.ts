/**
 * The queries behind the 'user' and 'friendship' sync views (sync/views.ts, docs/sync.md
 * "Views"): who the viewer's friends are, and the friendship rows the viewer is part of. What a
 * row looks like to the viewer is decided in sync/views.ts; these only read. Lists of ids of any
 * length are read in chunks.
 */
import type { Db } from './connection';
import { idsWithParty } from './paging';
import { chunks } from './prompts';
import type { FriendshipRow, UserRow } from './schema';

/** An accepted friend, with the friendship row that links them to the viewer. */
export type FriendRow = UserRow & {
  friendshipId: string;
  friendshipCreatedAt: string;
  acceptedAt: string | null;
};

/** Accepted friends of viewerId among `ids` (all of them when `ids` is undefined). */
export async function friendsAmong(db: Db, viewerId: string, ids?: string[]): Promise<FriendRow[]> {
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
      .where((eb) =>
        eb.or([
          eb.and([eb('requesterId', '=', viewerId), eb('addresseeId', 'in', part)]),
          eb.and([eb('addresseeId', '=', viewerId), eb('requesterId', 'in', part)]),
        ]),
      )
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
  const out: FriendshipRow[] = [];
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('friendships')
      .selectAll()
      .where('id', 'in', part)
      .where((eb) => eb.or([eb('requesterId', '=', viewerId), eb('addresseeId', '=', viewerId)]))
      .execute();
    out.push(...rows);
  }
  return out;
}

/** The users among `ids` that exist. */
export async function usersByIds(db: Db, ids: string[]): Promise<UserRow[]> {
  const out: UserRow[] = [];
  for (const part of chunks([...new Set(ids)])) {
    out.push(...(await db.selectFrom('users').selectAll().where('id', 'in', part).execute()));
  }
  return out;
}

/** Ids of every friendship row viewerId is part of, ascending, after `afterId`, at most `limit`. */
export async function friendshipIdsOf(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  return idsWithParty(db, 'friendships', viewerId, afterId, limit);
}

/** The two people of each existing friendship row among `ids`, whoever asks. */
export async function friendshipParties(
  db: Db,
  ids: string[],
): Promise<Pick<FriendshipRow, 'id' | 'requesterId' | 'addresseeId'>[]> {
  const out: Pick<FriendshipRow, 'id' | 'requesterId' | 'addresseeId'>[] = [];
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .selectFrom('friendships')
      .select(['id', 'requesterId', 'addresseeId'])
      .where('id', 'in', part)
      .execute();
    out.push(...rows);
  }
  return out;
}
