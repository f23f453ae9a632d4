/**
 * The rows a write shows at once, before the server answers (ARCHITECTURE.md: optimistic rows
 * marked `pending`). Each has exactly the shape the pull delivers for that entity, so the screens
 * read one kind of row whatever its origin. Pure: ids and the clock come in.
 */
import {
  DEFAULT_PROMPT_EMOJI,
  DEFAULT_SURPRISE_EMOJI,
  type Anchor,
  type MoodName,
  type Ping,
  type SyncFriendship,
  type UserSummary,
} from '@pingme/shared';
import { PENDING_FIELD } from '../../sync/local-write';

export type Pending<T> = T & { [PENDING_FIELD]: true };

/** Just the summary fields, so a whole profile does not travel inside a ping. */
export function summaryOf(p: UserSummary): UserSummary {
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    profileImageUrl: p.profileImageUrl,
  };
}

export function acceptedFriendship(request: SyncFriendship, at: string): Pending<SyncFriendship> {
  return { ...request, status: 'accepted', acceptedAt: at, [PENDING_FIELD]: true };
}

export function answeredAnchor(
  anchor: Anchor,
  response: 'accept' | 'decline',
  at: string,
): Pending<Anchor> {
  return {
    ...anchor,
    status: response === 'accept' ? 'accepted' : 'declined',
    respondedAt: at,
    [PENDING_FIELD]: true,
  };
}

export interface OptimisticPing {
  id: string;
  me: UserSummary;
  friend: UserSummary;
  at: string;
}

function basePing({ id, me, friend, at }: OptimisticPing) {
  return {
    id,
    senderId: me.id,
    receiverId: friend.id,
    sender: summaryOf(me),
    receiver: summaryOf(friend),
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

export function promptPing(
  o: OptimisticPing,
  prompt: { id: string; text: string; emoji: string },
): Pending<Ping> {
  return {
    ...basePing(o),
    kind: 'prompt',
    prompt: { id: prompt.id, text: prompt.text, emoji: prompt.emoji || DEFAULT_PROMPT_EMOJI },
    customText: null,
    customEmoji: null,
  };
}

/** A custom ping, or a surprise (whose emoji defaults to 💫 as on the server). */
export function customPing(
  o: OptimisticPing,
  text: string,
  emoji: string | undefined,
  surprise = false,
): Pending<Ping> {
  return {
    ...basePing(o),
    kind: surprise ? 'surprise' : 'custom',
    prompt: null,
    customText: text,
    customEmoji: emoji || (surprise ? DEFAULT_SURPRISE_EMOJI : DEFAULT_PROMPT_EMOJI),
  };
}

export function sharedMood(o: {
  id: string;
  meId: string;
  friendId: string;
  mood: MoodName;
  emoji: string;
  note: string | null;
  at: string;
}) {
  return {
    id: o.id,
    userId: o.meId,
    friendId: o.friendId,
    mood: o.mood,
    emoji: o.emoji,
    note: o.note,
    createdAt: o.at,
    [PENDING_FIELD]: true as const,
  };
}
