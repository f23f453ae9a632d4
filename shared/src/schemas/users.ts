import { z } from 'zod';
import { LIMITS, PROFILE_VISIBILITIES } from '../constants';
import { Id, IsoDate } from './common';

/** What anyone signed in may see of a person: name, avatar and counts. */
export const UserSummary = z.object({
  id: Id,
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type UserSummary = z.infer<typeof UserSummary>;

/** What the person themself and their friends see. */
export const UserProfileFields = UserSummary.extend({
  email: z.string().nullable(),
  tagline: z.string().nullable(),
  handle: z.string().nullable(),
  bio: z.string().nullable(),
  status: z.string().nullable(),
  location: z.string().nullable(),
  personalLink: z.string().nullable(),
  profileVisibility: z.enum(PROFILE_VISIBILITIES),
  createdAt: IsoDate,
});
export type UserProfileFields = z.infer<typeof UserProfileFields>;

/** GET /api/user: the signed-in person's own record. */
export const SelfUser = UserProfileFields.extend({
  onboardingCompleted: z.boolean(),
  onboardingStep: z.number().int().nullable(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
  rateLimitPerDay: z.number().int(),
  quietHoursStart: z.string().nullable(),
  quietHoursEnd: z.string().nullable(),
  inviteCode: z.string(),
});
export type SelfUser = z.infer<typeof SelfUser>;

/** A friend as listed by GET /api/friends and GET /api/friends/{id}. */
export const FriendUser = UserProfileFields.extend({
  friendshipId: Id,
  friendsSince: IsoDate,
});
export type FriendUser = z.infer<typeof FriendUser>;

export const RELATIONS = ['self', 'friends', 'request_sent', 'request_received', 'none'] as const;
export const Relation = z.enum(RELATIONS);
export type Relation = z.infer<typeof Relation>;

/** The counts every profile shows, full or not. */
const profileCounts = { friendsCount: z.number().int(), pingsCount: z.number().int() };

/** GET /api/users/{id}/profile. Full fields only for self and friends (`full: true`). */
export const ProfileResponse = z.union([
  UserProfileFields.extend({
    full: z.literal(true),
    isAdmin: z.boolean(),
    areFriends: z.boolean(),
    relation: Relation,
    ...profileCounts,
  }),
  UserSummary.extend({
    full: z.literal(false),
    areFriends: z.literal(false),
    relation: Relation,
    requestId: Id.nullable(),
    ...profileCounts,
  }),
]);
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/** One row of GET /api/users/search and GET /api/users/suggestions. */
export const UserSearchResult = UserSummary.extend({
  handle: z.string().nullable(),
  tagline: z.string().nullable(),
  relation: Relation,
  requestId: Id.nullable(),
});
export type UserSearchResult = z.infer<typeof UserSearchResult>;

export const UserSearchResults = z.array(UserSearchResult);
export type UserSearchResults = z.infer<typeof UserSearchResults>;

/** One row of GET /api/users/suggestions: a search row plus how many friends you share. */
export const SuggestionResult = UserSearchResult.extend({
  mutualFriends: z.number().int(),
});
export type SuggestionResult = z.infer<typeof SuggestionResult>;
export const SuggestionResults = z.array(SuggestionResult);

export const SearchQuery = z.object({
  q: z
    .string({ message: `Type at least ${LIMITS.searchMinChars} characters to search` })
    .trim()
    .min(LIMITS.searchMinChars, `Type at least ${LIMITS.searchMinChars} characters to search`)
    .max(LIMITS.searchMaxChars, `Search text must be at most ${LIMITS.searchMaxChars} characters`),
});
