/**
 * Friendship energy (spec sections 2 and 9; docs/energy.md explains it in plain words).
 * Pure functions: the server computes entries with them and the PWA may recompute a card offline.
 */
import type { EnergyEntry, EnergyLevel, EnergyMetrics } from './schemas/insights';

/**
 * How much each signal can add to the score (the parts sum to 100) and the amount of that signal
 * that earns its full part. More than the target earns nothing extra.
 */
export const ENERGY_WEIGHTS = {
  /** Pings both ways in the last 7 days; 14 (two a day) earns the full 40 points. */
  pingFrequency: { points: 40, target: 14 },
  /** Percent of the friend's pings (30 days) the person reacted to; 100 % earns 25 points. */
  responseRate: { points: 25, target: 100 },
  /** Moods shared either way in the last 30 days; 4 (about one a week) earns 15 points. */
  moodSharingCount: { points: 15, target: 4 },
  /** Consecutive days with a ping either way; a 7-day streak earns 20 points. */
  streakDays: { points: 20, target: 7 },
} as const;

/** Days the energy signals look back over. */
export const ENERGY_WINDOWS = { pingFrequencyDays: 7, responseRateDays: 30, moodDays: 30 } as const;

/** Lower bounds of the levels, checked from the top. */
export const ENERGY_LEVEL_THRESHOLDS: readonly (readonly [EnergyLevel, number])[] = [
  ['High', 75],
  ['Medium', 50],
  ['Low-Medium', 25],
  ['Low', 0],
];

const part = (value: number, w: { points: number; target: number }) =>
  w.points * Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0) / w.target);

/** 0..100, rounded: the sum of the four capped, linear parts in ENERGY_WEIGHTS. */
export function energyScore(m: EnergyMetrics): number {
  const total =
    part(m.pingFrequency, ENERGY_WEIGHTS.pingFrequency) +
    part(m.responseRate, ENERGY_WEIGHTS.responseRate) +
    part(m.moodSharingCount, ENERGY_WEIGHTS.moodSharingCount) +
    part(m.streakDays, ENERGY_WEIGHTS.streakDays);
  return Math.max(0, Math.min(100, Math.round(total)));
}

/** High at 75 or more, Medium at 50, Low-Medium at 25, Low below. */
export function energyLevel(score: number): EnergyLevel {
  for (const [level, min] of ENERGY_LEVEL_THRESHOLDS) if (score >= min) return level;
  return 'Low';
}

export const ENERGY_TIPS = {
  morePings: 'Send a few more pings this week to build momentum.',
  react: 'React to their pings: a quick heart shows you noticed.',
  shareMood: 'Share your mood so they know how you are doing.',
  dailyContact: 'Try a daily ping to start a streak.',
  praise: 'Amazing energy! Keep it up.',
} as const;

/** The spec's tips (section 9), in this order; a card shows all that apply. */
export function energyTips(m: EnergyMetrics, score: number = energyScore(m)): string[] {
  const tips: string[] = [];
  if (score < 40) tips.push(ENERGY_TIPS.morePings);
  if (m.responseRate < 50) tips.push(ENERGY_TIPS.react);
  if (m.moodSharingCount === 0) tips.push(ENERGY_TIPS.shareMood);
  if (m.streakDays < 3) tips.push(ENERGY_TIPS.dailyContact);
  if (score >= 80) tips.push(ENERGY_TIPS.praise);
  return tips;
}

export interface EnergySummary {
  /** Rounded mean of the scores; 0 without friends. */
  average: number;
  total: number;
  high: number;
  medium: number;
  /** Low and Low-Medium together. */
  needsBoost: number;
}

export function energySummary(
  entries: readonly Pick<EnergyEntry, 'energyScore' | 'energyLevel'>[],
): EnergySummary {
  const total = entries.length;
  const sum = entries.reduce((s, e) => s + e.energyScore, 0);
  const count = (pred: (l: EnergyLevel) => boolean) =>
    entries.filter((e) => pred(e.energyLevel)).length;
  return {
    average: total ? Math.round(sum / total) : 0,
    total,
    high: count((l) => l === 'High'),
    medium: count((l) => l === 'Medium'),
    needsBoost: count((l) => l === 'Low' || l === 'Low-Medium'),
  };
}

/** 'YYYY-MM-DD' of an instant in UTC, the day the server counts streaks and histories in. */
export function utcDay(at: Date | string | number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * Consecutive days, ending today, that appear in `days` ('YYYY-MM-DD'). A streak still counts
 * when the latest day is yesterday: it breaks only once a whole day passes without contact.
 */
export function streakDaysFrom(days: Iterable<string>, today: string): number {
  const set = new Set(days);
  const step = (day: string) => utcDay(Date.parse(`${day}T00:00:00Z`) - 86_400_000);
  let day = set.has(today) ? today : step(today);
  let n = 0;
  while (set.has(day)) {
    n += 1;
    day = step(day);
  }
  return n;
}

/** Assembles an entry's computed part from its metrics. */
export function energyFromMetrics(m: EnergyMetrics): {
  energyScore: number;
  energyLevel: EnergyLevel;
  tips: string[];
} {
  const score = energyScore(m);
  return { energyScore: score, energyLevel: energyLevel(score), tips: energyTips(m, score) };
}
