/**
 * Pings, loaded with their reactions and whether the viewer bookmarked them. Only the sender and the
 * receiver ever see a ping; `isBookmarked` is the viewer's own; reactions are everyone's.
 * Loads are batched: one query each for pings, people, reactions and moments per chunk of ids.
 */
import { DEFAULT_PROMPT_EMOJI, type Ping, type UserSummary } from '@pingme/shared';
import { blocksWith } from './blocks';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { nowIso } from './connection';
import type { PingKind, PingRow, PingsTable } from './schema';
import { chunks, loadInOrder, readInChunks } from './chunks';
import { involves, linksBoth } from './two-people';

/** What one send puts in every ping it creates. */
export type PingContent = Pick<
  PingsTable,
  'kind' | 'promptId' | 'promptText' | 'promptEmoji' | 'customText' | 'customEmoji' | 'anchorId'
>;

/** A ping's row as a send inserts it: its content, who, and when (`writtenAt` absent: null). */
export type NewPing = PingContent &
  Pick<PingsTable, 'id' | 'senderId' | 'receiverId' | 'groupId' | 'createdAt'> &
  Partial<Pick<PingsTable, 'writtenAt'>>;

// ---------- people ----------

/** Summaries of the given people, one query per chunk. */
export async function userSummaries(db: Db, ids: string[]): Promise<Map<string, UserSummary>> {
  const rows = await readInChunks(ids, (part) =>
    db
      .selectFrom('users')
      .select(['id', 'firstName', 'lastName', 'profileImageUrl'])
      .where('id', 'in', part)
      .execute(),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** What sending needs to know about a receiver: their name and their daily limit. */
export interface Recipient {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  rateLimitPerDay: number;
}

/** A receiver as sending sees them: the Recipient, and whether the sender may ping them now. */
export interface SendTarget extends Recipient {
  profileImageUrl: string | null;
  /** An accepted friendship joins the sender and this person. */
  isFriend: boolean;
  /** Pings the sender sent this person at or after `since`. */
  sentSince: number;
}

/** The query of sendTargets for a list of receivers (the sender is read with them). */
function sendTargetsQuery(db: Db, senderId: string, receiverIds: string[], since: string) {
  return db
    .selectFrom('users as u')
    .select([
      'u.id',
      'u.firstName',
      'u.lastName',
      'u.profileImageUrl',
      'u.email',
      'u.rateLimitPerDay',
    ])
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('friendships as f')
            .select('f.id')
            .where('f.status', '=', 'accepted')
            .where((w) =>
              w.or([
                w.and([w('f.requesterId', '=', senderId), w('f.addresseeId', '=', w.ref('u.id'))]),
                w.and([w('f.requesterId', '=', w.ref('u.id')), w('f.addresseeId', '=', senderId)]),
              ]),
            ),
        )
        .as('isFriend'),
      eb
        .selectFrom('pings as p')
        .select((c) => c.fn.countAll<number>().as('n'))
        .where('p.senderId', '=', senderId)
        .whereRef('p.receiverId', '=', 'u.id')
        .where('p.createdAt', '>=', since)
        .as('sentSince'),
    ])
    .where('u.id', 'in', [senderId, ...receiverIds]);
}

/** The same for one receiver (every REST send): compiled once (db/compiled.ts). */
const sendTargetQuery = compiledOnce(
  (db: Db, senderId: string, receiverId: string, since: string) =>
    sendTargetsQuery(db, senderId, [receiverId], since),
);

/**
 * What one send needs to know, in one query per chunk of receivers instead of four (the sender's
 * friends, the receivers, the daily counts, the people of the answer): each receiver that exists,
 * whether they are the sender's friend and how many pings the sender sent them since `since`
 * (ISO); and the sender's own summary. A friend is what friendIds (db/friendships.ts) counts:
 * an accepted friendship, whoever asked.
 */
export async function sendTargets(
  db: Db,
  senderId: string,
  receiverIds: string[],
  since: string,
): Promise<{ sender: UserSummary | undefined; receivers: Map<string, SendTarget> }> {
  const receivers = new Map<string, SendTarget>();
  let sender: UserSummary | undefined;
  for (const part of chunks([...new Set(receiverIds)], 499)) {
    const wanted = new Set(part);
    const rows =
      part.length === 1
        ? (await sendTargetQuery(db, senderId, part[0]!, since)).rows
        : await sendTargetsQuery(db, senderId, part, since).execute();
    for (const r of rows) {
      if (r.id === senderId) {
        sender = {
          id: r.id,
          firstName: r.firstName,
          lastName: r.lastName,
          profileImageUrl: r.profileImageUrl,
        };
      }
      if (wanted.has(r.id)) {
        receivers.set(r.id, {
          id: r.id,
          firstName: r.firstName,
          lastName: r.lastName,
          email: r.email,
          rateLimitPerDay: r.rateLimitPerDay,
          profileImageUrl: r.profileImageUrl,
          isFriend: Number(r.isFriend) === 1,
          sentSince: Number(r.sentSince ?? 0),
        });
      }
    }
  }
  return { sender, receivers };
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
    const rows = await db
      .selectFrom('pings')
      .selectAll()
      .where('id', 'in', part)
      .where((eb) => involves(eb, 'senderId', 'receiverId', viewerId))
      .execute();
    if (rows.length === 0) return [];
    const pingIds = rows.map((r) => r.id);
    const people = await userSummaries(
      db,
      rows.flatMap((r) => [r.senderId, r.receiverId]),
    );
    const reactions = await db
      .selectFrom('reactions')
      .selectAll()
      .where('pingId', 'in', pingIds)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    const bookmarked = await db
      .selectFrom('moments')
      .select('pingId')
      .where('userId', '=', viewerId)
      .where('pingId', 'in', pingIds)
      .execute();
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
  });
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

