/**
 * Friend requests and invite links (spec sections 2, 3 and 6; docs/api.md "Friends"). One
 * friendships row per pair: 'pending' while a request waits, 'accepted' once they are friends,
 * deleted when a request is declined or withdrawn so either may ask again later. Every change
 * records a 'friendship' change-log row for both people.
 */
import {
  INVITE_INVALID_MESSAGE,
  type FriendActionResponse,
  type FriendRequestResponse,
} from '@pingme/shared';
import { isBlockedEitherWay } from '../db/blocks';
import type { Db } from '../db/connection';
import {
  acceptFriendship,
  deleteFriendship,
  findFriendshipBetween,
  findFriendshipById,
  insertFriendship,
} from '../db/friendships';
import type { FriendshipRow } from '../db/schema';
import { findUserById, findUserByInviteCode, toSummary } from '../db/users';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { buckets, throttle } from '../services/rate-limits';
import { severTies } from '../services/safety';
import type { HandlerTable, MutationContext, MutationPreCheck, Outcome } from './context';

async function otherPerson(trx: Db, row: FriendshipRow, me: string) {
  const otherId = row.requesterId === me ? row.addresseeId : row.requesterId;
  const other = await findUserById(trx, otherId);
  if (!other) throw notFound('Friend request not found');
  return other;
}

/** The row behind a requestId, if the caller is one of its two people; 404 otherwise. */
async function requestOf(trx: Db, requestId: string, me: string): Promise<FriendshipRow> {
  const row = await findFriendshipById(trx, requestId);
  // A stranger learns nothing: the same 404 as an id that does not exist.
  if (!row || (row.requesterId !== me && row.addresseeId !== me)) {
    throw notFound('Friend request not found');
  }
  return row;
}

/**
 * A friend request. A request to someone who has already asked you accepts theirs. Private
 * profiles cannot be asked by id: 404, as if absent (they are found by invite link only).
 */
async function sendRequest(
  { trx, changes, me }: MutationContext,
  friendId: string,
): Promise<Outcome<FriendRequestResponse>> {
  if (friendId === me.id) throw badRequest('You cannot send a friend request to yourself');
  const other = await findUserById(trx, friendId);
  // A block either way: the same answer as for someone who does not exist (docs/security.md).
  if (!other || (await isBlockedEitherWay(trx, me.id, friendId))) throw notFound('User not found');
  const existing = await findFriendshipBetween(trx, me.id, friendId);
  if (existing?.status === 'accepted') throw conflict('You are already friends');
  if (existing?.status === 'pending') {
    if (existing.requesterId === me.id) throw conflict('Friend request already sent');
    await acceptFriendship(trx, existing.id);
    await changes.record([me.id, friendId], 'friendship', existing.id);
    return {
      status: 200,
      body: {
        requestId: existing.id,
        status: 'accepted',
        autoAccepted: true,
        friend: toSummary(other),
      },
    };
  }
  if (other.profileVisibility === 'private') throw notFound('User not found');
  const row = await insertFriendship(trx, {
    requesterId: me.id,
    addresseeId: friendId,
    status: 'pending',
  });
  await changes.record([me.id, friendId], 'friendship', row.id);
  return {
    status: 201,
    body: { requestId: row.id, status: 'pending', autoAccepted: false, friend: toSummary(other) },
  };
}

export const FRIEND_NOT_FOUND = 'Friend not found';

export const friendMutations: HandlerTable<
  | 'friend.request'
  | 'friend.add'
  | 'friend.accept'
  | 'friend.decline'
  | 'friend.remove'
  | 'invite.use'
> = {
  'friend.request': (c, args) => sendRequest(c, args.friendId),

  // Defined by the spec, unused by its screens: an alias of friend.request.
  'friend.add': (c, args) => sendRequest(c, args.friendId),

  async 'friend.accept'({ trx, changes, me }, { requestId }) {
    const row = await requestOf(trx, requestId, me.id);
    const friend = toSummary(await otherPerson(trx, row, me.id));
    const body: FriendActionResponse = { success: true, requestId, outcome: 'accepted', friend };
    // Already friends (a second device, a late retry): nothing left to do.
    if (row.status === 'accepted') return { body };
    if (row.addresseeId !== me.id) {
      throw forbidden('Only the person who received this request can accept it');
    }
    await acceptFriendship(trx, row.id);
    await changes.record([row.requesterId, row.addresseeId], 'friendship', row.id);
    return { body };
  },

  // The receiver declines; the sender may use the same call to withdraw their own request.
  async 'friend.decline'({ trx, changes, me }, { requestId }) {
    const row = await requestOf(trx, requestId, me.id);
    if (row.status === 'accepted') {
      throw conflict('This request was already accepted: you are friends');
    }
    const friend = toSummary(await otherPerson(trx, row, me.id));
    await deleteFriendship(trx, row.id);
    await changes.record([row.requesterId, row.addresseeId], 'friendship', row.id, 'delete');
    const outcome = row.addresseeId === me.id ? 'declined' : 'withdrawn';
    return { body: { success: true, requestId, outcome, friend } };
  },

  async 'friend.remove'({ trx, changes, me }, { friendId }) {
    const row = friendId === me.id ? undefined : await findFriendshipBetween(trx, me.id, friendId);
    // Only a friend can be unfriended; anyone else is as unknown as someone who does not exist.
    if (row?.status !== 'accepted') throw notFound(FRIEND_NOT_FOUND);
    await severTies(trx, changes, me.id, friendId);
    return { body: { success: true } };
  },

  async 'invite.use'({ trx, changes, me }, { code }) {
    const owner = await findUserByInviteCode(trx, code);
    if (!owner || (owner.id !== me.id && (await isBlockedEitherWay(trx, me.id, owner.id))))
      throw notFound(INVITE_INVALID_MESSAGE);
    if (owner.id === me.id) throw badRequest('This is your own invite link');
    const friend = toSummary(owner);
    const existing = await findFriendshipBetween(trx, me.id, owner.id);
    if (existing?.status === 'accepted') {
      return { body: { success: true, alreadyFriends: true, friend } };
    }
    // A pending request in either direction becomes the friendship; otherwise a new row, with
    // the code's owner as the one who asked.
    const row = existing
      ? await acceptFriendship(trx, existing.id)
      : await insertFriendship(trx, {
          requesterId: owner.id,
          addresseeId: me.id,
          status: 'accepted',
        });
    await changes.record([me.id, owner.id], 'friendship', row.id);
    return { body: { success: true, alreadyFriends: false, friend } };
  },
};

/** Every invite link tried counts, found or not, so codes cannot be guessed by trying them. */
export const inviteUseThrottle: MutationPreCheck<'invite.use'> = ({ trx, me, config }) =>
  throttle(
    trx,
    buckets.inviteUse(me.id),
    config.rateLimits.inviteUsePerUser,
    'Too many invite links tried',
  );
