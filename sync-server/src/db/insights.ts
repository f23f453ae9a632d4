/**
 * Read-only figures for analytics, friendship insights, profile metrics and badges, plus moments
 * and ping packs. Times are ISO-8601 UTC strings, so comparing them as text compares instants and
 * their first 10 characters are the UTC day.
 */
import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  type StringReference,
} from 'kysely';
import type { Db } from './connection';
import { countRows } from './count';
import { pingsBetween } from './pings';
import type { MomentsTable, PacksTable, PromptsTable } from './schema';
import { involves } from './two-people';

const dayOf = (ref: Expression<string>) => sql<string>`substr(${ref}, 1, 10)`;
const num = (v: unknown) => Number(v ?? 0);

/** `sum(case when cond then 1 else 0 end)`: how many of the rows meet cond. */
function countWhen<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  cond: Expression<SqlBool>,
) {
  return eb.fn.sum<number>(eb.case().when(cond).then(1).else(0).end());
}

export interface PairCounts {
  sent: number;
  received: number;
  /** The latest ping either way, at any time. */
  lastAt: string | null;
}

/** Pings `me` sent to and received from `friend` since `since`, and their latest ping ever. */
export async function pairCounts(
  db: Db,
  me: string,
  friend: string,
  since: string,
): Promise<PairCounts> {
  const r = await pingsBetween(db, me, friend)
    .select((eb) => {
      const sentSince = (sender: string) =>
        countWhen(eb, eb.and([eb('senderId', '=', sender), eb('createdAt', '>=', since)]));
      return [
        sentSince(me).as('sent'),
        sentSince(friend).as('received'),
        eb.fn.max('createdAt').as('lastAt'),
      ];
    })
    .executeTakeFirst();
  return { sent: num(r?.sent), received: num(r?.received), lastAt: r?.lastAt ?? null };
}

/** Pings exchanged per UTC day ('YYYY-MM-DD') since `since`; days without pings are absent. */
export async function pairDailyCounts(
  db: Db,
  me: string,
  friend: string,
  since: string,
): Promise<Map<string, number>> {
  const rows = await pingsBetween(db, me, friend)
    .where('createdAt', '>=', since)
    .select((eb) => [dayOf(eb.ref('createdAt')).as('day'), eb.fn.countAll<number>().as('n')])
    .groupBy((eb) => dayOf(eb.ref('createdAt')))
    .execute();
  return new Map(rows.map((r) => [r.day, num(r.n)]));
}

export interface PromptCount {
  prompt: { text: string; emoji: string };
  count: number;
}

/**
 * The most used prompts (by the text they had when sent) among prompt pings. `limit` rows, most
 * used first; ties go to the prompt used most recently.
 */
async function topPrompts(
  q: ReturnType<typeof pingsBetween>,
  since: string | undefined,
  limit: number,
): Promise<PromptCount[]> {
  let query = q.where('promptText', 'is not', null);
  if (since) query = query.where('createdAt', '>=', since);
  const rows = await query
    .select((eb) => [
      'promptText',
      eb.fn.max('promptEmoji').as('emoji'),
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('createdAt').as('lastAt'),
    ])
    .groupBy('promptText')
    .orderBy('n', 'desc')
    .orderBy('lastAt', 'desc')
    .orderBy('promptText')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    prompt: { text: r.promptText!, emoji: r.emoji ?? '💭' },
    count: num(r.n),
  }));
}

/** The prompts most used between two people (either direction) since `since`. */
export function topPromptsBetween(
  db: Db,
  me: string,
  friend: string,
  since: string,
  limit: number,
): Promise<PromptCount[]> {
  return topPrompts(pingsBetween(db, me, friend), since, limit);
}

/** The prompts `me` sent most, since `since` (or ever). */
export function topPromptsSentBy(
  db: Db,
  me: string,
  since: string | undefined,
  limit: number,
): Promise<PromptCount[]> {
  return topPrompts(db.selectFrom('pings').where('senderId', '=', me), since, limit);
}

export interface PingTotals {
  totalSent: number;
  sentSince: number;
  totalReceived: number;
  receivedSince: number;
}

/** All-time and since-`since` counts of pings `me` sent and received, in one pass. */
export async function pingTotals(db: Db, me: string, since: string): Promise<PingTotals> {
  const r = await db
    .selectFrom('pings')
    .where((eb) => involves(eb, 'senderId', 'receiverId', me))
    .select((eb) => {
      const count = (cond: Expression<SqlBool>) => countWhen(eb, cond);
      return [
        count(eb('senderId', '=', me)).as('totalSent'),
        count(eb.and([eb('senderId', '=', me), eb('createdAt', '>=', since)])).as('sentSince'),
        count(eb('receiverId', '=', me)).as('totalReceived'),
        count(eb.and([eb('receiverId', '=', me), eb('createdAt', '>=', since)])).as(
          'receivedSince',
        ),
      ];
    })
    .executeTakeFirst();
  return {
    totalSent: num(r?.totalSent),
    sentSince: num(r?.sentSince),
    totalReceived: num(r?.totalReceived),
    receivedSince: num(r?.receivedSince),
  };
}

/** Reactions `me` has given, and how many of the pings `me` received carry one of them. */
export async function reactionTotals(
  db: Db,
  me: string,
): Promise<{ given: number; receivedPingsReacted: number }> {
  const given = await countRows(db.selectFrom('reactions').where('userId', '=', me));
  const reacted = await db
    .selectFrom('pings as p')
    .innerJoin('reactions as r', (j) => j.onRef('r.pingId', '=', 'p.id').on('r.userId', '=', me))
    .select((eb) => eb.fn.count<number>('p.id').distinct().as('n'))
    .where('p.receiverId', '=', me)
    .executeTakeFirst();
  return { given, receivedPingsReacted: num(reacted?.n) };
}

