/**
 * Reactions on pings: one per person and ping (a new one replaces theirs). Only the sender and the
 * receiver of a ping can react to it or see its reactions (the callers check who may).
 */
import type { Reaction, ReactionListItem, ReactionType } from '@pingme/shared';
import type { OnConflictBuilder } from 'kysely';
import { compiledOnce } from './compiled';
import type { Db } from './connection';
import type { Database } from './schema';
import { involves } from './two-people';

/** A reaction's columns as its compiled inserts take them (here and in db/pings.ts). */
export type ReactionValues = [
  id: string,
  pingId: string,
  userId: string,
  reactionType: ReactionType,
  createdAt: string,
];

/** Compiled once: every reaction runs it. */
const replaceReactionQuery = compiledOnce(
  (db: Db, ...[id, pingId, userId, reactionType, createdAt]: ReactionValues) =>
    db
      .insertInto('reactions')
      .values({ id, pingId, userId, reactionType, createdAt })
      .onConflict(replacingTheirs),
);

/**
 * A reaction's insert made a replacement: the unique pair (ping, person) turns it into an update
 * of the person's row, which takes the new id, type and time (replaceReaction, and the
 * one-statement reaction of db/pings.ts).
 */
export function replacingTheirs(oc: OnConflictBuilder<Database, 'reactions'>) {
  return oc.columns(['pingId', 'userId']).doUpdateSet((eb) => ({
    id: eb.ref('excluded.id'),
    reactionType: eb.ref('excluded.reactionType'),
    createdAt: eb.ref('excluded.createdAt'),
  }));
}

/**
 * Sets a person's one reaction on a ping: a new row, replacing any earlier reaction of theirs
 * (the new one takes the given id and time). One statement: the unique pair (ping, person) turns
 * the insert into an update of the row that is there, also when another node's reaction of the
 * same person got there first. (On PostgreSQL the reaction mutation writes it in the statement
 * that reads the ping: findPingAsSeenAndReact, db/pings.ts.)
 */
export async function replaceReaction(db: Db, r: Reaction): Promise<void> {
  await replaceReactionQuery(db, r.id, r.pingId, r.userId, r.reactionType, r.createdAt);
}

/** Reactions (anyone's, the person's own included) on pings userId sent or received. */
export async function reactionsAround(
  db: Db,
  userId: string,
  limit: number,
): Promise<ReactionListItem[]> {
  const rows = await db
    .selectFrom('reactions as r')
    .innerJoin('pings as p', 'p.id', 'r.pingId')
    .innerJoin('users as u', 'u.id', 'r.userId')
    .select([
      'r.id',
      'r.pingId',
      'r.userId',
      'r.reactionType',
      'r.createdAt',
      'u.firstName',
      'u.lastName',
      'u.profileImageUrl',
    ])
    .where((eb) => involves(eb, 'p.senderId', 'p.receiverId', userId))
    .orderBy('r.createdAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ firstName, lastName, profileImageUrl, ...r }) => ({
    ...r,
    user: { id: r.userId, firstName, lastName, profileImageUrl },
  }));
}
