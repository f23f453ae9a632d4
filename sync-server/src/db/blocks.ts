/**
 * Blocks (docs/security.md, "Blocking"): one row per (blocker, blocked). A block hides the two
 * people from each other whichever of them blocked, so most reads ask "either way".
 * Also the ties a block cuts between two people: anchors, prompt assignments and energy
 * snapshots (the friendship row itself is db/friendships.ts).
 */
import type { UserSummary } from '@pingme/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from './connection';
import { chunks } from './chunks';
import { compiledOnce } from './compiled';
import type { Database } from './schema';
import { linksAnyOf, linksBoth } from './two-people';

/** Either person has blocked the other. */
export async function isBlockedEitherWay(db: Db, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blockerId')
    .where((eb) => linksBoth(eb, 'blockerId', 'blockedId', a, b))
    .executeTakeFirst();
  return row !== undefined;
}

/** A pull, a reaction and a read mark ask it: compiled once per length of the list. */
const blocksAmongQuery = compiledOnce((db: Db, me: string, others: string[]) =>
  db
    .selectFrom('blocks')
    .select(['blockerId', 'blockedId', 'createdAt'])
    .where((eb) => linksAnyOf(eb, 'blockerId', 'blockedId', me, others)),
);

/**
 * The people among `others` with a block between them and `me` (either way), each with the time
 * the earliest block still in force began.
 */
export async function blocksWith(
  db: Db,
  me: string,
  others: readonly string[],
): Promise<Map<string, string>> {
  const since = new Map<string, string>();
  for (const part of chunks([...new Set(others)])) {
    const { rows } = await blocksAmongQuery(db, me, part);
    for (const r of rows) {
      const other = r.blockerId === me ? r.blockedId : r.blockerId;
      const known = since.get(other);
      if (known === undefined || r.createdAt < known) since.set(other, r.createdAt);
    }
  }
  return since;
}

/**
 * For a query over `users`: the row's person and `me` have a block between them, either way.
 * Search and suggestions leave such people out.
 */
export function blockedWith(eb: ExpressionBuilder<Database, 'users'>, me: string) {
  return eb.exists(
    eb
      .selectFrom('blocks')
      .select('blocks.blockerId')
      .where((b) =>
        b.or([
          b.and([b('blocks.blockerId', '=', me), b('blocks.blockedId', '=', b.ref('users.id'))]),
          b.and([b('blocks.blockedId', '=', me), b('blocks.blockerId', '=', b.ref('users.id'))]),
        ]),
      ),
  );
}

export async function findBlock(
  db: Db,
  blockerId: string,
  blockedId: string,
): Promise<{ createdAt: string } | undefined> {
  return db
    .selectFrom('blocks')
    .select('createdAt')
    .where('blockerId', '=', blockerId)
    .where('blockedId', '=', blockedId)
    .executeTakeFirst();
}

export async function insertBlock(
  db: Db,
  blockerId: string,
  blockedId: string,
  createdAt: string,
): Promise<void> {
  await db
    .insertInto('blocks')
    .values({ blockerId, blockedId, createdAt })
    .onConflict((oc) => oc.columns(['blockerId', 'blockedId']).doNothing())
    .execute();
}

/** True when there was a block to remove. */
export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('blocks')
    .where('blockerId', '=', blockerId)
    .where('blockedId', '=', blockedId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface BlockedRow {
  userId: string;
  createdAt: string;
  user: UserSummary;
}

/** The people `blockerId` has blocked, newest block first. */
export async function listBlocked(db: Db, blockerId: string): Promise<BlockedRow[]> {
  const rows = await db
    .selectFrom('blocks')
    .innerJoin('users', 'users.id', 'blocks.blockedId')
    .select([
      'blocks.blockedId',
      'blocks.createdAt',
      'users.firstName',
      'users.lastName',
      'users.profileImageUrl',
    ])
    .where('blocks.blockerId', '=', blockerId)
    .orderBy('blocks.createdAt', 'desc')
    .orderBy('blocks.blockedId')
    .execute();
  return rows.map((r) => ({
    userId: r.blockedId,
    createdAt: r.createdAt,
    user: {
      id: r.blockedId,
      firstName: r.firstName,
      lastName: r.lastName,
      profileImageUrl: r.profileImageUrl,
    },
  }));
}

// ---------- ties a block cuts ----------

/** Deletes every anchor between the two (any status, either asked); answers their ids. */
export async function deleteAnchorsBetween(db: Db, a: string, b: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('anchors')
    .where((eb) => linksBoth(eb, 'userId', 'friendId', a, b))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes the prompt assignments either made to the other; answers whose prompts changed. */
export async function deleteAssignmentsBetween(
  db: Db,
  a: string,
  b: string,
): Promise<{ ownerId: string; promptId: string }[]> {
  return db
    .deleteFrom('promptAssignments')
    .where((eb) => linksBoth(eb, 'ownerId', 'friendId', a, b))
    .returning(['ownerId', 'promptId'])
    .execute();
}

export async function deleteEnergySnapshotsBetween(db: Db, a: string, b: string): Promise<void> {
  await db
    .deleteFrom('energySnapshots')
    .where((eb) => linksBoth(eb, 'userId', 'friendId', a, b))
    .execute();
}
