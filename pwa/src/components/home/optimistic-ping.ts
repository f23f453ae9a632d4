/**
 * The optimistic ping rows Home and the Library write before the server answers: exactly the
 * shape the pull delivers (shared Ping), marked pending. Pure: the id and the clock come in.
 */
import type { Ping, UserSummary } from '@pingme/shared';
import { PENDING_FIELD } from '../../sync/local-write';

export type PendingPing = Ping & { [PENDING_FIELD]: true };

export interface PingParties {
  id: string;
  me: UserSummary;
  friend: UserSummary;
  at: string;
}

const summary = (p: UserSummary): UserSummary => ({
  id: p.id,
  firstName: p.firstName,
  lastName: p.lastName,
  profileImageUrl: p.profileImageUrl,
});

function base({ id, me, friend, at }: PingParties) {
  return {
    id,
    senderId: me.id,
    receiverId: friend.id,
    sender: summary(me),
    receiver: summary(friend),
    anchorId: null,
    groupId: null,
    createdAt: at,
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    [PENDING_FIELD]: true as const,
  };
}

/** POST /api/pings {id, promptId, receiverId}. */
export function promptPingRow(
  parties: PingParties,
  prompt: { id: string; text: string; emoji: string },
): PendingPing {
  return {
    ...base(parties),
    kind: 'prompt',
    prompt: { id: prompt.id, text: prompt.text, emoji: prompt.emoji },
    customText: null,
    customEmoji: null,
  };
}

/** POST /api/pings/custom {id, receiverId, customText, customEmoji, anchorId}. */
export function anchorPingRow(
  parties: PingParties,
  anchor: { id: string; text: string; emoji: string },
): PendingPing {
  return {
    ...base(parties),
    kind: 'anchor',
    prompt: null,
    customText: anchor.text,
    customEmoji: anchor.emoji,
    anchorId: anchor.id,
  };
}
