import { z } from 'zod';
import { Id, IsoDate } from './common';
import { UserSummary } from './users';

/** One item of GET /api/friends/pending: the other person plus the request. */
export const PendingRequest = UserSummary.extend({
  requestId: Id,
  friendshipId: Id,
  userId: Id,
  email: z.string().nullable(),
  tagline: z.string().nullable(),
  handle: z.string().nullable(),
  createdAt: IsoDate,
});
export type PendingRequest = z.infer<typeof PendingRequest>;

export const PendingResponse = z.object({
  sent: z.array(PendingRequest),
  received: z.array(PendingRequest),
});
export type PendingResponse = z.infer<typeof PendingResponse>;

export const FriendRequestBody = z.strictObject({ friendId: Id });
export type FriendRequestBody = z.infer<typeof FriendRequestBody>;
export const RequestIdBody = z.strictObject({ requestId: Id });
export type RequestIdBody = z.infer<typeof RequestIdBody>;
/** POST /api/friends: only status 'pending' (an alias of /api/friends/request). */
export const PostFriendsBody = FriendRequestBody.extend({
  status: z.literal('pending', {
    message: "Only status 'pending' is accepted: use /api/friends/request",
  }),
});
export type PostFriendsBody = z.infer<typeof PostFriendsBody>;

export const FRIEND_REQUEST_OUTCOMES = ['pending', 'accepted'] as const;
export const FriendRequestResponse = z.object({
  requestId: Id,
  status: z.enum(FRIEND_REQUEST_OUTCOMES),
  /** True when the other person had already asked: the request accepted both. */
  autoAccepted: z.boolean(),
  friend: UserSummary,
});
export type FriendRequestResponse = z.infer<typeof FriendRequestResponse>;

/**
 * What /api/friends/accept and /api/friends/reject did: 'accepted' (also when it already was),
 * 'declined' (the receiver said no) or 'withdrawn' (the sender took their request back).
 */
export const FRIEND_ACTION_OUTCOMES = ['accepted', 'declined', 'withdrawn'] as const;
export const FriendActionResponse = z.object({
  success: z.literal(true),
  requestId: Id,
  outcome: z.enum(FRIEND_ACTION_OUTCOMES),
  friend: UserSummary,
});
export type FriendActionResponse = z.infer<typeof FriendActionResponse>;

export const FriendStats = z.object({
  totalPings: z.number().int(),
  totalReactions: z.number().int(),
  daysConnected: z.number().int(),
});
export type FriendStats = z.infer<typeof FriendStats>;

export const FriendIdParams = z.object({ friendId: Id });
export type FriendIdParams = z.infer<typeof FriendIdParams>;