export async function findPings(db: Db, ids: string[]): Promise<PingRow[]> {
  return readInChunks(ids, (part) =>
    db.selectFrom('pings').selectAll().where('id', 'in', part).execute(),
  );
}

export async function findGroupPings(db: Db, groupId: string): Promise<PingRow[]> {
  return db.selectFrom('pings').selectAll().where('groupId', '=', groupId).orderBy('id').execute();
}

/** One ping (every REST send): compiled once (db/compiled.ts). */
const insertPingQuery = compiledOnce(
  (
    db: Db,
    id: string,
    senderId: string,
    receiverId: string,
    kind: PingKind,
    promptId: string | null,
    promptText: string | null,
    promptEmoji: string | null,
    customText: string | null,
    customEmoji: string | null,
    anchorId: string | null,
    groupId: string | null,
    createdAt: string,
    writtenAt: string | null,
  ) =>
    db
      .insertInto('pings')
      .values({
        id,
        senderId,
        receiverId,
        kind,
        promptId,
        promptText,
        promptEmoji,
        customText,
        customEmoji,
        anchorId,
        groupId,
        createdAt,
        writtenAt,
        isRead: 0,
        readAt: null,
      })
      .onConflict((oc) => oc.column('id').doNothing()),
);

/**
 * Inserts the pings; answers how many were new. One ping whose id is taken is not inserted (0),
 * without an error that would end a PostgreSQL transaction: its sender then answers the stored
 * ping or a 409 (services/pings.ts). Several (a group) are checked before, and an id taken
 * meanwhile fails the insert.
 */
export async function insertPings(db: Db, pings: NewPing[]): Promise<number> {
  if (pings.length === 1) {
    const p = pings[0]!;
    const result = await insertPingQuery(
      db,
      p.id,
      p.senderId,
      p.receiverId,
      p.kind,
      p.promptId,
      p.promptText,
      p.promptEmoji,
      p.customText,
      p.customEmoji,
      p.anchorId,
      p.groupId,
      p.createdAt,
      p.writtenAt ?? null,
    );
    return Number(result.numAffectedRows ?? 0);
  }
  for (const part of chunks(pings, 50)) {
    await db
      .insertInto('pings')
      .values(part.map((p) => ({ ...p, writtenAt: p.writtenAt ?? null, isRead: 0, readAt: null })))
      .execute();
  }
  return pings.length;
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
  const r = await db
    .selectFrom('pings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('receiverId', '=', receiverId)
    .where('isRead', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Pings a person sent plus pings they received. */
export async function countSentAndReceived(db: Db, userId: string): Promise<number> {
  const sent = await db
    .selectFrom('pings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('senderId', '=', userId)
    .executeTakeFirstOrThrow();
  const received = await db
    .selectFrom('pings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('receiverId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(sent.n) + Number(received.n);
}

/** Marks one ping read for its receiver; true when it was unread. */
export async function markRead(db: Db, id: string, receiverId: string): Promise<boolean> {
  const r = await db
    .updateTable('pings')
    .set({ isRead: 1, readAt: nowIso() })
    .where('id', '=', id)
    .where('receiverId', '=', receiverId)
    .where('isRead', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Marks every unread ping of a receiver read; answers the pings it changed. */
export async function markAllRead(
  db: Db,
  receiverId: string,
): Promise<{ id: string; senderId: string }[]> {
  const unread = await db
    .selectFrom('pings')
    .select(['id', 'senderId'])
    .where('receiverId', '=', receiverId)
    .where('isRead', '=', 0)
    .execute();
  const readAt = nowIso();
  for (const part of chunks(unread.map((p) => p.id))) {
    await db
      .updateTable('pings')
      .set({ isRead: 1, readAt })
      .where('id', 'in', part)
      .where('isRead', '=', 0)
      .execute();
  }
  return unread;
}

// ---------- the daily limit ----------

/**
 * The send time of the `n`-th oldest (0-based) ping from senderId to receiverId at or after
 * `since`: once it leaves the window, the count drops by n + 1.
 */
export async function nthSentSince(
  db: Db,
  senderId: string,
  receiverId: string,
  since: string,
  n: number,
): Promise<string | undefined> {
  const r = await db
    .selectFrom('pings')
    .select('createdAt')
    .where('senderId', '=', senderId)
    .where('receiverId', '=', receiverId)
    .where('createdAt', '>=', since)
    .orderBy('createdAt')
    .limit(1)
    .offset(Math.max(0, n))
    .executeTakeFirst();
  return r?.createdAt;
}

// ---------- anchors ----------

/** True when anchorId is an accepted anchor between a and b (either of them asked). */
export async function isAcceptedAnchorBetween(
  db: Db,
  anchorId: string,
  a: string,
  b: string,
): Promise<boolean> {
  const r = await db
    .selectFrom('anchors')
    .select('id')
    .where('id', '=', anchorId)
    .where('status', '=', 'accepted')
    .where((eb) => linksBoth(eb, 'userId', 'friendId', a, b))
    .executeTakeFirst();
  return r !== undefined;
}
