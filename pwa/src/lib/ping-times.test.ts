/** The written/arrived rule of ping cards (lib/ping-times.ts). */
import { describe, expect, it } from 'vitest';
import { pingTimes } from './ping-times';

const NOW = Date.UTC(2030, 0, 10, 12, 0, 0);
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

describe('pingTimes', () => {
  it('shows one time when the ping has no writtenAt (rows pulled before it existed)', () => {
    expect(pingTimes({ createdAt: iso(5 * 60_000) }, NOW)).toEqual({
      kind: 'one',
      at: iso(5 * 60_000),
      text: '5m ago',
    });
  });

  it('shows one time while written and arrived are at most a minute apart', () => {
    const t = pingTimes({ createdAt: iso(0), writtenAt: iso(60_000) }, NOW);
    expect(t).toMatchObject({ kind: 'one', text: '1m ago' });
  });

  it('shows both once they are more than a minute apart', () => {
    const t = pingTimes({ createdAt: iso(10_000), writtenAt: iso(2 * 3_600_000) }, NOW);
    expect(t).toMatchObject({
      kind: 'both',
      written: 'Written 2h ago',
      arrived: 'arrived just now',
    });
  });

  it('a writtenAt after createdAt (a clock ahead) shows one time', () => {
    expect(pingTimes({ createdAt: iso(0), writtenAt: iso(-5 * 60_000) }, NOW).kind).toBe('one');
  });
});
