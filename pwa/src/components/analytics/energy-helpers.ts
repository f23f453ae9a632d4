/** Pure helpers of the energy screen: how a level looks, the metric rows of a card, the bar. */
import { ENERGY_WEIGHTS, type EnergyEntry, type EnergyLevel } from '@pingme/shared';

/** The tone class of a level badge and bar. */
export function levelTone(level: EnergyLevel): 'high' | 'medium' | 'low-medium' | 'low' {
  switch (level) {
    case 'High':
      return 'high';
    case 'Medium':
      return 'medium';
    case 'Low-Medium':
      return 'low-medium';
    default:
      return 'low';
  }
}

/** A score for the bar and its accessible value: clamped to 0-100, rounded. */
export function meterValue(score: number): { value: number; text: string } {
  const value = Math.max(0, Math.min(100, Math.round(Number.isFinite(score) ? score : 0)));
  return { value, text: `${value}%` };
}

export interface MetricRow {
  key: keyof EnergyEntry['metrics'];
  label: string;
  value: string;
  /** How far the signal is towards its full part of the score, 0..1 (ENERGY_WEIGHTS). */
  share: number;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The four metrics of an energy card, in the spec's order. */
export function metricRows(m: EnergyEntry['metrics']): MetricRow[] {
  const share = (key: keyof typeof ENERGY_WEIGHTS, v: number) =>
    Math.max(0, Math.min(1, v / ENERGY_WEIGHTS[key].target));
  return [
    {
      key: 'pingFrequency',
      label: 'Weekly pings',
      value: plural(m.pingFrequency, 'ping', 'pings'),
      share: share('pingFrequency', m.pingFrequency),
    },
    {
      key: 'responseRate',
      label: 'Response rate',
      value: `${m.responseRate}%`,
      share: share('responseRate', m.responseRate),
    },
    {
      key: 'moodSharingCount',
      label: 'Mood shares',
      value: plural(m.moodSharingCount, 'mood', 'moods'),
      share: share('moodSharingCount', m.moodSharingCount),
    },
    {
      key: 'streakDays',
      label: 'Streak',
      value: plural(m.streakDays, 'day', 'days'),
      share: share('streakDays', m.streakDays),
    },
  ];
}

/** The entry chosen in the overview, if it is still in the list. */
export function selectedEntry(
  entries: readonly EnergyEntry[] | undefined,
  friendId: string | null,
): EnergyEntry | undefined {
  return friendId ? entries?.find((e) => e.friendId === friendId) : undefined;
}
