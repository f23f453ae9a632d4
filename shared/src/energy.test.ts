import { describe, expect, it } from 'vitest';
import {
  ENERGY_TIPS,
  ENERGY_WEIGHTS,
  energyFromMetrics,
  energyLevel,
  energyScore,
  energySummary,
  energyTips,
  streakDaysFrom,
  utcDay,
} from './energy';

const metrics = (over: Partial<Parameters<typeof energyScore>[0]> = {}) => ({
  pingFrequency: 0,
  responseRate: 0,
  moodSharingCount: 0,
  streakDays: 0,
  ...over,
});

describe('energyScore', () => {
  it('is 0 without activity and 100 at every target', () => {
    expect(energyScore(metrics())).toBe(0);
    expect(
      energyScore({ pingFrequency: 14, responseRate: 100, moodSharingCount: 4, streakDays: 7 }),
    ).toBe(100);
  });

  it('weights sum to 100', () => {
    const sum = Object.values(ENERGY_WEIGHTS).reduce((s, w) => s + w.points, 0);
    expect(sum).toBe(100);
  });

  it('gives each signal its linear, capped share', () => {
    expect(energyScore(metrics({ pingFrequency: 7 }))).toBe(20);
    expect(energyScore(metrics({ pingFrequency: 14 }))).toBe(40);
    expect(energyScore(metrics({ pingFrequency: 500 }))).toBe(40);
    expect(energyScore(metrics({ responseRate: 50 }))).toBe(13); // 12.5 rounds up
    expect(energyScore(metrics({ responseRate: 100 }))).toBe(25);
    expect(energyScore(metrics({ moodSharingCount: 1 }))).toBe(4); // 3.75
    expect(energyScore(metrics({ moodSharingCount: 9 }))).toBe(15);
    expect(energyScore(metrics({ streakDays: 3 }))).toBe(9); // 8.57
    expect(energyScore(metrics({ streakDays: 30 }))).toBe(20);
  });

  it('adds the parts and stays within 0..100 for odd input', () => {
    expect(
      energyScore({ pingFrequency: 7, responseRate: 100, moodSharingCount: 2, streakDays: 0 }),
    ).toBe(53); // 20 + 25 + 7.5
    expect(
      energyScore({ pingFrequency: -5, responseRate: 1e9, moodSharingCount: NaN, streakDays: 1 }),
    ).toBe(28); // 0 + 25 + 0 + 2.86
  });

  it('never decreases when a signal grows', () => {
    let last = -1;
    for (let f = 0; f <= 20; f++) {
      const s = energyScore(metrics({ pingFrequency: f, responseRate: 40 }));
      expect(s).toBeGreaterThanOrEqual(last);
      last = s;
    }
  });
});

describe('energyLevel', () => {
  it.each([
    [100, 'High'],
    [75, 'High'],
    [74, 'Medium'],
    [50, 'Medium'],
    [49, 'Low-Medium'],
    [25, 'Low-Medium'],
    [24, 'Low'],
    [0, 'Low'],
    [-3, 'Low'],
  ])('%i → %s', (score, level) => {
    expect(energyLevel(score)).toBe(level);
  });
});

describe('energyTips', () => {
  it('gives every applicable tip for a quiet friendship', () => {
    expect(energyTips(metrics(), 0)).toEqual([
      ENERGY_TIPS.morePings,
      ENERGY_TIPS.react,
      ENERGY_TIPS.shareMood,
      ENERGY_TIPS.dailyContact,
    ]);
  });

  it('praises at 80 or more and drops the tips whose signal is fine', () => {
    const m = { pingFrequency: 14, responseRate: 100, moodSharingCount: 4, streakDays: 7 };
    expect(energyTips(m)).toEqual([ENERGY_TIPS.praise]);
  });

  it('uses each threshold exactly as the spec states', () => {
    const ok = { pingFrequency: 10, responseRate: 50, moodSharingCount: 1, streakDays: 3 };
    expect(energyTips(ok, 40)).toEqual([]);
    expect(energyTips(ok, 39)).toEqual([ENERGY_TIPS.morePings]);
    expect(energyTips({ ...ok, responseRate: 49 }, 60)).toEqual([ENERGY_TIPS.react]);
    expect(energyTips({ ...ok, moodSharingCount: 0 }, 60)).toEqual([ENERGY_TIPS.shareMood]);
    expect(energyTips({ ...ok, streakDays: 2 }, 60)).toEqual([ENERGY_TIPS.dailyContact]);
    expect(energyTips(ok, 79)).toEqual([]);
    expect(energyTips(ok, 80)).toEqual([ENERGY_TIPS.praise]);
  });

  it('computes the score itself when none is given', () => {
    expect(energyTips(metrics({ responseRate: 100, moodSharingCount: 4, streakDays: 7 }))).toEqual(
      [],
    ); // score 60
  });
});

describe('energySummary', () => {
  it('averages (rounded) and counts High, Medium and Needs Boost (Low + Low-Medium)', () => {
    const s = energySummary([
      { energyScore: 90, energyLevel: 'High' },
      { energyScore: 60, energyLevel: 'Medium' },
      { energyScore: 30, energyLevel: 'Low-Medium' },
      { energyScore: 5, energyLevel: 'Low' },
    ]);
    expect(s).toEqual({ average: 46, total: 4, high: 1, medium: 1, needsBoost: 2 });
  });

  it('rounds the mean half up', () => {
    expect(
      energySummary([
        { energyScore: 50, energyLevel: 'Medium' },
        { energyScore: 51, energyLevel: 'Medium' },
      ]).average,
    ).toBe(51);
  });

  it('is all zeros without friends', () => {
    expect(energySummary([])).toEqual({ average: 0, total: 0, high: 0, medium: 0, needsBoost: 0 });
  });
});

describe('streakDaysFrom', () => {
  const today = '2030-03-01';

  it('counts consecutive days ending today, across a month end', () => {
    expect(streakDaysFrom(['2030-03-01', '2030-02-28', '2030-02-27', '2030-02-25'], today)).toBe(3);
  });

  it('still counts a streak whose last day is yesterday', () => {
    expect(streakDaysFrom(['2030-02-28', '2030-02-27'], today)).toBe(2);
  });

  it('is 0 when neither today nor yesterday had contact', () => {
    expect(streakDaysFrom(['2030-02-27', '2030-02-26'], today)).toBe(0);
    expect(streakDaysFrom([], today)).toBe(0);
  });

  it('ignores duplicates and order', () => {
    expect(streakDaysFrom(['2030-02-28', '2030-03-01', '2030-03-01', '2030-02-28'], today)).toBe(2);
  });
});

describe('utcDay and energyFromMetrics', () => {
  it('formats the UTC day', () => {
    expect(utcDay(Date.UTC(2030, 0, 2, 23, 59))).toBe('2030-01-02');
    expect(utcDay('2030-01-02T23:59:00-05:00')).toBe('2030-01-03');
  });

  it('bundles score, level and tips', () => {
    const m = { pingFrequency: 14, responseRate: 100, moodSharingCount: 4, streakDays: 7 };
    expect(energyFromMetrics(m)).toEqual({
      energyScore: 100,
      energyLevel: 'High',
      tips: [ENERGY_TIPS.praise],
    });
  });
});
