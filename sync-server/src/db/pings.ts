/**
 * Pings, loaded with their reactions and whether the viewer bookmarked them. Only the sender and the
 * receiver ever see a ping; `isBookmarked` is the viewer's own; reactions are everyone's.
 * A viewer's pings load in one statement per chunk of ids on PostgreSQL (seenColumns), one per
 * table on SQLite; the relay's load for many receivers at once takes one per table.
 */
import { DEFAULT_PROMPT_EMOJI, type Ping, type Reaction, type UserSummary } from '@pingme/shared';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { blocksWith } from './blocks';
import type { Db } from './connection';
import { countRows } from './count';
import { nowIso } from './connection';
import type { NewPing } from './ping-sends';
import type { Database, PingRow } from './schema';
import { loadInOrder, readInChunks } from './chunks';
import { compiledOnce } from './compiled';
import { isPostgres } from './dialect';
import { replacingTheirs, type ReactionValues } from './reactions';
import { involves, involvesEach, linksBoth } from './two-people';

// ---------- people ----------

// The reads of pings one table at a time (loadPings on SQLite, the relay's pingsAsReceived):
// compiled once per length of their list of ids (compiled.ts).
const summariesQuery = compiledOnce((db: Db, ids: string[]) =>
  db
    .selectFrom('users')
    .select(['id', 'firstName', 'lastName', 'profileImageUrl'])
    .where('id', 'in', ids),
);
const pingRowsQuery = compiledOnce((db: Db, ids: string[], viewerId: string) =>
  db
    .selectFrom('pings')
    .selectAll()
    .where('id', 'in', ids)
    .where((eb) => involvesEach(eb, 'senderId', 'receiverId', viewerId)),
);
const bookmarkedQuery = compiledOnce((db: Db, viewerId: string, pingIds: string[]) =>
  db
    .selectFrom('moments')
    .select('pingId')
    .where('userId', '=', viewerId)
    .where('pingId', 'in', pingIds),
);
const reactionsQuery = compiledOnce((db: Db, pingIds: string[]) =>
  db
    .selectFrom('reactions')
    .selectAll()
    .where('pingId', 'in', pingIds)
    .orderBy('createdAt')
    .orderBy('id'),
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
 * reactions. Order of `ids` kept; unknown or invisible ids omitted. On PostgreSQL one statement
 * per chunk of ids, where every statement is a round trip; on SQLite one per table, which costs
 * less there for a page of many pings (docs/performance.md, "Mark all read in one statement, and a
 * pull's pings in one statement on PostgreSQL").
 */
export async function loadPings(db: Db, viewerId: string, ids: string[]): Promise<Ping[]> {
  return loadPingsBy(isPostgres(db) ? 'one statement' : 'table', db, viewerId, ids);
}

/** loadPings, either way on either backend (tests hold both to the same answers). */
export async function loadPingsBy(
  how: 'one statement' | 'table',
  db: Db,
  viewerId: string,
  ids: string[],
): Promise<Ping[]> {
  return loadInOrder(ids, async (part) => {
    const seen =
      how === 'table'
        ? await seenByTable(db, viewerId, part)
        : (await visiblePingsQuery(db, part, viewerId)).rows.map(seenPing);
    return seen.map((s) => shownTo(viewerId, s));
  });
}

/**
 * The pings among each person's `ids` that they received, as they see them: the relay's read of
 * one pass over the change log (realtime/relay.ts). The log names a new ping to its sender and to
 * its receiver alike; one query reads every ping the pass names, and the receivers' own are then
 * loaded together, whoever they are: their people, reactions and bookmarks in one query each
 * (per chunk of ids), not one set per person. A receiver sees a ping as it is (the read mark kept
 * from a blocked side is a sender's view only, shownTo). Order of each person's `ids`
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

/** A query over `pings as p`. */
type OverPings = ExpressionBuilder<Database & { p: Database['pings'] }, 'p'>;

/**
 * What a ping is answered with besides its own row, as columns of a query over `pings as p`:
 * its two people's summaries, the time the earliest block in force between them began (either
 * way; null for none), whether the viewer bookmarked it, and its reactions (at most two: one per
 * person) as one JSON array. One statement answers a ping as loadPings shows it (seenPing).
 *
 * The people are scalar subqueries, not joins: in a loop of better-sqlite3 a join of `users` to
 * a ping found by a bound id cost 6-7 µs more a run than a subquery for the same column, with
 * the same plan (docs/performance.md, "A reaction in three statements").
 */
function seenColumns(eb: OverPings, db: Db, viewerId: string) {
  const user = (person: 'p.senderId' | 'p.receiverId') =>
    eb.selectFrom('users as u').whereRef('u.id', '=', person);
  return [
    user('p.senderId').select('u.firstName').as('senderFirstName'),
    user('p.senderId').select('u.lastName').as('senderLastName'),
    user('p.senderId').select('u.profileImageUrl').as('senderImage'),
    user('p.receiverId').select('u.firstName').as('receiverFirstName'),
    user('p.receiverId').select('u.lastName').as('receiverLastName'),
    user('p.receiverId').select('u.profileImageUrl').as('receiverImage'),
    eb
      .selectFrom('blocks as b')
      .select((b) => b.fn.min('b.createdAt').as('since'))
      .where((w) =>
        linksBoth(w, 'b.blockerId', 'b.blockedId', w.ref('p.senderId'), w.ref('p.receiverId')),
      )
      .as('blockSince'),
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
  ] as const;
}

/** A row of a query with seenColumns. */
type SeenRow = PingRow & {
  senderFirstName: string | null;
  senderLastName: string | null;
  senderImage: string | null;
  receiverFirstName: string | null;
  receiverLastName: string | null;
  receiverImage: string | null;
  blockSince: string | null;
  bookmarked: SqlBool | number;
  reactions: Reaction[] | string;
};

/** A ping read with seenColumns: its row, its people, the block between them, and the rest. */
interface SeenPing {
  ping: PingRow;
  people: Map<string, UserSummary>;
  /**
   * When the earliest block in force between its two people began; null for none (and, read by
   * table, for a ping whose read mark a block cannot hide from this viewer).
   */
  blockSince: string | null;
  bookmarked: boolean;
  /** In loadPings' order. */
  reactions: Reaction[];
}

function seenPing(row: SeenRow): SeenPing {
  const {
    blockSince,
    bookmarked,
    reactions: json,
    senderFirstName,
    senderLastName,
    senderImage,
    receiverFirstName,
    receiverLastName,
    receiverImage,
    ...ping
  } = row;
  // A person with no row reads as all nulls, as unknownPerson shows them.
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
  const reactions = (typeof json === 'string' ? (JSON.parse(json) as Reaction[]) : json).sort(
    byTimeThenId,
  );
  // PostgreSQL answers a boolean, SQLite 0 or 1.
  return { ping, people, blockSince, bookmarked: Boolean(bookmarked), reactions };
}

/**
 * The ping as viewerId sees it. After a block, a read mark made since stays with the reader: its
 * sender sees the ping unread (docs/security.md, "Blocking").
 */
function shownTo(viewerId: string, seen: SeenPing): Ping {
  const { ping, blockSince } = seen;
  const hidden =
    ping.senderId === viewerId &&
    ping.readAt !== null &&
    blockSince !== null &&
    ping.readAt >= blockSince;
  const shown = toPing(
    hidden ? { ...ping, isRead: 0, readAt: null } : ping,
    seen.people,
    seen.bookmarked,
  );
  shown.reactions = [...seen.reactions];
  return shown;
}

/**
 * The pings among `ids` (a chunk) that viewerId sent or received, read one table at a time: their
 * rows, their people, reactions and the viewer's bookmarks; and the blocks between the viewer and
 * the receivers of the pings the viewer sent that were read, the only ones a block changes
 * (shownTo; `blockSince` is null for the others).
 */
async function seenByTable(db: Db, viewerId: string, ids: string[]): Promise<SeenPing[]> {
  const { rows } = await pingRowsQuery(db, ids, viewerId);
  if (rows.length === 0) return [];
  const pingIds = rows.map((r) => r.id);
  const people = await userSummaries(
    db,
    rows.flatMap((r) => [r.senderId, r.receiverId]),
  );
  const reactions = new Map<string, Reaction[]>();
  for (const x of (await reactionsQuery(db, pingIds)).rows) {
    const list = reactions.get(x.pingId);
    if (list) list.push(x);
    else reactions.set(x.pingId, [x]);
  }
  const marks = new Set((await bookmarkedQuery(db, viewerId, pingIds)).rows.map((m) => m.pingId));
  const readSent = rows.filter((r) => r.senderId === viewerId && r.readAt !== null);
  const blocks = readSent.length
    ? await blocksWith(
        db,
        viewerId,
        readSent.map((r) => r.receiverId),
      )
    : new Map<string, string>();
  return rows.map((ping) => ({
    ping,
    people,
    blockSince: ping.senderId === viewerId ? (blocks.get(ping.receiverId) ?? null) : null,
    bookmarked: marks.has(ping.id),
    reactions: reactions.get(ping.id) ?? [],
  }));
}

/**
 * The pings among `ids` (a chunk) that viewerId sent or received, each with seenColumns: one
 * statement (compiled once per length of the list) answers them as the viewer sees them.
 */
const visiblePingsQuery = compiledOnce((db: Db, ids: string[], viewerId: string) =>
  db
    .selectFrom('pings as p')
    .selectAll('p')
    .select((eb) => seenColumns(eb, db, viewerId))
    .where('p.id', 'in', ids)
    .where((eb) => involvesEach(eb, 'p.senderId', 'p.receiverId', viewerId)),
);

/**
 * A ping with what a write about it (a reaction, a read mark, a bookmark) needs to check and to
 * answer, in one statement (compiled once): its row with seenColumns, and whether a reaction id
 * the write would take is taken on another ping (`''` asks about none). A reaction's answer puts
 * the one it wrote in place of the viewer's, so nothing is read after the write
 * (docs/performance.md, "A reaction in two statements").
 */
function pingAsSeenSelect(db: Db, id: string, viewerId: string, reactionId: string) {
  return db
    .selectFrom('pings as p')
    .selectAll('p')
    .select((eb) => [
      ...seenColumns(eb, db, viewerId),
      eb
        .exists(
          eb
            .selectFrom('reactions as t')
            .select('t.id')
            .where('t.id', '=', reactionId)
            .whereRef('t.pingId', '<>', 'p.id'),
        )
        .as('reactionIdElsewhere'),
    ])
    .where('p.id', '=', id);
}
const pingAsSeenQuery = compiledOnce(pingAsSeenSelect);

/**
 * pingAsSeenQuery for a reaction, with the reaction inserted in the same statement (a
 * data-modifying `with`, PostgreSQL only) when the checks of the reaction mutation
 * (mutations/pings.ts) let it be written: the ping exists, the reacting person sent or received it,
 * no block stands between its people, and no reaction has the reaction's id (on another ping the
 * id is refused, on this one the reaction is a replay). The insert replaces the person's earlier
 * reaction on the ping, as replaceReaction does. `written` is 1 when it was made.
 */
const reactQuery = compiledOnce(
  (db: Db, ...[id, pingId, userId, reactionType, createdAt]: ReactionValues) =>
    db
      .with('found', () => pingAsSeenSelect(db, pingId, userId, id))
      .with('written', (qc) =>
        qc
          .insertInto('reactions')
          .columns(['id', 'pingId', 'userId', 'reactionType', 'createdAt'])
          .expression((eb) =>
            eb
              .selectFrom('found')
              .select([
                eb.val(id).as('id'),
                eb.val(pingId).as('pingId'),
                eb.val(userId).as('userId'),
                eb.val(reactionType).as('reactionType'),
                eb.val(createdAt).as('createdAt'),
              ])
              .where((w) =>
                w.and([
                  involves(w, 'found.senderId', 'found.receiverId', userId),
                  w('found.blockSince', 'is', null),
                  w.not(
                    w.exists(w.selectFrom('reactions as t').select('t.id').where('t.id', '=', id)),
                  ),
                ]),
              ),
          )
          .onConflict(replacingTheirs)
          .returning('id'),
      )
      .selectFrom('found')
      .selectAll('found')
      .select((eb) =>
        eb.selectFrom('written').select(eb.fn.countAll<number>().as('n')).as('written'),
      ),
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
  return row && pingAsSeen(viewerId, row);
}

/**
 * findPingAsSeen for `reaction`'s person, ping and id, and on PostgreSQL the reaction written in
 * the same statement when it may be (reactQuery): `written` is then true. On SQLite, where a
 * statement is no round trip, nothing is written: the caller writes after its checks
 * (replaceReaction).
 */
export async function findPingAsSeenAndReact(
  db: Db,
  reaction: Reaction,
): Promise<{ found: PingAsSeen | undefined; written: boolean }> {
  const { id, pingId, userId } = reaction;
  if (!isPostgres(db))
    return { found: await findPingAsSeen(db, pingId, userId, id), written: false };
  const [row] = (
    await reactQuery(db, id, pingId, userId, reaction.reactionType, reaction.createdAt)
  ).rows;
  if (!row) return { found: undefined, written: false };
  const { written, ...rest } = row;
  return { found: pingAsSeen(userId, rest), written: Number(written) > 0 };
}

function pingAsSeen(
  viewerId: string,
  { reactionIdElsewhere, ...row }: SeenRow & { reactionIdElsewhere: SqlBool | number },
): PingAsSeen {
  const seen = seenPing(row);
  const { ping, reactions } = seen;
  return {
    ping,
    blocked: seen.blockSince !== null,
    reactions,
    reactionIdElsewhere: Boolean(reactionIdElsewhere),
    asSeen: async ({ bookmarked = seen.bookmarked, reaction, ...changed } = {}) =>
      shownTo(viewerId, {
        ...seen,
        ping: { ...ping, ...changed },
        bookmarked,
        reactions: reaction
          ? [...reactions.filter((r) => r.userId !== reaction.userId), reaction].sort(byTimeThenId)
          : reactions,
      }),
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
