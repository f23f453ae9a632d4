/**
 * Web Push jobs (migration 009): written in the transaction of the write that causes them, then
 * claimed for a while (`claimed_until`, ms) by the node that sends them, and deleted once sent.
 * A claim is an UPDATE of an unclaimed row: on PostgreSQL two nodes never both get one (the
 * orphan sweep locks its rows with FOR UPDATE SKIP LOCKED and passes over those another node is
 * claiming), so each push goes out once; a job whose node died before sending it is taken over
 * when it is a few seconds old, or when its claim ran out.
 */
import type { Db } from './connection';
import { isPostgres } from './dialect';

export interface PushJobRow {
  id: string;
  receiverId: string;
  job: string;
}

export async function insertPushJobs(
  db: Db,
  rows: { id: string; receiverId: string; job: string; createdAt: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('pushJobs')
    .values(rows.map((r) => ({ ...r, claimedUntil: 0 })))
    .execute();
}

/** Claims these jobs until `until` (ms), those nobody has claimed yet: the ones claimed now. */
export async function claimPushJobs(db: Db, ids: string[], until: number): Promise<PushJobRow[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('pushJobs')
    .set({ claimedUntil: until })
    .where('id', 'in', ids)
    .where('claimedUntil', '=', 0)
    .returning(['id', 'receiverId', 'job'])
    .execute();
}

/**
 * Claims up to `limit` jobs whose node did not send them: unclaimed and created before
 * `unclaimedBefore`, or claimed until a time already past.
 */
export async function claimOrphanPushJobs(
  db: Db,
  now: number,
  unclaimedBefore: number,
  until: number,
  limit: number,
): Promise<PushJobRow[]> {
  let orphans = db
    .selectFrom('pushJobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('claimedUntil', '=', 0), eb('createdAt', '<', unclaimedBefore)]),
        eb.and([eb('claimedUntil', '>', 0), eb('claimedUntil', '<', now)]),
      ]),
    )
    .orderBy('createdAt')
    .limit(limit);
  if (isPostgres(db)) orphans = orphans.forUpdate().skipLocked();
  return db
    .updateTable('pushJobs')
    .set({ claimedUntil: until })
    .where('id', 'in', orphans)
    .returning(['id', 'receiverId', 'job'])
    .execute();
}

/** Gives claimed jobs back (a node stopping before it sent them). */
export async function releasePushJobs(db: Db, ids: string[]): Promise<void> {
  if (ids.length)
    await db.updateTable('pushJobs').set({ claimedUntil: 0 }).where('id', 'in', ids).execute();
}

export async function deletePushJob(db: Db, id: string): Promise<void> {
  await db.deleteFrom('pushJobs').where('id', '=', id).execute();
}

/** Jobs created before `before` (ms) are no longer worth a push: deleted, how many. */
export async function deleteStalePushJobs(db: Db, before: number): Promise<number> {
  const r = await db.deleteFrom('pushJobs').where('createdAt', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
