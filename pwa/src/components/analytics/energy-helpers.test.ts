import { energySummary, type EnergyEntry } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { levelTone, meterValue, metricRows, selectedEntry } from './energy-helpers';

const entry = (
  friendId: string,
  score: number,
  level: EnergyEntry['energyLevel'],
): EnergyEntry => ({
  friendId,
  friend: { id: friendId, firstName: 'F', lastName: null, profileImageUrl: null },
  energyScore: score,
  energyLevel: level,
  metrics: { pingFrequency: 1, responseRate: 50, moodSharingCount: 0, streakDays: 2 },
  tips: [],
  computedAt: '2026-01-01T00:00:00.000Z',
});

describe('energy card helpers', () => {
  it('gives each level its own tone', () => {
    expect(['High', 'Medium', 'Low-Medium', 'Low'].map((l) => levelTone(l as never))).toEqual([
      'high',
      'medium',
      'low-medium',
      'low',
    ]);
  });

  it('clamps and rounds the bar value', () => {
    expect(meterValue(72.4)).toEqual({ value: 72, text: '72%' });
    expect(meterValue(140).value).toBe(100);
    expect(meterValue(-3).value).toBe(0);
    expect(meterValue(Number.NaN).value).toBe(0);
  });

  it('lists the four metrics in order with words and their share of the full part', () => {
    const rows = metricRows({
      pingFrequency: 7,
      responseRate: 100,
      moodSharingCount: 1,
      streakDays: 14,
    });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['Weekly pings', '7 pings'],
      ['Response rate', '100%'],
      ['Mood shares', '1 mood'],
      ['Streak', '14 days'],
    ]);
    expect(rows.map((r) => r.share)).toEqual([0.5, 1, 0.25, 1]);
  });

  it('finds the chosen friend, and nothing once they left the list', () => {
    const list = [entry('a', 80, 'High'), entry('b', 20, 'Low')];
    expect(selectedEntry(list, 'b')?.energyScore).toBe(20);
    expect(selectedEntry(list, 'c')).toBeUndefined();
    expect(selectedEntry(list, null)).toBeUndefined();
    // The summary cards come from the shared rule: Low and Low-Medium both need a boost.
    expect(energySummary([...list, entry('c', 30, 'Low-Medium')])).toMatchObject({
      average: 43,
      total: 3,
      high: 1,
      needsBoost: 2,
    });
  });
});
