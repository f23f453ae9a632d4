import { compiledOnce } from './compiled';
import type { Db } from './connection';
import { dialectOf } from './dialect';
import { nowIso } from './connection';
import type { UserRow } from './schema';
import { sessionCacheOf, type CachedSession, type SessionRow } from './session-cache';

/** How a session is judged when it is read (docs/security.md, "Sessions"). */
/** The session cookie's name: the HTTP layer sets it, the /ws upgrade reads it. */
export const SESSION_COOKIE = 'pingme.sid';

export interface SessionPolicy {
  /** A session not used for this long is dead (deleted on sight). */
  idleMs?: number;
  /** Record a use at most this often (one write an hour, not one per request). 0: never. */
  touchEveryMs?: number;
  now?: number;
}

/**
 * The session's data, or undefined when it does not exist, has passed its absolute expiry, or
 * has been idle longer than `policy.idleMs`. A dead session is deleted.
 */
export async function getSession(
  db: Db,
  id: string,
  policy: SessionPolicy = {},
): Promise<Record<string, unknown> | undefined> {
  return (await getSessionWithUser(db, id, policy))?.data;
}

/** A live session and the person its row names (undefined when that person no longer exists). */
export interface SessionWithUser {
  data: Record<string, unknown>;
  /** The row's `user_id`: null for a session nobody is signed in to. */
  userId: string | null;
  user: UserRow | undefined;
}

/**
 * Every signed-in request runs these: compiled once (db/compiled.ts). On SQLite two lookups by
 * primary key rather than one join: SQLite answers the join with every column of the person in
 * about seven times the time of the two lookups together (docs/performance.md, "Session
 * lookup"). On PostgreSQL each statement is a round trip, which costs more than the join: one
 * query there.
 */
const sessionQuery = compiledOnce((db: Db, id: string) =>
  db
    .selectFrom('sessions')
    .select(['data', 'expiresAt', 'lastSeenAt', 'userId'])
    .where('id', '=', id),
);
const userQuery = compiledOnce((db: Db, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id),
);
const sessionAndUserQuery = compiledOnce((db: Db, id: string) =>
  db
    .selectFrom('sessions as s')
    .leftJoin('users as u', 'u.id', 's.userId')
    .select([
      's.data as sessionData',
      's.expiresAt as sessionExpiresAt',
      's.lastSeenAt as sessionLastSeenAt',
      's.userId as sessionUserId',
    ])
    .selectAll('u')
    .where('s.id', '=', id),
);

/** The session row, and its person where the query brought it (PostgreSQL: the join). */
async function readSession(
  db: Db,
  id: string,
): Promise<{ session: SessionRow; user?: UserRow | undefined } | undefined> {
  if (dialectOf(db) === 'sqlite') {
    const [session] = (await sessionQuery(db, id)).rows;
    return session && { session };
  }
  const [row] = (await sessionAndUserQuery(db, id)).rows;
  if (!row) return undefined;
  const { sessionData, sessionExpiresAt, sessionLastSeenAt, sessionUserId, ...user } = row;
  const session = {
    data: sessionData,
    expiresAt: sessionExpiresAt,
    lastSeenAt: sessionLastSeenAt,
    userId: sessionUserId,
  };
  return { session, user: user.id === null ? undefined : (user as UserRow) };
}

/**
 * getSession and the person of the session (a signed-in request needs both): the same expiry
 * rules, the same deletion of a dead session and the same touch. On SQLite a session read before
 * and unchanged since comes from memory (session-cache.ts) while it is alive and needs no touch.
 */
export async function getSessionWithUser(
  db: Db,
  id: string,
  policy: SessionPolicy = {},
): Promise<SessionWithUser | undefined> {
  const now = policy.now ?? Date.now();
  const cache = sessionCacheOf(db);
  const cached = cache?.get(id);
  if (cached && judge(cached.session, policy, now) === 'alive') return answer(cached);
  const started = cache?.startRead();
  const found = await readSession(db, id);
  if (!found) return undefined;
  const { session } = found;
  const verdict = judge(session, policy, now);
  if (verdict === 'dead') {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return undefined;
  }
  if (verdict === 'touch') {
    await db.updateTable('sessions').set({ lastSeenAt: now }).where('id', '=', id).execute();
  }
  const [user] =
    session.userId === null
      ? []
      : 'user' in found
        ? [found.user]
        : (await userQuery(db, session.userId)).rows;
  const read = { session, user };
  // A touch has just changed the row: the next read keeps it (`started` is then out of date).
  if (cache && started !== undefined) cache.keep(started, id, read);
  return answer(read);
}

