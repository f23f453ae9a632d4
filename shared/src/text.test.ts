import { describe, expect, it } from 'vitest';
import {
  activityView,
  anchorCustomRewrite,
  capBadge,
  emojiFor,
  receiverView,
  relativeTime,
  strengthLabel,
  tileColorIndex,
  truncateLabel,
} from './text';

describe('receiverView', () => {
  it.each([
    ['Ping me when you need a hug', 'Ping you when I need a hug'],
    ['Ping me when you miss me', 'Ping you when I miss you'],
    ["Ping me when you're free for chai", "Ping you when I'm free for chai"],
    ['Ping me when you’re bored', "Ping you when I'm bored"],
    ['ping me when YOU are proud', 'Ping you when I are proud'],
    ["Ping me when you've got news", "Ping you when I've got news"],
    ['Ping me when your day was good', 'Ping you when your day was good'],
    ['PING ME WHEN YOU WIN', 'PING YOU WHEN I WIN'],
  ])('%s → %s', (text, expected) => {
    expect(receiverView(text)).toBe(expected);
  });

  it('leaves other texts alone, including words that only contain you or me', () => {
    expect(receiverView('Thinking of you')).toBe('Thinking of you');
    expect(receiverView('Ping me whenever')).toBe('Ping me whenever');
    expect(receiverView('Ping me when the youth meet at home')).toBe(
      'Ping you when the youth meet at home',
    );
    expect(receiverView('')).toBe('');
  });
});

describe('activityView', () => {
  it.each([
    ['Ping me when you need a hug', 'I need a hug'],
    ['ping me when you miss me', 'I miss you'],
    ["Ping me when you're free for chai", "I'm free for chai"],
    ['Ping me when you finished your book', 'I finished my book'],
    ['Ping me when I am wrong', 'You am wrong'],
    ["Ping me when I'm late", "You're late"],
  ])('%s → %s', (text, expected) => {
    expect(activityView(text)).toBe(expected);
  });

  it('leaves texts without the prefix as their sender wrote them', () => {
    expect(activityView('I miss you!')).toBe('I miss you!');
    expect(activityView('Surprise 🎉')).toBe('Surprise 🎉');
  });
});

describe('anchorCustomRewrite', () => {
  it.each([
    ['ping me when you miss your coffee', 'I miss my coffee'],
    ['Ping me when you need me', 'I need me'],
    ['PING ME WHEN you are free', 'I are free'],
    ["Ping me when you're proud of your work", "I'm proud of my work"],
    ['Ping me when  you want company ', 'I want company'],
    ['ping me when', ''],
  ])('%s → %s', (text, expected) => {
    expect(anchorCustomRewrite(text)).toBe(expected);
  });

  it('keeps other texts (trimmed)', () => {
    expect(anchorCustomRewrite('  Thinking of you ')).toBe('Thinking of you');
    expect(anchorCustomRewrite('Ping me whenever')).toBe('Ping me whenever');
  });
});

describe('emojiFor', () => {
  it.each([
    ['Ping me when you need a hug', '🤗'],
    ['So PROUD of you', '🌟'],
    ['I miss you', '💕'],
    ['Need support?', '🤝'],
    ['Want to talk?', '💬'],
    ["Let's celebrate", '🎉'],
    ['Love this', '❤️'],
    ['Up for an adventure', '🗺️'],
    ['Free for chai', '💭'],
    ['', '💭'],
  ])('%s → %s', (text, emoji) => {
    expect(emojiFor(text)).toBe(emoji);
  });

  it('takes the first keyword in the spec order when several appear', () => {
    expect(emojiFor('I miss our talks and hugs')).toBe('🤗');
    expect(emojiFor('talk about love')).toBe('💬');
  });
});

