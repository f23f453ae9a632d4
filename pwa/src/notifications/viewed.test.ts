import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  VIEWED_MAX_IDS,
  VIEWED_STORAGE_KEY,
  anchorRequestNotificationId,
  countUnseen,
  friendRequestNotificationId,
  markViewed,
  parseViewed,
  readViewed,
} from './viewed';

function memoryStorage(initial?: string) {
  const map = new Map<string, string>();
  if (initial !== undefined) map.set(VIEWED_STORAGE_KEY, initial);
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('viewedNotifications store', () => {
  afterEach(() => localStorage.clear());

  it('names ids as the spec does', () => {
    expect(friendRequestNotificationId('r1')).toBe('friend_request_r1');
    expect(anchorRequestNotificationId('a1')).toBe('anchor_request_a1');
  });

  it('reads a JSON list, and treats anything else as empty', () => {
    expect(parseViewed('["friend_request_1","anchor_request_2"]')).toEqual([
      'friend_request_1',
      'anchor_request_2',
    ]);
    expect(parseViewed(null)).toEqual([]);
    expect(parseViewed('not json')).toEqual([]);
    expect(parseViewed('{"a":1}')).toEqual([]);
    expect(parseViewed('["ok", 3, null]')).toEqual(['ok']);
  });

  it('adds new ids once, keeps the old ones, and says whether it changed', () => {
    const storage = memoryStorage('["friend_request_1"]');
    expect(markViewed(['friend_request_1', 'anchor_request_9'], storage)).toBe(true);
    expect(JSON.parse(storage.map.get(VIEWED_STORAGE_KEY)!)).toEqual([
      'friend_request_1',
      'anchor_request_9',
    ]);
    expect(markViewed(['anchor_request_9'], storage)).toBe(false);
    expect(readViewed(storage)).toEqual(new Set(['friend_request_1', 'anchor_request_9']));
  });

  it('keeps only the newest ids beyond the cap', () => {
    const storage = memoryStorage();
    markViewed(
      Array.from({ length: VIEWED_MAX_IDS + 5 }, (_, i) => `friend_request_${i}`),
      storage,
    );
    const stored = JSON.parse(storage.map.get(VIEWED_STORAGE_KEY)!) as string[];
    expect(stored).toHaveLength(VIEWED_MAX_IDS);
    expect(stored[0]).toBe('friend_request_5');
  });

  it('uses localStorage by default and tells this tab’s readers', () => {
    const listener = vi.fn();
    window.addEventListener('pingme:viewed-notifications', listener);
    markViewed([friendRequestNotificationId('x')]);
    expect(localStorage.getItem(VIEWED_STORAGE_KEY)).toBe('["friend_request_x"]');
    expect(readViewed().has('friend_request_x')).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    window.removeEventListener('pingme:viewed-notifications', listener);
  });

  it('counts the ids not yet viewed', () => {
    const viewed = new Set(['friend_request_1']);
    expect(countUnseen(['friend_request_1', 'friend_request_2', 'anchor_request_3'], viewed)).toBe(
      2,
    );
    expect(countUnseen([], viewed)).toBe(0);
  });
});
