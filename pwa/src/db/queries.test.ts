import 'fake-indexeddb/auto';
import type { Ping } from '@pingme/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from './index';
import { latestPings, unreadReceivedCount } from './queries';

const person = (id: string) => ({ id, firstName: id, lastName: null, profileImageUrl: null });

function ping(
  id: string,
  senderId: string,
  receiverId: string,
  readAt: string | null,
  createdAt = '2026-11-01T10:00:00.000Z',
): Ping {
  return {
    id,
    kind: 'prompt',
    senderId,
    receiverId,
    sender: person(senderId),
    receiver: person(receiverId),
    prompt: { id: 'p', text: 'Hi', emoji: '👋' },
    customText: null,
    customEmoji: null,
    anchorId: null,
    groupId: null,
    createdAt,
    isRead: readAt !== null,
    readAt,
    isBookmarked: false,
    reactions: [],
  } as Ping;
}

beforeEach(async () => {
  await db.pings.clear();
});

describe('unreadReceivedCount', () => {
  it('counts the received pings without a readAt, for that person only', async () => {
    await db.pings.bulkPut([
      ping('1', 'bo', 'me', null),
      ping('2', 'bo', 'me', '2026-11-02T10:00:00.000Z'),
      ping('3', 'cy', 'me', null),
      ping('4', 'me', 'bo', null),
      ping('5', 'me', 'bo', '2026-11-02T11:00:00.000Z'),
      ping('6', 'bo', 'other', null),
    ]);
    expect(await unreadReceivedCount('me')).toBe(2);
    expect(await unreadReceivedCount('bo')).toBe(1);
    expect(await unreadReceivedCount('nobody')).toBe(0);
  });

  it('follows a ping being read', async () => {
    await db.pings.put(ping('1', 'bo', 'me', null));
    expect(await unreadReceivedCount('me')).toBe(1);
    await db.pings.put(ping('1', 'bo', 'me', '2026-11-03T09:00:00.000Z'));
    expect(await unreadReceivedCount('me')).toBe(0);
  });
});

describe('latestPings', () => {
  it('answers the newest first, equal times by the larger id, at most the limit', async () => {
    await db.pings.bulkPut([
      ping('0190a000-0000-7000-8000-000000000001', 'me', 'bo', null, '2026-11-01T10:00:00.000Z'),
      ping('0190a000-0000-7000-8000-000000000003', 'bo', 'me', null, '2026-11-03T10:00:00.000Z'),
      ping('0190a000-0000-7000-8000-000000000004', 'me', 'cy', null, '2026-11-03T10:00:00.000Z'),
      ping('0190a000-0000-7000-8000-000000000002', 'cy', 'me', null, '2026-11-02T10:00:00.000Z'),
    ]);
    expect((await latestPings(2)).map((p) => p.id.slice(-1))).toEqual(['4', '3']);
    expect((await latestPings(10)).map((p) => p.id.slice(-1))).toEqual(['4', '3', '2', '1']);
  });
});
