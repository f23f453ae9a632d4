/**
 * Friend requests (spec sections 2 and 4) and unfriending. Answering or withdrawing a request
 * and unfriending go through the outbox with the rows they change; asking someone is sent at
 * once (sendNow): the server makes the request's id, so a pending row could not be matched with
 * the one the pull brings. Success toasts are the screens' (they depend on the screen).
 */
import type { SyncFriendship } from '@pingme/shared';
import { localWrite, PENDING_FIELD } from '../sync/local-write';
import { syncEngine } from '../sync/engine';
import { db } from '../db';
import { sendNow } from './send-now';
import type { Pending } from './pending';

/** THE pending row of an accepted request. */
export function acceptedFriendship(request: SyncFriendship, at: string): Pending<SyncFriendship> {
  return { ...request, status: 'accepted', acceptedAt: at, [PENDING_FIELD]: true };
}

export async function acceptFriendRequest(request: SyncFriendship): Promise<void> {
  await localWrite({
    mutation: 'friend.accept',
    args: { requestId: request.id },
    effects: [
      {
        table: 'friendships',
        key: request.id,
        after: acceptedFriendship(request, new Date().toISOString()),
      },
    ],
    errorToast: { description: 'Failed to accept friend request' },
  });
}

/** A request not yet answered leaves both sides: friend.decline, from the receiver or the sender. */
async function dropFriendRequest(request: SyncFriendship, failed: string): Promise<void> {
  await localWrite({
    mutation: 'friend.decline',
    args: { requestId: request.id },
    effects: [{ table: 'friendships', key: request.id, after: null }],
    errorToast: { description: failed },
  });
}

export function declineFriendRequest(request: SyncFriendship): Promise<void> {
  return dropFriendRequest(request, 'Failed to decline friend request');
}

/** The sender takes back a request not yet answered. */
export function withdrawFriendRequest(request: SyncFriendship): Promise<void> {
  return dropFriendRequest(request, 'Failed to withdraw friend request');
}

/**
 * Unfriend: the friendship and the friend's row leave this device at once; the server ends their
 * anchors and assignments too, and the pull after the answer brings those changes. Pings stay.
 */
export async function removeFriend(friendId: string): Promise<void> {
  const friendships = await db.friendships.where('otherUserId').equals(friendId).primaryKeys();
  await localWrite({
    mutation: 'friend.remove',
    args: { friendId },
    effects: [
      ...friendships.map((key) => ({
        table: 'friendships' as const,
        key: String(key),
        after: null,
      })),
      { table: 'users', key: friendId, after: null },
    ],
    errorToast: { description: 'Failed to remove friend. Please try again.' },
  });
}

/**
 * Asks someone to be friends, online; a pull follows at once so the request shows under 'Sent
 * Requests' without waiting for the poke. Answers whether it was accepted at once (they had
 * asked first).
 */
export async function sendFriendRequest(friendId: string) {
  const answer = await sendNow('friend.request', { friendId });
  void syncEngine()
    .pull('poke')
    .catch(() => {});
  return answer;
}

/** Uses an invite link (POST /api/invites/{code}/use), online. */
export function redeemInvite(code: string) {
  return sendNow('invite.use', { code });
}
