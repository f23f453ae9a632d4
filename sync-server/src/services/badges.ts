/**
 * Badges: a small catalogue computed from what a person actually did. Nothing is stored; a badge
 * is earned at the moment its condition first became true (`earnedAt`), so the list is the same
 * on every request and every device. docs/decisions.md lists the catalogue.
 */
import { LIMITS, type Badge } from '@pingme/shared';
import type { Db } from '../db/connection';
import {
  firstAcceptedAnchorAt,
  firstReactionAt,
  nthFriendAt,
  nthSentPingAt,
  sentPingDays,
} from '../db/insights';

export const STREAK_BADGE_DAYS = 7;
export const FRIENDS_BADGE_COUNT = 5;

export const BADGE_CATALOGUE = [
  { id: 'first-ping', title: 'First Ping', description: 'Sent your very first ping.' },
  { id: 'ten-pings', title: 'Warming Up', description: 'Sent 10 pings.' },
  {
    id: 'hundred-pings',
    title: 'Century',
    description: `Sent ${LIMITS.milestoneSentPings} pings.`,
  },
  {
    id: 'first-reaction',
    title: 'First Reaction',
    description: 'Reacted to a ping for the first time.',
  },
  { id: 'first-anchor', title: 'Anchored', description: 'Made your first mutual anchor.' },
  {
    id: 'five-friends',
    title: 'Circle of Five',
    description: `Have ${FRIENDS_BADGE_COUNT} friends.`,
  },
  {
    id: 'week-streak',
    title: 'On a Roll',
    description: `Sent pings ${STREAK_BADGE_DAYS} days in a row.`,
  },
] as const;

export type BadgeId = (typeof BADGE_CATALOGUE)[number]['id'];

/**
 * The first day that completes a run of `length` consecutive UTC days in `days` (sorted, oldest
 * first), or undefined.
 */
export function firstStreakEnd<T extends { day: string }>(
  days: T[],
  length: number,
): T | undefined {
  let run = 0;
  let prev: number | undefined;
  for (const d of days) {
    const t = Date.parse(`${d.day}T00:00:00Z`);
    run = prev !== undefined && t - prev === 86_400_000 ? run + 1 : 1;
    prev = t;
    if (run >= length) return d;
  }
  return undefined;
}

/** The badges a person has earned, newest first. */
export async function earnedBadges(db: Db, userId: string): Promise<Badge[]> {
  const [first, tenth, hundredth, reaction, anchor, fifthFriend, days] = await Promise.all([
    nthSentPingAt(db, userId, 1),
    nthSentPingAt(db, userId, 10),
    nthSentPingAt(db, userId, LIMITS.milestoneSentPings),
    firstReactionAt(db, userId),
    firstAcceptedAnchorAt(db, userId),
    nthFriendAt(db, userId, FRIENDS_BADGE_COUNT),
    sentPingDays(db, userId),
  ]);
  const earnedAt: Record<BadgeId, string | null | undefined> = {
    'first-ping': first,
    'ten-pings': tenth,
    'hundred-pings': hundredth,
    'first-reaction': reaction,
    'first-anchor': anchor,
    'five-friends': fifthFriend,
    'week-streak': firstStreakEnd(days, STREAK_BADGE_DAYS)?.firstAt,
  };
  const order = new Map(BADGE_CATALOGUE.map((b, i) => [b.id, i]));
  return BADGE_CATALOGUE.flatMap((b) => {
    const at = earnedAt[b.id];
    return at ? [{ id: b.id, title: b.title, description: b.description, earnedAt: at }] : [];
  }).sort(
    (a, b) =>
      b.earnedAt.localeCompare(a.earnedAt) ||
      order.get(b.id as BadgeId)! - order.get(a.id as BadgeId)!,
  );
}
