/**
 * Finding people: handle availability, profile counts, relations between two people, search
 * and friend suggestions. Written with Kysely's builder (plus small portable `sql` fragments
 * for lower(), LIKE ... ESCAPE and string concatenation, which SQLite and PostgreSQL share).
 */
import type { Relation } from '@pingme/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from './connection';
import { countRows } from './count';
import { blockedWith } from './blocks';
import type { Database, UserRow } from './schema';
import { involves, linksAnyOf } from './two-people';

/** The columns a search row or a suggestion needs. */
export type PersonRow = Pick<
  UserRow,
  'id' | 'firstName' | 'lastName' | 'profileImageUrl' | 'handle' | 'tagline'
>;
const PERSON_COLUMNS = [
  'users.id',
  'users.firstName',
  'users.lastName',
  'users.profileImageUrl',
  'users.handle',
  'users.tagline',
] as const;

/** Of the given handles, those somebody other than `exceptUserId` already holds. */
export async function takenHandles(
  db: Db,
  handles: string[],
  exceptUserId?: string,
): Promise<Set<string>> {
  if (handles.length === 0) return new Set();
  let q = db.selectFrom('users').select('handle').where('handle', 'in', handles);
  if (exceptUserId) q = q.where('id', '!=', exceptUserId);
  const rows = await q.execute();
  return new Set(rows.map((r) => r.handle).filter((h): h is string => h !== null));
}

export async function isHandleTaken(db: Db, handle: string, exceptUserId?: string) {
  return (await takenHandles(db, [handle], exceptUserId)).has(handle);
}

/** Pings the person has sent plus pings they have received. */
export async function countPings(db: Db, userId: string): Promise<number> {
  return countRows(
    db.selectFrom('pings').where((eb) => involves(eb, 'senderId', 'receiverId', userId)),
  );
}

export interface RelationInfo {
  relation: Relation;
  /** The friendship row's id when a request is pending between the two, else null. */
  requestId: string | null;
}

/** How `me` stands with each of `others` (one query). */
export async function relationsWith(
  db: Db,
  me: string,
  others: string[],
): Promise<Map<string, RelationInfo>> {
  const out = new Map<string, RelationInfo>();
  for (const id of others) {
    out.set(id, id === me ? { relation: 'self', requestId: null } : NONE);
  }
  const ids = others.filter((id) => id !== me);
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('friendships')
    .select(['id', 'requesterId', 'addresseeId', 'status'])
    .where((eb) => linksAnyOf(eb, 'requesterId', 'addresseeId', me, ids))
    .execute();
  for (const r of rows) {
    const other = r.requesterId === me ? r.addresseeId : r.requesterId;
    if (r.status === 'accepted') out.set(other, { relation: 'friends', requestId: null });
    else
      out.set(other, {
        relation: r.requesterId === me ? 'request_sent' : 'request_received',
        requestId: r.id,
      });
  }
  return out;
}
const NONE: RelationInfo = { relation: 'none', requestId: null };

export async function relationWith(db: Db, me: string, other: string): Promise<RelationInfo> {
  return (await relationsWith(db, me, [other])).get(other) ?? NONE;
}

/** `%`, `_` and the escape character itself lose their LIKE meaning. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type UsersEb = ExpressionBuilder<Database, 'users'>;

/** A friendship row between `me` and the row's user: accepted only, or any (pending too). */
function friendshipWith(eb: UsersEb, me: string, acceptedOnly: boolean) {
  let q = eb.selectFrom('friendships').select('friendships.id');
  if (acceptedOnly) q = q.where('friendships.status', '=', 'accepted');
  return eb.exists(
    q.where((f) =>
      f.or([
        f.and([
          f('friendships.requesterId', '=', me),
          f('friendships.addresseeId', '=', f.ref('users.id')),
        ]),
        f.and([
          f('friendships.addresseeId', '=', me),
          f('friendships.requesterId', '=', f.ref('users.id')),
        ]),
      ]),
    ),
  );
}

/** An accepted friendship exists between `me` and the row's user. */
const isFriendOf = (eb: UsersEb, me: string) => friendshipWith(eb, me, true);

/** Any friendship row, pending or accepted, between `me` and the row's user. */
const anyFriendshipWith = (eb: UsersEb, me: string) => friendshipWith(eb, me, false);

/**
 * People `me` may find with the text `q`: public profiles, plus `me`'s friends whatever their
 * visibility, never `me`, never anyone with a block between them and `me` (either way). A match is a case-insensitive substring of the first name, last name,
 * "first last" or handle (a leading @ is ignored for the handle), or the whole e-mail address
 * exactly (no e-mail enumeration by fragment). Exact matches rank first, then prefixes, then
 * other substrings; ties by name.
 */
