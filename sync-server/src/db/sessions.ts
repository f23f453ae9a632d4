import type { Db } from './connection';
import { nowIso } from './connection';

export async function getSession(db: Db, id: string): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['data', 'expiresAt'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.expiresAt < Date.now()) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return undefined;
  }
  return JSON.parse(row.data) as Record<string, unknown>;
}

export async function setSession(
  db: Db,
  id: string,
  data: Record<string, unknown>,
  maxAgeMs: number,
) {
  const userId = typeof data.userId === 'string' ? data.userId : null;
  const expiresAt = Date.now() + maxAgeMs;
  await db
    .insertInto('sessions')
    .values({ id, userId, data: JSON.stringify(data), expiresAt, createdAt: nowIso() })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ userId, data: JSON.stringify(data), expiresAt }),
    )
    .execute();
}

export async function destroySession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of a person (password change, sign-out everywhere), optionally but one. */
export async function destroyUserSessions(db: Db, userId: string, exceptId?: string) {
  let q = db.deleteFrom('sessions').where('userId', '=', userId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

export async function deleteExpiredSessions(db: Db) {
  await db.deleteFrom('sessions').where('expiresAt', '<', Date.now()).execute();
}
