/**
 * Logic that spans resources for blocking and account deletion (docs/security.md). Both run
 * inside the caller's `mutate` transaction and write the change-log rows that make every
 * affected device drop what it may no longer hold: a block's tombstones reach both people, a
 * deletion's reach everyone who could see something of the deleted person.
 */
import type { Entity } from '../db/changes';
import { deleteAccountRows, deletionAudience } from '../db/account';
import {
  deleteAnchorsBetween,
  deleteAssignmentsBetween,
  deleteEnergySnapshotsBetween,
} from '../db/blocks';
import { deleteFriendship, findFriendshipBetween } from '../db/friendships';
import type { UserRow } from '../db/schema';
import type { Db } from '../db/connection';
import type { ChangeSet } from '../db/unit-of-work';
import { personBuckets } from './rate-limits';

/**
 * Everything that linked the two people ends: the friendship (or a pending request either way),
 * every anchor between them (any status), the prompts each had assigned to the other, and the
 * energy snapshots of the pair. Each person's devices get tombstones for the friendship, the
 * anchors and the other's profile, and the prompts again without the assignment. Pings and
 * moods already exchanged stay with both (history; nothing new can arrive).
 */
export async function severTies(trx: Db, changes: ChangeSet, a: string, b: string): Promise<void> {
  const friendship = await findFriendshipBetween(trx, a, b);
  if (friendship) {
    await deleteFriendship(trx, friendship.id);
    await changes.record([a, b], 'friendship', friendship.id, 'delete');
  }
  for (const id of await deleteAnchorsBetween(trx, a, b)) {
    await changes.record([a, b], 'anchor', id, 'delete');
  }
  for (const { ownerId, promptId } of await deleteAssignmentsBetween(trx, a, b)) {
    await changes.record([ownerId], 'prompt', promptId);
  }
  await deleteEnergySnapshotsBetween(trx, a, b);
  // Neither may hold the other's profile any more (it is only ever a friend's).
  await changes.record([a], 'user', b, 'delete');
  await changes.record([b], 'user', a, 'delete');
}

/**
 * Deletes the account and everything it owns. Before the rows go, every other person who could
 * see something of it gets a tombstone for that record (pings, friendships and requests,
 * anchors, moods, their own moments on its pings, the person's profile) and their prompts again
 * without the assignment to the deleted person. The uploaded photo file is the caller's to delete
 * once this has committed.
 */
export async function deleteAccount(trx: Db, changes: ChangeSet, user: UserRow): Promise<void> {
  const audience = await deletionAudience(trx, user.id);
  const everyone = new Set<string>();
  const tombstones: [string, Entity, string][] = [];
  for (const [entity, held] of [
    ['friendship', audience.friendships],
    ['ping', audience.pings],
    ['anchor', audience.anchors],
    ['mood', audience.moods],
  ] as const) {
    for (const h of held) {
      tombstones.push([h.otherId, entity, h.id]);
      everyone.add(h.otherId);
    }
  }
  for (const m of audience.moments) tombstones.push([m.userId, 'moment', m.id]);
  for (const [otherId, entity, id] of tombstones) {
    await changes.record([otherId], entity, id, 'delete');
  }
  if (everyone.size) await changes.record(everyone, 'user', user.id, 'delete');
  for (const a of audience.assignments) await changes.record([a.ownerId], 'prompt', a.promptId);
  await deleteAccountRows(trx, user.id, personBuckets(user.id, user.email));
}
