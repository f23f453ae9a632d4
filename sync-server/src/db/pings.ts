/**
 * Pings, loaded with their reactions and whether the viewer bookmarked them. Only the sender and the
 * receiver ever see a ping; `isBookmarked` is the viewer's own; reactions are everyone's.
 * Loads are batched: one query each for pings, people, reactions and moments per chunk of ids.
 */
import { DEFAULT_PROMPT_EMOJI, type Ping, type Reaction, type UserSummary } from '@pingme/shared';
import { sql } from 'kysely';
import { blocksWith } from './blocks';
import type { Db } from './connection';
import { countRows } from './count';
import { nowIso } from './connection';
import type { NewPing } from './ping-sends';
import type { PingRow } from './schema';
import { loadInOrder, readInChunks } from './chunks';
import { compiledOnce } from './compiled';
import { isPostgres } from './dialect';
import { involves, linksBoth } from './two-people';

// ---------- people ----------

// The reads of every ping loaded (a pull, a reaction, a read mark): compiled once per length of
// their list of ids (compiled.ts).
const summariesQuery = compiledOnce((db: Db, ids: string[]) =>
  db
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName', 'profileImageUrl'])
    .where('id', 'in', ids),
);
const visiblePingsQuery = compiledOnce((db: Db, ids: string[], viewerId: string) =>
  db
    .selectFrom('pings')
    .selectAll()
    .where('id', 'in', ids)
    .where((eb) => involves(eb, 'senderId', 'receiverId', viewerId)),
);
const reactionsQuery = compiledOnce((db: Db, pingIds: string[]) =>
  db
    .selectFrom('reactions')
    .selectAll()
    .where('pingId', 'in', pingIds)
    .orderBy('createdAt')
    .orderBy('id'),
);
const bookmarkedQuery = compiledOnce((db: Db, viewerId: string, pingIds: string[]) =>
  db
    .selectFrom('moments')
    .select('pingId')
    .where('userId', '=', viewerId)
    .where('pingId', 'in', pingIds),
);