describe('relativeTime', () => {
  const now = Date.UTC(2030, 0, 10, 12, 0, 0);
  const ago = (ms: number) => new Date(now - ms);
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it('ping variant: just now, Nm ago, Nh ago, Nd ago', () => {
    expect(relativeTime(ago(59_999), now, 'ping')).toBe('just now');
    expect(relativeTime(ago(MIN), now, 'ping')).toBe('1m ago');
    expect(relativeTime(ago(59 * MIN), now, 'ping')).toBe('59m ago');
    expect(relativeTime(ago(HOUR), now, 'ping')).toBe('1h ago');
    expect(relativeTime(ago(23 * HOUR + 59 * MIN), now, 'ping')).toBe('23h ago');
    expect(relativeTime(ago(DAY), now, 'ping')).toBe('1d ago');
    expect(relativeTime(ago(40 * DAY), now, 'ping')).toBe('40d ago');
  });

  it('home variant: just now under an hour, then hours and days', () => {
    expect(relativeTime(ago(59 * MIN), now, 'home')).toBe('just now');
    expect(relativeTime(ago(HOUR), now, 'home')).toBe('1h ago');
    expect(relativeTime(ago(25 * HOUR), now, 'home')).toBe('1d ago');
  });

  it('notification variant: now, Nm, Nh, Nd', () => {
    expect(relativeTime(ago(10_000), now, 'notification')).toBe('now');
    expect(relativeTime(ago(5 * MIN), now, 'notification')).toBe('5m');
    expect(relativeTime(ago(3 * HOUR), now, 'notification')).toBe('3h');
    expect(relativeTime(ago(2 * DAY), now, 'notification')).toBe('2d');
  });

  it('accepts ISO strings and numbers, defaults to the ping variant, and treats the future as now', () => {
    expect(relativeTime(new Date(now - 2 * HOUR).toISOString(), now)).toBe('2h ago');
    expect(relativeTime(now - 3 * MIN, new Date(now).toISOString())).toBe('3m ago');
    expect(relativeTime(now + 5 * MIN, now)).toBe('just now');
    expect(relativeTime('not a date', now)).toBe('just now');
  });
});

describe('truncateLabel', () => {
  it('cuts at 20 characters with "..." only when longer', () => {
    expect(truncateLabel('Best friend forever!')).toBe('Best friend forever!');
    expect(truncateLabel('Best friend forever!!')).toBe('Best friend forever!...');
    expect(truncateLabel('')).toBe('');
    expect(truncateLabel('abcdef', 3)).toBe('abc...');
  });

  it('never splits an emoji', () => {
    expect(truncateLabel('👩‍👩‍👧‍👦'.repeat(21))).toBe(`${'👩‍👩‍👧‍👦'.repeat(20)}...`);
  });
});

describe('strengthLabel', () => {
  it.each([
    [5, 'Best Friends'],
    [4, 'Close Friends'],
    [3, 'Good Friends'],
    [2, 'Friends'],
    [1, 'New Friends'],
    [0, 'New Friends'],
    [6, 'New Friends'],
  ])('%i → %s', (n, label) => {
    expect(strengthLabel(n)).toBe(label);
  });
});

describe('capBadge', () => {
  it('caps unread at 99+ and friend requests at 9+', () => {
    expect(capBadge(0)).toBe('0');
    expect(capBadge(99)).toBe('99');
    expect(capBadge(100)).toBe('99+');
    expect(capBadge(9, 9)).toBe('9');
    expect(capBadge(10, 9)).toBe('9+');
  });
});

describe('tileColorIndex', () => {
  it('is stable, in 0..3, and spreads ids over all four colours', () => {
    const id = '0190a3c4-1111-7abc-8def-0123456789ab';
    expect(tileColorIndex(id)).toBe(tileColorIndex(id));
    const seen = new Set<number>();
    for (let i = 0; i < 64; i++) {
      const n = tileColorIndex(`0190a3c4-1111-7abc-8def-${String(i).padStart(12, '0')}`);
      expect(n).toBeGreaterThanOrEqual(0);
      expect(n).toBeLessThan(4);
      seen.add(n);
    }
    expect(seen.size).toBe(4);
  });

  it('takes numeric ids modulo 4, as the spec describes', () => {
    expect(tileColorIndex(0)).toBe(0);
    expect(tileColorIndex(7)).toBe(3);
    expect(tileColorIndex(-1)).toBe(3);
  });
});
