import { describe, expect, it } from 'vitest';
import { countByDay, describeSeries, lastDays, localDay } from './days';

describe('chart days', () => {
  it('lists the last n local days, oldest first, across a month boundary', () => {
    expect(lastDays(3, new Date(2026, 10, 1, 9))).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
    ]);
  });

  it('counts moments on their local day and ignores days outside the window', () => {
    const days = lastDays(2, new Date(2026, 10, 25, 12));
    const at = (d: number, h: number) => new Date(2026, 10, d, h).toISOString();
    expect(countByDay([at(24, 23), at(25, 0), at(25, 8), at(20, 8)], days)).toEqual([1, 2]);
    expect(localDay(new Date(2026, 0, 5))).toBe('2026-01-05');
  });

  it('describes a series in one sentence', () => {
    expect(describeSeries('Pings', ['2026-11-24', '2026-11-25'], [1, 3])).toBe(
      'Pings: 4 in the last 2 days, most on 25 Nov (3).',
    );
    expect(describeSeries('Pings', ['2026-11-25'], [0])).toBe('Pings: none in the last 1 days.');
  });
});