export async function searchPeople(
  db: Db,
  me: string,
  q: string,
  limit: number,
): Promise<PersonRow[]> {
  const needle = q.trim().toLowerCase();
  const handleNeedle = needle.replace(/^@+/, '') || needle;
  const contains = `%${escapeLike(needle)}%`;
  const handleContains = `%${escapeLike(handleNeedle)}%`;
  const prefix = `${escapeLike(needle)}%`;
  const handlePrefix = `${escapeLike(handleNeedle)}%`;

  const first = sql<string>`lower(${sql.ref('users.firstName')})`;
  const last = sql<string>`lower(${sql.ref('users.lastName')})`;
  const handle = sql<string>`lower(${sql.ref('users.handle')})`;
  const full = sql<string>`lower(coalesce(${sql.ref('users.firstName')}, '') || ' ' || coalesce(${sql.ref('users.lastName')}, ''))`;
  const like = (col: typeof first, pattern: string) =>
    sql<boolean>`${col} like ${pattern} escape '\\'`;

  const rank = sql<number>`case
    when ${handle} = ${handleNeedle} or ${sql.ref('users.email')} = ${needle} then 0
    when ${first} = ${needle} or ${last} = ${needle} or ${full} = ${needle} then 1
    when ${like(first, prefix)} or ${like(last, prefix)} or ${like(full, prefix)} or ${like(handle, handlePrefix)} then 2
    else 3 end`;

  return db
    .selectFrom('users')
    .select(PERSON_COLUMNS)
    .where('users.id', '!=', me)
    .where((eb) => eb.or([eb('users.profileVisibility', '=', 'public'), isFriendOf(eb, me)]))
    .where((eb) => eb.not(blockedWith(eb, me)))
    .where((eb) =>
      eb.or([
        like(first, contains),
        like(last, contains),
        like(full, contains),
        like(handle, handleContains),
        eb('users.email', '=', needle),
      ]),
    )
    .orderBy(rank)
    .orderBy(first)
    .orderBy(last)
    .orderBy('users.id')
    .limit(limit)
    .execute();
}

export type SuggestionRow = PersonRow & { mutualFriends: number };

/**
 * Up to `limit` public people who are not `me`, have no friendship row (pending or
 * accepted) with `me` and no block with `me` either way: friends of friends first, by how many friends they share with `me`,
 * then the newest accounts.
 */
export async function suggestPeople(db: Db, me: string, limit: number): Promise<SuggestionRow[]> {
  const rows = await db
    .with('myFriends', (qb) =>
      qb
        .selectFrom('friendships')
        .select((eb) =>
          eb
            .case()
            .when('requesterId', '=', me)
            .then(eb.ref('addresseeId'))
            .else(eb.ref('requesterId'))
            .end()
            .as('friendId'),
        )
        .where('status', '=', 'accepted')
        .where((eb) => involves(eb, 'requesterId', 'addresseeId', me)),
    )
    .with('mutual', (qb) =>
      qb
        .selectFrom('friendships as f')
        .innerJoin('myFriends as m', (join) =>
          join.on((eb) =>
            eb.or([
              eb('f.requesterId', '=', eb.ref('m.friendId')),
              eb('f.addresseeId', '=', eb.ref('m.friendId')),
            ]),
          ),
        )
        .where('f.status', '=', 'accepted')
        .select((eb) => [
          eb
            .case()
            .when('f.requesterId', '=', eb.ref('m.friendId'))
            .then(eb.ref('f.addresseeId'))
            .else(eb.ref('f.requesterId'))
            .end()
            .as('personId'),
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy('personId'),
    )
    .selectFrom('users')
    .leftJoin('mutual', 'mutual.personId', 'users.id')
    .select(PERSON_COLUMNS)
    .select((eb) => eb.fn.coalesce('mutual.n', sql.lit(0)).as('mutualFriends'))
    .where('users.id', '!=', me)
    .where('users.profileVisibility', '=', 'public')
    .where((eb) => eb.not(anyFriendshipWith(eb, me)))
    .where((eb) => eb.not(blockedWith(eb, me)))
    .orderBy((eb) => eb.fn.coalesce('mutual.n', sql.lit(0)), 'desc')
    .orderBy('users.createdAt', 'desc')
    .orderBy('users.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, mutualFriends: Number(r.mutualFriends) }));
}