/** Friendships of `me` accepted at or after `since`. */
export async function countFriendshipsAcceptedSince(
  db: Db,
  me: string,
  since: string,
): Promise<number> {
  return countRows(
    db
      .selectFrom('friendships')
      .where('status', '=', 'accepted')
      .where('acceptedAt', '>=', since)
      .where((eb) => involves(eb, 'requesterId', 'addresseeId', me)),
  );
}

// ---------- moments ----------

export type MomentRow = Selectable<MomentsTable>;

/** The person's moments, newest first. */
export async function listMoments(db: Db, me: string): Promise<MomentRow[]> {
  return db
    .selectFrom('moments')
    .selectAll()
    .where('userId', '=', me)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

// ---------- badge facts ----------

/** When `me` sent their n-th ping (1-based), or null. */
export async function nthSentPingAt(db: Db, me: string, n: number): Promise<string | null> {
  const r = await db
    .selectFrom('pings')
    .select('createdAt')
    .where('senderId', '=', me)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return r?.createdAt ?? null;
}

/**
 * `select min(column) as "at"` from `query` (its table and conditions; nothing selected yet): the
 * earliest time among the rows it finds, or null when there are none.
 */
async function earliest<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, object>,
  column: StringReference<DB, TB>,
): Promise<string | null> {
  const at = expressionBuilder<DB, TB>().fn.min(column).as('at');
  // As in countRows: Kysely cannot name the selection's type for a table it does not know yet.
  const r = (await query.select(at).executeTakeFirst()) as { at: string | null } | undefined;
  return r?.at ?? null;
}

export async function firstReactionAt(db: Db, me: string): Promise<string | null> {
  return earliest(db.selectFrom('reactions').where('userId', '=', me), 'createdAt');
}

/** When the first anchor `me` is part of was accepted, or null. */
export async function firstAcceptedAnchorAt(db: Db, me: string): Promise<string | null> {
  return earliest(
    db
      .selectFrom('anchors')
      .where('status', '=', 'accepted')
      .where((eb) => involves(eb, 'userId', 'friendId', me)),
    'respondedAt',
  );
}

/** When `me` gained their n-th current friend (by acceptance time), or null. */
export async function nthFriendAt(db: Db, me: string, n: number): Promise<string | null> {
  const r = await db
    .selectFrom('friendships')
    .select((eb) => eb.fn.coalesce('acceptedAt', 'createdAt').as('at'))
    .where('status', '=', 'accepted')
    .where((eb) => involves(eb, 'requesterId', 'addresseeId', me))
    .orderBy('at')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
  return r?.at ?? null;
}

/** Each UTC day on which `me` sent a ping, oldest first, with the first ping's time that day. */
export async function sentPingDays(
  db: Db,
  me: string,
): Promise<{ day: string; firstAt: string }[]> {
  return db
    .selectFrom('pings')
    .where('senderId', '=', me)
    .select((eb) => [dayOf(eb.ref('createdAt')).as('day'), eb.fn.min('createdAt').as('firstAt')])
    .groupBy((eb) => dayOf(eb.ref('createdAt')))
    .orderBy('day')
    .execute();
}

// ---------- ping packs ----------

export type PackRow = Selectable<PacksTable>;

/** Seeded packs and the person's own, each with whether the person installed it. */
export async function listPacks(
  db: Db,
  me: string,
  id?: string,
): Promise<(PackRow & { installed: number })[]> {
  let q = db
    .selectFrom('packs as p')
    .leftJoin('packInstalls as i', (j) => j.onRef('i.packId', '=', 'p.id').on('i.userId', '=', me))
    .selectAll('p')
    .select((eb) =>
      eb.case().when('i.userId', 'is not', null).then(1).else(0).end().as('installed'),
    )
    .where((eb) => eb.or([eb('p.ownerId', 'is', null), eb('p.ownerId', '=', me)]));
  if (id !== undefined) q = q.where('p.id', '=', id);
  return q
    .orderBy((eb) => eb.case().when('p.ownerId', 'is', null).then(0).else(1).end())
    .orderBy('p.createdAt')
    .orderBy('p.id')
    .execute();
}

/** Records the install; false when the person had already installed the pack. */
export async function recordPackInstall(
  db: Db,
  packId: string,
  me: string,
  at: string,
): Promise<boolean> {
  const r = await db
    .insertInto('packInstalls')
    .values({ packId, userId: me, createdAt: at })
    .onConflict((oc) => oc.columns(['packId', 'userId']).doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await db
    .updateTable('packs')
    .set((eb) => ({ installCount: eb('installCount', '+', 1) }))
    .where('id', '=', packId)
    .execute();
  return true;
}

/** Texts (lower-cased, trimmed) of the prompts the person already has: defaults and their own. */
export async function promptTextsOf(db: Db, me: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('prompts')
    .select('text')
    .where((eb) => eb.or([eb('ownerId', '=', me), eb('ownerId', 'is', null)]))
    .execute();
  return new Set(rows.map((r) => r.text.trim().toLowerCase()));
}

export async function nextPromptPosition(db: Db, me: string): Promise<number> {
  const r = await db
    .selectFrom('prompts')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('ownerId', '=', me)
    .executeTakeFirst();
  return r?.p === null || r?.p === undefined ? 0 : Number(r.p) + 1;
}

export async function insertPrompts(db: Db, rows: Selectable<PromptsTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('prompts').values(rows).execute();
}
