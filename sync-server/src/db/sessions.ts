import type { Db } from './connection';
import { nowIso } from './connection';

/** How a session is judged when it is read (docs/security.md, "Sessions"). */
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
  const now = policy.now ?? Date.now();
  const row = await db
    .selectFrom('sessions')
    .select(['data', 'expiresAt', 'lastSeenAt'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastSeen = row.lastSeenAt ?? now;
  if (row.expiresAt < now || (policy.idleMs !== undefined && lastSeen + policy.idleMs < now)) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return undefined;
  }
  if (policy.touchEveryMs && (row.lastSeenAt === null || now - lastSeen >= policy.touchEveryMs)) {
    await db.updateTable('sessions').set({ lastSeenAt: now }).where('id', '=', id).execute();
  }
  return JSON.parse(row.data) as Record<string, unknown>;
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

export async function deleteExpiredSessions(db: Db) {
  await db.deleteFrom('sessions').where('expiresAt', '<', Date.now()).execute();
}
