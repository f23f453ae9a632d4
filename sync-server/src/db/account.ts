/**
 * Deleting an account (DELETE /api/account; docs/security.md "Account deletion"). First, while
 * the rows still exist, who else holds something of the person's (so their devices get
 * tombstones); then the deletion itself. Every table that names a person by a foreign key
 * cascades from `users` (migrations 001-005); the rest is deleted here by hand: the person's own
 * change-log rows, idempotency records, and rate-limit buckets.
 */
import { sql } from 'kysely';
import type { Db } from './connection';
import { involves, PARTY_COLUMNS, type TwoPersonTable } from './two-people';

export interface Held {
  id: string;
  /** The other person, who holds the record on their devices. */
  otherId: string;
}

export interface DeletionAudience {
  friendships: Held[];
  pings: Held[];
  anchors: Held[];
  moods: Held[];
  /** Other people's moments (bookmarks) on pings with the person: they go with the pings. */
  moments: { id: string; userId: string }[];
  /** Other people's prompts assigned to the person: the prompt stays, the assignment goes. */
  assignments: { ownerId: string; promptId: string }[];
}

export async function deletionAudience(db: Db, userId: string): Promise<DeletionAudience> {
  const friendships = await heldWith(db, 'friendships', userId);
  // A ping to oneself has nobody else to tell.
  const pings = (await heldWith(db, 'pings', userId)).filter((p) => p.otherId !== userId);
  const anchors = await heldWith(db, 'anchors', userId);
  const moods = await heldWith(db, 'moods', userId);
  const moments = await db
    .selectFrom('moments')
    .innerJoin('pings', 'pings.id', 'moments.pingId')
    .select(['moments.id', 'moments.userId'])
    .where('moments.userId', '!=', userId)
    .where((eb) => involves(eb, 'pings.senderId', 'pings.receiverId', userId))
    .execute();
  const assignments = await db
    .selectFrom('promptAssignments')
    .select(['ownerId', 'promptId'])
    .where('friendId', '=', userId)
    .where('ownerId', '!=', userId)
    .execute();
  return { friendships, pings, anchors, moods, moments, assignments };
}

/** The rows of `table` that userId is part of, each with the other person. */
async function heldWith(db: Db, table: TwoPersonTable, userId: string): Promise<Held[]> {
  const [one, two] = PARTY_COLUMNS[table];
  const rows = await db
    .selectFrom(table)
    .select(['id', one, two])
    .where((eb) => involves(eb, one, two, userId))
    .execute();
  return rows.map((r) => ({ id: r.id, otherId: r[one] === userId ? r[two] : r[one] }));
}

/**
 * Deletes the person and everything that is theirs or about them. Call after the tombstones for
 * other people have been recorded (they are other people's change-log rows and stay).
 */
export async function deleteAccountRows(
  db: Db,
  userId: string,
  rateLimitBuckets: { exact: string[]; prefixes: string[] },
): Promise<void> {
  // No foreign key on these: the person's own change log, their idempotency records (and the
  // record of their sign-up, stored before they had a session, whose answer names them).
  await db.deleteFrom('changes').where('userId', '=', userId).execute();
  await db.deleteFrom('changeCounters').where('userId', '=', userId).execute();
  await db.deleteFrom('idempotencyKeys').where('caller', '=', userId).execute();
  await db
    .deleteFrom('idempotencyKeys')
    .where('caller', '=', 'anonymous')
    .where('body', 'like', `%"id":"${userId}"%`)
    .execute();
  if (rateLimitBuckets.exact.length) {
    await db.deleteFrom('rateLimits').where('bucket', 'in', rateLimitBuckets.exact).execute();
  }
  // Buckets that name the person and something else (an address, a device), by their start.
  for (const prefix of rateLimitBuckets.prefixes) {
    await db
      .deleteFrom('rateLimits')
      .where(sql<string>`substr(bucket, 1, ${prefix.length})`, '=', prefix)
      .execute();
  }
  // An admin's id on the reports they resolved is not theirs to keep.
  await db
    .updateTable('reports')
    .set({ resolvedBy: null })
    .where('resolvedBy', '=', userId)
    .execute();
  // Sessions, tokens, friendships, prompts and assignments, pings (with their reactions and
  // moments), reactions, anchors, moods, moments, packs and installs, push subscriptions,
  // energy snapshots, blocks and reports: ON DELETE CASCADE.
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
