/**
 * Analytics, friendship insights and the profile's Overview, Moments, Badges and Packs tabs
 * (spec sections 2 "Analytics and energy" and "Profile", 3 and 9; docs/api.md "Insights").
 * Windows, thresholds and the badge catalogue are described in docs/decisions.md.
 */
import type Router from '@koa/router';
import {
  LIMITS,
  utcDay,
  type Badge,
  type Collection,
  type FriendshipInsights,
  type Moment,
  type PingAnalytics,
  type ProfileMetrics,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import {
  countFriendshipsAcceptedSince,
  listMoments,
  listPacks,
  pairCounts,
  pairDailyCounts,
  pingTotals,
  reactionTotals,
  topPromptsBetween,
  topPromptsSentBy,
  type PackRow,
} from '../db/insights';
import { currentUser, requireUser } from '../middleware/auth';
import { aboutFriend } from './friends';
import { earnedBadges } from '../services/badges';

const DAY_MS = 86_400_000;
const WEEK_DAYS = 7;
const NEW_CONNECTION_DAYS = 30;

/**
 * Friendship strength from the pings exchanged in the insights window (30 days): the lower bound
 * of each level. 0-2 → 1, 3-9 → 2, 10-24 → 3, 25-49 → 4, 50 or more → 5.
 */
export const STRENGTH_THRESHOLDS = [
  [5, 50],
  [4, 25],
  [3, 10],
  [2, 3],
] as const;

export function friendshipStrength(exchanged: number): number {
  for (const [level, min] of STRENGTH_THRESHOLDS) if (exchanged >= min) return level;
  return 1;
}

/** The last `days` UTC days ending today, oldest first ('YYYY-MM-DD'). */
export function lastDays(now: number, days: number): string[] {
  return Array.from({ length: days }, (_, i) => utcDay(now - (days - 1 - i) * DAY_MS));
}

const ago = (now: number, days: number) => new Date(now - days * DAY_MS).toISOString();

function parseJsonArray<T>(text: string, keep: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(keep) : [];
  } catch {
    return [];
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isPromptRef = (v: unknown): v is { text: string; emoji: string } =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { text?: unknown }).text === 'string' &&
  typeof (v as { emoji?: unknown }).emoji === 'string';

export function toCollection(p: PackRow & { installed: number }, me: string): Collection {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    installCount: p.installCount,
    tags: parseJsonArray(p.tags, isString),
    prompts: parseJsonArray(p.prompts, isPromptRef),
    isOwn: p.ownerId === me,
    installed: p.installed === 1,
  };
}

export function insightRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get(
    '/api/analytics/friendship/:friendId',
    signedIn,
    aboutFriend(db, async (ctx, { me, friendId }) => {
      const now = Date.now();
      const days = lastDays(now, LIMITS.insightsWindowDays);
      // The window starts at midnight (UTC) of its first day, so the history sums to the total.
      const since = `${days[0]}T00:00:00.000Z`;
      const [counts, daily, favorites] = await Promise.all([
        pairCounts(db, me, friendId, since),
        pairDailyCounts(db, me, friendId, since),
        topPromptsBetween(db, me, friendId, since, LIMITS.topPrompts),
      ]);
      const total = counts.sent + counts.received;
      ctx.body = {
        friendId,
        friendshipStrength: friendshipStrength(total),
        pingsSentToFriend: counts.sent,
        pingsReceivedFromFriend: counts.received,
        totalPingsExchanged: total,
        lastInteraction: counts.lastAt,
        favoritePrompts: favorites,
        interactionHistory: days.map((date) => ({ date, pingsExchanged: daily.get(date) ?? 0 })),
        computedAt: new Date(now).toISOString(),
      } satisfies FriendshipInsights;
    }),
  );

  router.get('/api/analytics/pings', signedIn, async (ctx) => {
    const me = currentUser(ctx).id;
    const now = Date.now();
    const [totals, reactions, top] = await Promise.all([
      pingTotals(db, me, ago(now, WEEK_DAYS)),
      reactionTotals(db, me),
      topPromptsSentBy(db, me, undefined, LIMITS.topPrompts),
    ]);
    ctx.body = {
      totalPingsSent: totals.totalSent,
      pingsSentThisWeek: totals.sentSince,
      totalPingsReceived: totals.totalReceived,
      pingsReceivedThisWeek: totals.receivedSince,
      totalReactions: reactions.given,
      responseRate: totals.totalReceived
        ? Math.round((100 * reactions.receivedPingsReacted) / totals.totalReceived)
        : 0,
      mostUsedPrompts: top,
      computedAt: new Date(now).toISOString(),
    } satisfies PingAnalytics;
  });

  router.get('/api/profile/metrics', signedIn, async (ctx) => {
    const me = currentUser(ctx).id;
    const now = Date.now();
    const week = ago(now, WEEK_DAYS);
    const [totals, themes, newConnections] = await Promise.all([
      pingTotals(db, me, week),
      topPromptsSentBy(db, me, week, LIMITS.topThemes),
      countFriendshipsAcceptedSince(db, me, ago(now, NEW_CONNECTION_DAYS)),
    ]);
    ctx.body = {
      pingsSent: totals.sentSince,
      pingsReceived: totals.receivedSince,
      topThemes: themes.map((t) => t.prompt.text),
      newConnections,
    } satisfies ProfileMetrics;
  });

  router.get('/api/profile/moments', signedIn, async (ctx) => {
    const rows = await listMoments(db, currentUser(ctx).id);
    ctx.body = rows.map((m) => ({
      id: m.id,
      pingId: m.pingId,
      title: m.title,
      description: m.description,
      createdAt: m.createdAt,
    })) satisfies Moment[];
  });

  router.get('/api/profile/badges', signedIn, async (ctx) => {
    ctx.body = (await earnedBadges(db, currentUser(ctx).id)) satisfies Badge[];
  });

  router.get('/api/profile/collections', signedIn, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = (await listPacks(db, me)).map((p) => toCollection(p, me)) satisfies Collection[];
  });
}
