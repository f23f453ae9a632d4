import { describe, expect, it } from 'vitest';
import {
  activityBadgeText,
  friendRequestsBadgeText,
  friendRequestsBannerText,
  unreadBadgeText,
} from './badges';

describe('navigation badges', () => {
  it('Pings: hidden at 0, the number up to 99, then 99+', () => {
    expect(unreadBadgeText(0)).toBeNull();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
  });

  it('Activity: hidden at 0, else the count', () => {
    expect(activityBadgeText(0)).toBeNull();
    expect(activityBadgeText(3)).toBe('3');
  });

  it('friend-requests banner: 9+ above 9, and its sentence', () => {
    expect(friendRequestsBadgeText(9)).toBe('9');
    expect(friendRequestsBadgeText(10)).toBe('9+');
    expect(friendRequestsBannerText(10)).toBe('You have 10 friend requests!');
    expect(friendRequestsBannerText(1)).toBe('You have 1 friend request!');
  });
});
