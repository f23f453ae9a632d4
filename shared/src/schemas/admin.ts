import { z } from 'zod';

export const AdminMetrics = z.object({
  totalUsers: z.number().int(),
  totalPings: z.number().int(),
  customPrompts: z.number().int(),
  totalFriendships: z.number().int(),
  activeUsersWeek: z.number().int(),
  newUsers: z.object({ today: z.number().int(), week: z.number().int(), month: z.number().int() }),
  pendingRequests: z.number().int(),
  pingsToday: z.number().int(),
  /** Total pings divided by total users (at least 1), rounded to 1 decimal. */
  averagePingsPerUser: z.number(),
  /**
   * The last 30 UTC days, oldest first, today last: sign-ups, pings sent, and active people
   * (who sent a ping, reacted or shared a mood that day).
   */
  daily: z.array(
    z.object({
      day: z.string(),
      signUps: z.number().int(),
      pings: z.number().int(),
      activePeople: z.number().int(),
    }),
  ),
  computedAt: z.string(),
});
export type AdminMetrics = z.infer<typeof AdminMetrics>;