/** Whether a session row is alive under `policy`, dead, or alive with a use to record. */
function judge(
  session: SessionRow,
  policy: SessionPolicy,
  now: number,
): 'alive' | 'dead' | 'touch' {
  const lastSeen = session.lastSeenAt ?? now;
  if (session.expiresAt < now || (policy.idleMs !== undefined && lastSeen + policy.idleMs < now)) {
    return 'dead';
  }
  if (
    policy.touchEveryMs &&
    (session.lastSeenAt === null || now - lastSeen >= policy.touchEveryMs)
  ) {
    return 'touch';
  }
  return 'alive';
}

function answer({ session, user }: CachedSession): SessionWithUser {
  return {
    data: JSON.parse(session.data) as Record<string, unknown>,
    userId: session.userId,
    user,
  };
}

/**
 * Of the given session ids, those alive under `policy` (as getSession judges them) whose person
 * still exists, with that person's id; one query per chunk of ids (the ws heartbeat checks every
 * open socket's session at once). Dead ones among them are deleted, as getSession deletes them.
 * Nothing is touched: an open socket is not a use.
 */
export async function liveSessionUsers(
  db: Db,
  ids: string[],
  policy: { idleMs?: number; now?: number } = {},
): Promise<Map<string, string>> {
  const now = policy.now ?? Date.now();
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('sessions as s')
    .leftJoin('users as u', 'u.id', 's.userId')
    .select(['s.id', 's.expiresAt', 's.lastSeenAt', 's.data', 'u.id as userId'])
    .where('s.id', 'in', ids)
    .execute();
  const dead: string[] = [];
  for (const r of rows) {
    const lastSeen = r.lastSeenAt ?? now;
    if (r.expiresAt < now || (policy.idleMs !== undefined && lastSeen + policy.idleMs < now)) {
      dead.push(r.id);
      continue;
    }
    // The person named in the session's data (what getSession's callers read), if they exist.
    const data = JSON.parse(r.data) as Record<string, unknown>;
    if (r.userId !== null && data.userId === r.userId) out.set(r.id, r.userId);
  }
  if (dead.length) await db.deleteFrom('sessions').where('id', 'in', dead).execute();
  return out;
}

/** Stores a session that ends at `expiresAt` (ms); saving it counts as a use. */
export async function setSession(
  db: Db,
  id: string,
  data: Record<string, unknown>,
  expiresAt: number,
) {
  const userId = typeof data.userId === 'string' ? data.userId : null;
  const lastSeenAt = Date.now();
  await db
    .insertInto('sessions')
    .values({
      id,
      userId,
      data: JSON.stringify(data),
      expiresAt,
      createdAt: nowIso(),
      lastSeenAt,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ userId, data: JSON.stringify(data), expiresAt, lastSeenAt }),
    )
    .execute();
}

export async function destroySession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/**
 * Ends every session of a person (password change, sign-out everywhere), optionally but one;
 * answers how many ended.
 */
export async function destroyUserSessions(
  db: Db,
  userId: string,
  exceptId?: string,
): Promise<number> {
  let q = db.deleteFrom('sessions').where('userId', '=', userId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Deletes every session that getSession would judge dead: past its absolute expiry, or (with
 * `idleMs`) unused for longer than that. A session with no recorded use is judged by its expiry
 * alone, as getSession does. Answers how many rows went (housekeeping).
 */
export async function deleteExpiredSessions(
  db: Db,
  policy: { idleMs?: number; now?: number } = {},
): Promise<number> {
  const now = policy.now ?? Date.now();
  const idleMs = policy.idleMs;
  const r = await db
    .deleteFrom('sessions')
    .where((eb) =>
      idleMs === undefined
        ? eb('expiresAt', '<', now)
        : eb.or([eb('expiresAt', '<', now), eb('lastSeenAt', '<', now - idleMs)]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
