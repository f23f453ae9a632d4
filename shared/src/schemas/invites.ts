import { z } from 'zod';

export const InviteCode = z
  .string()
  .trim()
  .min(1, 'Invite code must be present')
  .max(64, 'This invite link is missing or invalid.');
export const InviteParams = z.object({ code: InviteCode });
export type InviteParams = z.infer<typeof InviteParams>;

/** POST /api/invites/{code}/use takes no fields: an empty body or none. */
export const InviteUseBody = z.strictObject({});

export const INVITE_INVALID_MESSAGE = 'This invitation is no longer valid or has expired.';

export const InviteCheckResponse = z.union([
  z.object({
    valid: z.literal(true),
    user: z.object({
      id: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      profileImageUrl: z.string().nullable(),
    }),
    alreadyFriends: z.boolean(),
    /** The code is the caller's own: the screen can say so instead of offering to accept it. */
    isOwnInvite: z.boolean(),
  }),
  z.object({ valid: z.literal(false), user: z.null(), message: z.string() }),
]);
export type InviteCheckResponse = z.infer<typeof InviteCheckResponse>;

export const InviteUseResponse = z.object({
  success: z.literal(true),
  alreadyFriends: z.boolean(),
  friend: z.object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
  }),
});
export type InviteUseResponse = z.infer<typeof InviteUseResponse>;
