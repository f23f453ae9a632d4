/**
 * What a send reads and writes: the receivers with their daily counts
 * (sendTargets, one query), the new rows (insertPings), both in one statement for one receiver
 * on PostgreSQL (sendTargetAndInsert), the limit's retry time and the anchor a send names
 * (services/pings.ts and mutations/pings.ts). Loading pings is db/pings.ts.
 */
import type { UserSummary } from '@pingme/shared';
import { sql } from 'kysely';
import type { PingKind, PingsTable } from './schema';
import { chunks } from './chunks';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { isPostgres } from './dialect';
import { linksBoth } from './two-people';

/** What one send puts in every ping it creates. */
export type PingContent = Pick<
  PingsTable,
  'kind' | 'promptId' | 'promptText' | 'promptEmoji' | 'customText' | 'customEmoji' | 'anchorId'
>;

/** A ping's row as a send inserts it: its content, who, and when (`writtenAt` absent: null). */
export type NewPing = PingContent &
  Pick<PingsTable, 'id' | 'senderId' | 'receiverId' | 'groupId' | 'createdAt'> &
  Partial<Pick<PingsTable, 'writtenAt'>>;

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
    const rows =
      part.length === 1
        ? (await sendTargetQuery(db, senderId, part[0]!, since)).rows
        : await sendTargetsQuery(db, senderId, part, since).execute();
    const found = targetsOf(rows, senderId, part);
    sender ??= found.sender;
    for (const [id, r] of found.receivers) receivers.set(id, r);
  }
  return { sender, receivers };
}

type SendTargetRow = Omit<SendTarget, 'isFriend' | 'sentSince'> & {
  isFriend: unknown;
  sentSince: unknown;
};

/** The sender's summary and the wanted receivers, from the rows of sendTargetsQuery. */
function targetsOf(rows: readonly SendTargetRow[], senderId: string, wanted: readonly string[]) {
  const receivers = new Map<string, SendTarget>();
  let sender: UserSummary | undefined;
  const want = new Set(wanted);
  for (const r of rows) {
    if (r.id === senderId) {
      sender = {
        id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        profileImageUrl: r.profileImageUrl,
      };
    }
    if (want.has(r.id)) {
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
  return { sender, receivers };
}

/** A new ping's columns, in the order of PingValues. */
const PING_COLUMNS = [
  'id',
  'senderId',
  'receiverId',
  'kind',
  'promptId',
  'promptText',
  'promptEmoji',
  'customText',
  'customEmoji',
  'anchorId',
  'groupId',
  'createdAt',
  'writtenAt',
] as const;

function pingValues(p: NewPing): PingValues {
  return [
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
  ];
}

/**
 * On PostgreSQL, where every statement is a round trip: one send to one person as one statement.
 * It reads what sendTargets reads and inserts the ping in the same statement (a data-modifying
 * `with`), only if the receiver is the sender's friend and under their daily limit, the same
 * test services/pings.ts makes of the rows it answers (which then refuses the send as before,
 * the insert not made); `inserted` is 0 also when the ping's id is taken.
 */
const sendTargetAndInsertQuery = compiledOnce((db: Db, since: string, ...ping: PingValues) => {
  const [, senderId, receiverId] = ping;
  return db
    .with('t', () => sendTargetsQuery(db, senderId, [receiverId], since))
    .with('ins', (qc) =>
      qc
        .insertInto('pings')
        .columns([...PING_COLUMNS, 'isRead', 'readAt'])
        .expression((eb) =>
          eb
            .selectFrom('t')
            .select([
              ...ping.map((value, i) => eb.val(value).as(PING_COLUMNS[i]!)),
              sql.lit(0).as('isRead'),
              sql.lit(null).as('readAt'),
            ])
            .where('t.id', '=', receiverId)
            .where(
              sql<boolean>`${sql.ref('t.isFriend')} and ${sql.ref('t.sentSince')} < ${sql.ref('t.rateLimitPerDay')}`,
            ),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id'),
    )
    .selectFrom('t')
    .selectAll('t')
    .select((eb) => eb.selectFrom('ins').select(eb.fn.countAll<number>().as('n')).as('inserted'));
});

/**
 * sendTargets for one receiver, and on PostgreSQL the ping inserted in the same statement when
 * the receiver is a friend under their daily limit (`inserted`: 1, or 0 when refused or its id
 * is taken). On SQLite, where a statement is no round trip, `inserted` is undefined: the caller
 * inserts (insertPings) after its checks.
 */
export async function sendTargetAndInsert(
  db: Db,
  since: string,
  ping: NewPing,
): Promise<{
  sender: UserSummary | undefined;
  receivers: Map<string, SendTarget>;
  inserted: number | undefined;
}> {
  if (!isPostgres(db))
    return {
      ...(await sendTargets(db, ping.senderId, [ping.receiverId], since)),
      inserted: undefined,
    };
  const { rows } = await sendTargetAndInsertQuery(db, since, ...pingValues(ping));
  return {
    ...targetsOf(rows, ping.senderId, [ping.receiverId]),
    inserted: Number(rows[0]?.inserted ?? 0),
  };
}

// ---------- inserting ----------

/** One ping (every REST send), its values in the order of PING_COLUMNS. */
const insertPing = (
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
    .onConflict((oc) => oc.column('id').doNothing());

/** A new ping's values in the order the compiled queries bind them (PING_COLUMNS). */
type PingValues = Parameters<typeof insertPing> extends [Db, ...infer V] ? V : never;

/** insertPing compiled once (db/compiled.ts). */
const insertPingQuery = compiledOnce(insertPing);

/**
 * Inserts the pings; answers how many were new. One ping whose id is taken is not inserted (0),
 * without an error that would end a PostgreSQL transaction: its sender then answers the stored
 * ping or a 409 (services/pings.ts). Several (a group) are checked before, and an id taken
 * meanwhile fails the insert.
 */
export async function insertPings(db: Db, pings: NewPing[]): Promise<number> {
  if (pings.length === 1) {
    const result = await insertPingQuery(db, ...pingValues(pings[0]!));
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