/** Summaries of the given people, one query per chunk. */
export async function userSummaries(db: Db, ids: string[]): Promise<Map<string, UserSummary>> {
  const rows = await readInChunks(ids, async (part) => (await summariesQuery(db, part)).rows);
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Pings just inserted (insertPings), as their sender sees them: what loadPings would read back,
 * built from the rows written. A new ping is unread, has no reactions and is nobody's moment yet
 * (both reference an existing ping).
 */
export function newPingsAsSent(rows: NewPing[], people: Map<string, UserSummary>): Ping[] {
  return rows.map((r) =>
    toPing({ ...r, writtenAt: r.writtenAt ?? null, isRead: 0, readAt: null }, people, false),
  );
}

// ---------- loading pings as a viewer sees them ----------

/**
 * The pings among `ids` that viewerId sent or received, in the Ping shape of shared: sender and
 * receiver summaries, the prompt as it read when sent, the viewer's own bookmark, and everyone's
 * reactions. Order of `ids` kept; unknown or invisible ids omitted.
 */
export async function loadPings(db: Db, viewerId: string, ids: string[]): Promise<Ping[]> {
  return loadInOrder(ids, async (part) => {
    const { rows } = await visiblePingsQuery(db, part, viewerId);
    return pingsAsSeen(db, viewerId, rows);
  });
}

/**
 * The pings among each person's `ids` that they received, as they see them: the relay's read of
 * one pass over the change log (realtime/relay.ts). The log names a new ping to its sender and to
 * its receiver alike; one query reads every ping the pass names, and the receivers' own are then
 * loaded together, whoever they are: their people, reactions and bookmarks in one query each
 * (per chunk of ids), not one set per person. A receiver sees a ping as it is (the read mark kept
 * from a blocked side is a sender's view only, readsAfterABlock). Order of each person's `ids`
 * kept; unknown ids and pings the person sent are left out.
 */
export async function pingsAsReceived(
  db: Db,
  idsByPerson: ReadonlyMap<string, readonly string[]>,
): Promise<Map<string, Ping[]>> {
  const rows = new Map(
    (await findPings(db, [...idsByPerson.values()].flat())).map((r) => [r.id, r]),
  );
  const received = new Map<string, PingRow[]>();
  for (const [personId, ids] of idsByPerson) {
    const own = [...new Set(ids)].flatMap((id) => {
      const row = rows.get(id);
      return row?.receiverId === personId ? [row] : [];
    });
    if (own.length) received.set(personId, own);
  }
  const out = new Map<string, Ping[]>();
  const all = [...received.values()].flat();
  if (all.length === 0) return out;
  const pingIds = all.map((r) => r.id);
  const people = await userSummaries(
    db,
    all.flatMap((r) => [r.senderId, r.receiverId]),
  );
  const reactions = await readInChunks(
    pingIds,
    async (part) => (await reactionsQuery(db, part)).rows,
  );
  const marks = new Set(
    (
      await readInChunks(pingIds, (part) =>
        db
          .selectFrom('moments')
          .select(['userId', 'pingId'])
          .where('userId', 'in', [...received.keys()])
          .where('pingId', 'in', part)
          .execute(),
      )
    ).map((m) => `${m.userId} ${m.pingId}`),
  );
  // Each ping has one receiver: every Ping built here is one person's.
  const byId = new Map<string, Ping>();
  for (const [personId, own] of received) {
    const pings = own.map((r) => toPing(r, people, marks.has(`${personId} ${r.id}`)));
    for (const ping of pings) byId.set(ping.id, ping);
    out.set(personId, pings);
  }
  for (const x of reactions) byId.get(x.pingId)?.reactions.push(x);
  return out;
}

/**
 * loadPings' second half, for the ping rows it read: their people, reactions and the viewer's
 * bookmarks. Every row must be one viewerId sent or received.
 */
async function pingsAsSeen(db: Db, viewerId: string, rows: PingRow[]): Promise<Ping[]> {
  if (rows.length === 0) return [];
  const pingIds = rows.map((r) => r.id);
  const people = await userSummaries(
    db,
    rows.flatMap((r) => [r.senderId, r.receiverId]),
  );
  const { rows: reactions } = await reactionsQuery(db, pingIds);
  const { rows: bookmarked } = await bookmarkedQuery(db, viewerId, pingIds);
  const marks = new Set(bookmarked.map((m) => m.pingId));
  const unreadToSender = await readsAfterABlock(db, viewerId, rows);
  const found = new Map(
    rows.map((r) => {
      const shown = unreadToSender.has(r.id) ? { ...r, isRead: 0, readAt: null } : r;
      return [r.id, toPing(shown, people, marks.has(r.id))];
    }),
  );
  for (const x of reactions) found.get(x.pingId)?.reactions.push(x);
  return [...found.values()];
}

/**
 * Pings viewerId sent that the receiver read after a block between the two (either way): the
 * read mark stays with the reader, so the sender is not told the blocked side is still there
 * (docs/security.md, "Blocking").
 */
async function readsAfterABlock(db: Db, viewerId: string, rows: PingRow[]): Promise<Set<string>> {
  const read = rows.filter((r) => r.senderId === viewerId && r.readAt !== null);
  if (read.length === 0) return new Set();
  const blocked = await blocksWith(
    db,
    viewerId,
    read.map((r) => r.receiverId),
  );
  if (blocked.size === 0) return new Set();
  return new Set(
    read
      .filter((r) => {
        const since = blocked.get(r.receiverId);
        return since !== undefined && r.readAt! >= since;
      })
      .map((r) => r.id),
  );
}

const unknownPerson = (id: string): UserSummary => ({
  id,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
});

function toPing(r: PingRow, people: Map<string, UserSummary>, isBookmarked: boolean): Ping {
  return {
    id: r.id,
    kind: r.kind,
    senderId: r.senderId,
    receiverId: r.receiverId,
    sender: people.get(r.senderId) ?? unknownPerson(r.senderId),
    receiver: people.get(r.receiverId) ?? unknownPerson(r.receiverId),
    prompt:
      r.promptText !== null
        ? { id: r.promptId, text: r.promptText, emoji: r.promptEmoji ?? DEFAULT_PROMPT_EMOJI }
        : null,
    customText: r.customText,
    customEmoji: r.customEmoji,
    anchorId: r.anchorId,
    groupId: r.groupId,
    createdAt: r.createdAt,
    writtenAt: r.writtenAt ?? r.createdAt,
    isRead: r.isRead === 1,
    readAt: r.readAt,
    isBookmarked,
    reactions: [],
  };
}

/**
 * Snapshot paging for /api/sync/pull: ids of pings viewerId sent or received, ascending.
 * The two sides are read separately, each from its (person, id) index (migration 006) and
 * stopped after `limit`, then merged: a page costs its own size, not the person's whole history
 * (an OR over both columns made SQLite sort every ping of theirs for every page).
 */
export async function visiblePingIds(
  db: Db,
  viewerId: string,
  afterId: string | undefined,
  limit: number,
): Promise<string[]> {
  const side = (column: 'senderId' | 'receiverId') => {
    let q = db.selectFrom('pings').select('id').where(column, '=', viewerId);
    if (afterId !== undefined) q = q.where('id', '>', afterId);
    const alias = column === 'senderId' ? 'sent' : 'received';
    return db.selectFrom(q.orderBy('id').limit(limit).as(alias)).select('id');
  };
  const rows = await side('senderId')
    .union(side('receiverId'))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

// ---------- pings ----------

export async function findPing(db: Db, id: string): Promise<PingRow | undefined> {
  return db.selectFrom('pings').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The ping's reactions as one JSON array (each a Reaction), in no particular order: PostgreSQL
 * answers json (parsed by the driver), SQLite text.
 */
function reactionsJson(db: Db) {
  return isPostgres(db)
    ? sql<
        Reaction[] | string
      >`(select coalesce(json_agg(json_build_object('id', r.id, 'pingId', r.ping_id, 'userId', r.user_id, 'reactionType', r.reaction_type, 'createdAt', r.created_at)), '[]') from reactions as r where r.ping_id = p.id)`
    : sql<
        Reaction[] | string
      >`(select json_group_array(json_object('id', r.id, 'pingId', r.ping_id, 'userId', r.user_id, 'reactionType', r.reaction_type, 'createdAt', r.created_at)) from reactions as r where r.ping_id = p.id)`;
}

/** In loadPings' order (reactionsQuery): by time, then id. */
function byTimeThenId(a: Reaction, b: Reaction): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A ping with what a write about it (a reaction, a read mark, a bookmark) needs to check and to
 * answer, in one statement (compiled once): its row, whether a block stands between its two
 * people (either way), their summaries, whether the viewer bookmarked it, its reactions (at most
 * two: one per person) and whether a reaction id the write would take is taken on another ping
 * (`''` asks about none). A reaction's answer puts the one it wrote in place of the viewer's, so
 * nothing is read after the write (docs/performance.md, "A reaction in two statements").
 *
 * The people are scalar subqueries, not joins: in a loop of better-sqlite3 a join of `users` to
 * a ping found by a bound id cost 6-7 µs more a run than a subquery for the same column, with
 * the same plan (docs/performance.md, "A reaction in three statements").
 */
const pingAsSeenQuery = compiledOnce((db: Db, id: string, viewerId: string, reactionId: string) =>
  db
    .selectFrom('pings as p')
    .selectAll('p')
    .select((eb) => {
      const of = (person: 'p.senderId' | 'p.receiverId') => {
        const user = () => eb.selectFrom('users as u').whereRef('u.id', '=', person);
        return [
          user().select('u.firstName'),
          user().select('u.lastName'),
          user().select('u.profileImageUrl'),
        ] as const;
      };
      const [senderFirstName, senderLastName, senderImage] = of('p.senderId');
      const [receiverFirstName, receiverLastName, receiverImage] = of('p.receiverId');
      return [
        senderFirstName.as('senderFirstName'),
        senderLastName.as('senderLastName'),
        senderImage.as('senderImage'),
        receiverFirstName.as('receiverFirstName'),
        receiverLastName.as('receiverLastName'),
        receiverImage.as('receiverImage'),
        eb
          .exists(
            eb
              .selectFrom('blocks as b')
              .select('b.blockerId')
              .where((w) =>
                linksBoth(
                  w,
                  'b.blockerId',
                  'b.blockedId',
                  w.ref('p.senderId'),
                  w.ref('p.receiverId'),
                ),
              ),
          )
          .as('blockedEitherWay'),
        eb
          .exists(
            eb
              .selectFrom('moments as m')
              .select('m.id')
              .where('m.userId', '=', viewerId)
              .whereRef('m.pingId', '=', 'p.id'),
          )
          .as('bookmarked'),
        reactionsJson(db).as('reactions'),
        // A reaction id the write would take, taken by a reaction on another ping ('' for none).
        eb
          .exists(
            eb
              .selectFrom('reactions as t')
              .select('t.id')
              .where('t.id', '=', reactionId)
              .whereRef('t.pingId', '<>', 'p.id'),
          )
          .as('reactionIdElsewhere'),
      ];
    })
    .where('p.id', '=', id),
);

/** A ping a write is about: its row, whether its people block each other, and its answer. */
export interface PingAsSeen {
  ping: PingRow;
  blocked: boolean;
  /** Its reactions as read, in loadPings' order. */
  reactions: Reaction[];
  /** The reaction id asked about is taken by a reaction on another ping. */
  reactionIdElsewhere: boolean;
  /**
   * The ping as the viewer sees it after the write: loadPings' shape, without reading the ping
   * or its reactions again. `after` is what the write changed in its row, whether the viewer's
   * bookmark now stands, and the viewer's reaction as the write left it (it replaces theirs).
   */
  asSeen: (
    after?: Partial<PingRow> & { bookmarked?: boolean; reaction?: Reaction },
  ) => Promise<Ping>;
}

/**
 * The ping `id` with what viewerId's write about it needs (pingAsSeenQuery); undefined when
 * unknown. Whether the viewer sent or received it is the caller's to check. `reactionId`: the id
 * a reaction would take, to learn whether a reaction on another ping has it.
 */
export async function findPingAsSeen(
  db: Db,
  id: string,
  viewerId: string,
  reactionId = '',
): Promise<PingAsSeen | undefined> {
  const [row] = (await pingAsSeenQuery(db, id, viewerId, reactionId)).rows;
  if (!row) return undefined;
  const {
    blockedEitherWay,
    bookmarked,
    reactions: json,
    reactionIdElsewhere,
    senderFirstName,
    senderLastName,
    senderImage,
    receiverFirstName,
    receiverLastName,
    receiverImage,
    ...ping
  } = row;
  // A person with no row reads as all nulls, as unknownPerson shows them in loadPings.
  const people = new Map<string, UserSummary>([
    [
      ping.senderId,
      {
        id: ping.senderId,
        firstName: senderFirstName,
        lastName: senderLastName,
        profileImageUrl: senderImage,
      },
    ],
    [
      ping.receiverId,
      {
        id: ping.receiverId,
        firstName: receiverFirstName,
        lastName: receiverLastName,
        profileImageUrl: receiverImage,
      },
    ],
  ]);
  // PostgreSQL answers a boolean, SQLite 0 or 1.
  const blocked = Boolean(blockedEitherWay);
  const reactions = (typeof json === 'string' ? (JSON.parse(json) as Reaction[]) : json).sort(
    byTimeThenId,
  );
  return {
    ping,
    blocked,
    reactions,
    reactionIdElsewhere: Boolean(reactionIdElsewhere),
    asSeen: async ({ bookmarked: marked = Boolean(bookmarked), reaction, ...changed } = {}) => {
      const now = { ...ping, ...changed };
      // Only a block can hide a read mark from the sender (one more read, then).
      const hidden = blocked && (await readsAfterABlock(db, viewerId, [now])).has(now.id);
      const seen = toPing(hidden ? { ...now, isRead: 0, readAt: null } : now, people, marked);
      seen.reactions = reaction
        ? [...reactions.filter((r) => r.userId !== reaction.userId), reaction].sort(byTimeThenId)
        : [...reactions];
      return seen;
    },
  };
}

export async function findPings(db: Db, ids: string[]): Promise<PingRow[]> {
  return readInChunks(ids, (part) =>
    db.selectFrom('pings').selectAll().where('id', 'in', part).execute(),
  );
}

export async function findGroupPings(db: Db, groupId: string): Promise<PingRow[]> {
  return db.selectFrom('pings').selectAll().where('groupId', '=', groupId).orderBy('id').execute();
}

/** Pings viewerId received, newest first. */
export async function receivedPingIds(db: Db, viewerId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('pings')
    .select('id')
    .where('receiverId', '=', viewerId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Pings between two people: sent by `a` to `b` or by `b` to `a`. */
export function pingsBetween(db: Db, a: string, b: string) {
  return db.selectFrom('pings').where((eb) => linksBoth(eb, 'senderId', 'receiverId', a, b));
}

/** Pings between two people, both directions, newest first. */
export async function pingIdsBetween(
  db: Db,
  a: string,
  b: string,
  limit: number,
): Promise<string[]> {
  const rows = await pingsBetween(db, a, b)
    .select('id')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Pings between a and b (either way) read at or after `since`. */
export async function pingIdsReadSince(
  db: Db,
  a: string,
  b: string,
  since: string,
): Promise<string[]> {
  const rows = await pingsBetween(db, a, b).select('id').where('readAt', '>=', since).execute();
  return rows.map((r) => r.id);
}

export async function countUnread(db: Db, receiverId: string): Promise<number> {
  return countRows(
    db.selectFrom('pings').where('receiverId', '=', receiverId).where('isRead', '=', 0),
  );
}

/** Pings a person sent plus pings they received. */
export async function countSentAndReceived(db: Db, userId: string): Promise<number> {
  const sent = await countRows(db.selectFrom('pings').where('senderId', '=', userId));
  const received = await countRows(db.selectFrom('pings').where('receiverId', '=', userId));
  return sent + received;
}

/** Marks one ping read for its receiver; the time it wrote, or undefined when it was read. */
export async function markRead(
  db: Db,
  id: string,
  receiverId: string,
): Promise<string | undefined> {
  const readAt = nowIso();
  const r = await db
    .updateTable('pings')
    .set({ isRead: 1, readAt })
    .where('id', '=', id)
    .where('receiverId', '=', receiverId)
    .where('isRead', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? readAt : undefined;
}

/**
 * Every unread ping of a receiver marked read, in one statement (compiled once): each answers its
 * id, its sender and whether a block stands between its two people (either way), which decides
 * whether the sender is told of the read mark (loadPings hides it from them after a block).
 */
const markAllReadQuery = compiledOnce((db: Db, receiverId: string, readAt: string) =>
  db
    .updateTable('pings')
    .set({ isRead: 1, readAt })
    .where('receiverId', '=', receiverId)
    .where('isRead', '=', 0)
    .returning((eb) => [
      'id',
      'senderId',
      eb
        .exists(
          eb
            .selectFrom('blocks as b')
            .select('b.blockerId')
            .where((w) =>
              linksBoth(w, 'b.blockerId', 'b.blockedId', w.ref('pings.senderId'), receiverId),
            ),
        )
        .as('blocked'),
    ]),
);

/**
 * Marks every unread ping of a receiver read; answers the pings it changed, each with whether a
 * block stands between its sender and the receiver.
 */
export async function markAllRead(
  db: Db,
  receiverId: string,
): Promise<{ id: string; senderId: string; blocked: boolean }[]> {
  const { rows } = await markAllReadQuery(db, receiverId, nowIso());
  // PostgreSQL answers a boolean, SQLite 0 or 1.
  return rows.map((r) => ({ id: r.id, senderId: r.senderId, blocked: Boolean(r.blocked) }));
}
