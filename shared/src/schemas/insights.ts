import { z } from 'zod';
import { Id, IsoDate } from './common';
import { UserSummary } from './users';

const PromptRef = z.object({ emoji: z.string(), text: z.string() });

export const FriendshipInsights = z.object({
  friendId: Id,
  friendshipStrength: z.number().int().min(1).max(5),
  pingsSentToFriend: z.number().int(),
  pingsReceivedFromFriend: z.number().int(),
  totalPingsExchanged: z.number().int(),
  lastInteraction: IsoDate.nullable(),
  favoritePrompts: z.array(z.object({ prompt: PromptRef, count: z.number().int() })),
  interactionHistory: z.array(z.object({ date: z.string(), pingsExchanged: z.number().int() })),
  computedAt: IsoDate,
});
export type FriendshipInsights = z.infer<typeof FriendshipInsights>;

export const PingAnalytics = z.object({
  totalPingsSent: z.number().int(),
  pingsSentThisWeek: z.number().int(),
  totalPingsReceived: z.number().int(),
  pingsReceivedThisWeek: z.number().int(),
  totalReactions: z.number().int(),
  responseRate: z.number().int(),
  mostUsedPrompts: z.array(z.object({ prompt: PromptRef, count: z.number().int() })),
  computedAt: IsoDate,
});
export type PingAnalytics = z.infer<typeof PingAnalytics>;

export const ProfileMetrics = z.object({
  pingsSent: z.number().int(),
  pingsReceived: z.number().int(),
  topThemes: z.array(z.string()),
  newConnections: z.number().int(),
});
export type ProfileMetrics = z.infer<typeof ProfileMetrics>;

export const Badge = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  earnedAt: IsoDate,
});
export type Badge = z.infer<typeof Badge>;

export const Moment = z.object({
  id: Id,
  pingId: Id,
  title: z.string(),
  description: z.string().nullable(),
  createdAt: IsoDate,
});
export type Moment = z.infer<typeof Moment>;

export const Collection = z.object({
  id: Id,
  title: z.string(),
  description: z.string().nullable(),
  installCount: z.number().int(),
  tags: z.array(z.string()),
  prompts: z.array(PromptRef),
  isOwn: z.boolean(),
  installed: z.boolean(),
});
export type Collection = z.infer<typeof Collection>;

export const ENERGY_LEVELS = ['High', 'Medium', 'Low-Medium', 'Low'] as const;
export type EnergyLevel = (typeof ENERGY_LEVELS)[number];

export const EnergyMetrics = z.object({
  /** Pings exchanged (both ways) in the last 7 days. */
  pingFrequency: z.number().int(),
  /** Percent of received pings in the window that got a reaction from the person. */
  responseRate: z.number().int(),
  moodSharingCount: z.number().int(),
  streakDays: z.number().int(),
});
export type EnergyMetrics = z.infer<typeof EnergyMetrics>;

export const EnergyEntry = z.object({
  friendId: Id,
  friend: UserSummary,
  energyScore: z.number().int().min(0).max(100),
  energyLevel: z.enum(ENERGY_LEVELS),
  metrics: EnergyMetrics,
  tips: z.array(z.string()),
  computedAt: IsoDate,
});
export type EnergyEntry = z.infer<typeof EnergyEntry>;
