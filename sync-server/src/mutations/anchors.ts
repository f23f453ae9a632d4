/**
 * Anchors (spec sections 2 "Anchor dialog", 4, 5, 6 and 9; docs/api.md "Anchors"): at most 5
 * pending-or-accepted anchors per person; one per pair; asking a friend who already asked you
 * accepts their request instead. Every change records an 'anchor' change-log row for both.
 */
import { LIMITS, displayName, uuidv7, type Anchor } from '@pingme/shared';
import {
  activeAnchorsBetween,
  answerAnchor,
  countActiveAnchors,
  deleteAnchor,
  findAnchorRow,
  insertAnchor,
  loadAnchor,
} from '../db/anchors';
import { nowIso, type Db } from '../db/connection';
import { areFriends } from '../db/friendships';
import { isUniqueViolation } from '../db/unit-of-work';
import { findUserById } from '../db/users';
import { conflict, forbidden, notFound } from '../errors';
import type { HandlerTable } from './context';

export const ANCHOR_MESSAGES = {
  notFriends: 'You can only create anchors with friends.',
  limit: `You can have at most ${LIMITS.anchors} anchors`,
  friendLimit: (name: string) => `${name} already has ${LIMITS.anchors} anchors`,
  alreadyAsked: (name: string) => `You already asked ${name} for an anchor.`,
  alreadyAnchored: (name: string) => `You already have an anchor with ${name}.`,
  idTaken: 'This anchor id is already in use',
  notFound: 'Anchor request not found',
  onlyReceiver: 'Only the person who was asked can answer this anchor request',
  answered: 'This anchor request was already answered',
  useRespond: 'Answer this anchor request with accept or decline',
} as const;

async function mustLoad(trx: Db, viewerId: string, id: string): Promise<Anchor> {
  const a = await loadAnchor(trx, viewerId, id);
  if (!a) throw notFound(ANCHOR_MESSAGES.notFound);
  return a;
}

export const anchorMutations: HandlerTable<'anchor.create' | 'anchor.respond' | 'anchor.delete'> = {
  async 'anchor.create'({ trx, changes, me }, args) {
    if (args.id) {
      const existing = await findAnchorRow(trx, args.id);
      if (existing) {
        // A repeated create of the same anchor: the device made its id, so the same id is a replay.
        if (existing.userId !== me.id) throw conflict(ANCHOR_MESSAGES.idTaken);
        return {
          status: 200,
          body: { ...(await mustLoad(trx, me.id, existing.id)), autoAccepted: false },
        };
      }
    }
    if (args.friendId === me.id || !(await areFriends(trx, me.id, args.friendId)))
      throw forbidden(ANCHOR_MESSAGES.notFriends);
    const friend = await findUserById(trx, args.friendId);
    const name = displayName(friend);

    const between = await activeAnchorsBetween(trx, me.id, args.friendId);
    if (between.some((a) => a.status === 'accepted'))
      throw conflict(ANCHOR_MESSAGES.alreadyAnchored(name));
    if (between.some((a) => a.userId === me.id)) throw conflict(ANCHOR_MESSAGES.alreadyAsked(name));
    const theirs = between.find((a) => a.userId === args.friendId);
    if (theirs) {
      // They asked first: asking back accepts their request. Both already count it.
      await answerAnchor(trx, theirs.id, 'accepted', nowIso());
      await changes.record([me.id, args.friendId], 'anchor', theirs.id);
      // The caller's device shows its request under the id it proposed, which now never exists:
      // its pull gets a tombstone for it (docs/sync.md, Views).
      if (args.id && args.id !== theirs.id) {
        await changes.record([me.id], 'anchor', args.id, 'delete');
      }
      return {
        status: 200,
        body: { ...(await mustLoad(trx, me.id, theirs.id)), autoAccepted: true },
      };
    }

    const counts = await countActiveAnchors(trx, [me.id, args.friendId]);
    if ((counts.get(me.id) ?? 0) >= LIMITS.anchors) throw conflict(ANCHOR_MESSAGES.limit);
    if ((counts.get(args.friendId) ?? 0) >= LIMITS.anchors)
      throw conflict(ANCHOR_MESSAGES.friendLimit(name));

    const id = args.id ?? uuidv7();
    try {
      await insertAnchor(trx, {
        id,
        userId: me.id,
        friendId: args.friendId,
        label: args.label || null,
        text: args.text,
        emoji: args.emoji,
        color: args.color,
        status: 'pending',
        createdAt: nowIso(),
      });
    } catch (err) {
      // Another writer inserted for this pair first (index anchors_active_pair, migration 004).
      if (isUniqueViolation(err)) throw conflict(ANCHOR_MESSAGES.alreadyAsked(name));
      throw err;
    }
    await changes.record([me.id, args.friendId], 'anchor', id);
    const anchor = await mustLoad(trx, me.id, id);
    changes.anchorRequest(args.friendId, anchor);
    return { status: 201, body: { ...anchor, autoAccepted: false } };
  },

  async 'anchor.respond'({ trx, changes, me }, args) {
    const row = await findAnchorRow(trx, args.id);
    if (!row || (row.userId !== me.id && row.friendId !== me.id))
      throw notFound(ANCHOR_MESSAGES.notFound);
    if (row.friendId !== me.id) throw forbidden(ANCHOR_MESSAGES.onlyReceiver);
    if (row.status !== 'pending') throw conflict(ANCHOR_MESSAGES.answered);
    const accept = args.response === 'accept';
    if (accept && !(await areFriends(trx, me.id, row.userId)))
      throw forbidden(ANCHOR_MESSAGES.notFriends);
    if (!(await answerAnchor(trx, row.id, accept ? 'accepted' : 'declined', nowIso())))
      throw conflict(ANCHOR_MESSAGES.answered);
    await changes.record([row.userId, row.friendId], 'anchor', row.id);
    return { body: await mustLoad(trx, me.id, row.id) };
  },

  async 'anchor.delete'({ trx, changes, me }, { id }) {
    const row = await findAnchorRow(trx, id);
    // Either person may unpin an active anchor; anyone else gets the 404 of an unknown id.
    if (!row || (row.userId !== me.id && row.friendId !== me.id) || row.status === 'declined')
      throw notFound(ANCHOR_MESSAGES.notFound);
    // A request waiting for the friend is answered by them (anchor.respond), withdrawn by the asker.
    if (row.status === 'pending' && row.userId !== me.id)
      throw forbidden(ANCHOR_MESSAGES.useRespond);
    await deleteAnchor(trx, row.id);
    await changes.record([row.userId, row.friendId], 'anchor', row.id, 'delete');
    return { body: { success: true } };
  },
};
