import type { Anchor, Ping, SyncFriendship } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import {
  activityItems,
  anchorActivity,
  anchorActivityText,
  filterActivity,
  notificationFeed,
  pingStatus,
  type FeedInput,
} from './feed';

const ME = '0190a000-0000-7000-8000-000000000001';
const ANN = '0190a000-0000-7000-8000-000000000002';
const BEN = '0190a000-0000-7000-8000-000000000003';
const NOW = Date.parse('2025-06-10T12:00:00Z');
const person = (id: string, firstName: string) => ({
  id,
  firstName,
  lastName: 'Test',
  profileImageUrl: null,
  email: null,
});
const PEOPLE: Record<string, ReturnType<typeof person>> = {
  [ME]: person(ME, 'Me'),
  [ANN]: person(ANN, 'Ann'),
  [BEN]: person(BEN, 'Ben'),
};
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const H = 3_600_000;
const D = 24 * H;

let seq = 0;
function ping(from: string, to: string, over: Partial<Ping> = {}): Ping {
  seq += 1;
  return {
    id: `0190a000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    kind: 'prompt',
    senderId: from,
    receiverId: to,
    sender: PEOPLE[from]!,
    receiver: PEOPLE[to]!,
    prompt: { id: null, text: 'Ping me when you need a hug', emoji: '🤗' },
    customText: null,
    customEmoji: null,
    anchorId: null,
    groupId: null,
    createdAt: ago(H),
    isRead: false,
    readAt: null,
    isBookmarked: false,
    reactions: [],
    ...over,
  };
}

function anchor(from: string, to: string, over: Partial<Anchor> = {}): Anchor {
  seq += 1;
  return {
    id: `0190a000-0000-7000-9000-${String(seq).padStart(12, '0')}`,
    userId: from,
    friendId: to,
    user: PEOPLE[from]!,
    friend: PEOPLE[to]!,
    label: null,
    text: 'Ping me when you miss me',
    emoji: '⚓',
    color: '#e35120',
    status: 'accepted',
    createdAt: ago(10 * D),
    respondedAt: null,
    ...over,
  };
}

function request(from: string, createdAt = ago(2 * H)): SyncFriendship {
  seq += 1;
  return {
    id: `0190a000-0000-7000-a000-${String(seq).padStart(12, '0')}`,
    status: 'pending',
    direction: 'received',
    requesterId: from,
    addresseeId: ME,
    otherUserId: from,
    createdAt,
    acceptedAt: null,
    other: { ...PEOPLE[from]!, handle: null, tagline: null },
  };
}

const input = (over: Partial<FeedInput>): FeedInput => ({
  meId: ME,
  now: NOW,
  pings: [],
  friendships: [],
  anchors: [],
  ...over,
});

describe('pingStatus', () => {
  it('a ping I sent: Sent, then Opened once read, then Responded once they reacted', () => {
    const p = ping(ME, ANN);
    expect(pingStatus(p, ME)).toBe('Sent');
    expect(pingStatus({ ...p, isRead: true }, ME)).toBe('Opened');
    const reaction = {
      id: p.id,
      pingId: p.id,
      userId: ANN,
      reactionType: 'heart' as const,
      createdAt: ago(0),
    };
    expect(pingStatus({ ...p, isRead: true, reactions: [reaction] }, ME)).toBe('Responded');
    // My own reaction to my own ping is not a response.
    expect(pingStatus({ ...p, reactions: [{ ...reaction, userId: ME }] }, ME)).toBe('Sent');
  });

  it('a ping of mine the server does not have yet is Waiting to send, then Sent', () => {
    const p = ping(ME, ANN);
    expect(pingStatus({ ...p, pending: true } as typeof p, ME)).toBe('Waiting to send');
    expect(pingStatus(p, ME)).toBe('Sent');
  });

  it('a ping I received: New, then Opened, then Responded once I reacted', () => {
    const p = ping(ANN, ME);
    expect(pingStatus(p, ME)).toBe('New');
    expect(pingStatus({ ...p, isRead: true }, ME)).toBe('Opened');
    const reaction = {
      id: p.id,
      pingId: p.id,
      userId: ME,
      reactionType: 'yes' as const,
      createdAt: ago(0),
    };
    expect(pingStatus({ ...p, reactions: [reaction] }, ME)).toBe('Responded');
  });
});

describe('anchorActivity', () => {
  it('counts the anchor pings an anchored friend sent me in the last 7 days', () => {
    const a = anchor(ANN, ME);
    const pings = [
      ping(ANN, ME, { kind: 'anchor', anchorId: a.id, createdAt: ago(1 * D) }),
      ping(ANN, ME, { kind: 'anchor', anchorId: a.id, createdAt: ago(6 * D) }),
      ping(ANN, ME, { kind: 'anchor', anchorId: a.id, createdAt: ago(8 * D) }), // too old
      ping(ANN, ME, { kind: 'prompt', createdAt: ago(1 * H) }), // not an anchor ping
      ping(ME, ANN, { kind: 'anchor', anchorId: a.id, createdAt: ago(1 * H) }), // mine
    ];
    const [activity, ...rest] = anchorActivity(input({ pings, anchors: [a] }));
    expect(rest).toEqual([]);
    expect(activity).toMatchObject({ count: 2, at: ago(1 * D), person: { id: ANN } });
  });

  it('works whoever asked for the anchor, and ignores pending or declined ones', () => {
    const mine = anchor(ME, BEN);
    const pending = anchor(ANN, ME, { status: 'pending' });
    const pings = [
      ping(BEN, ME, { kind: 'anchor', createdAt: ago(2 * H) }),
      ping(ANN, ME, { kind: 'anchor', createdAt: ago(2 * H) }),
    ];
    const result = anchorActivity(input({ pings, anchors: [mine, pending] }));
    expect(result.map((r) => [r.person.id, r.count])).toEqual([[BEN, 1]]);
  });

  it('says time or times', () => {
    expect(anchorActivityText('Ann Test', 1)).toBe(
      'Ann Test used your Anchor ping 1 time this week',
    );
    expect(anchorActivityText('Ann Test', 3)).toBe(
      'Ann Test used your Anchor ping 3 times this week',
    );
  });
});

describe('notificationFeed', () => {
  it('mixes friend requests, anchor requests, anchor activity and the 5 latest received pings, newest first', () => {
    const received = [1, 2, 3, 4, 5, 6].map((h) =>
      ping(ANN, ME, { createdAt: ago(h * H + 30 * 60_000) }),
    );
    const sentByMe = ping(ME, ANN, { createdAt: ago(1000) });
    const friendRequest = request(BEN, ago(3 * D));
    const anchorRequest = anchor(BEN, ME, { status: 'pending', createdAt: ago(10 * 60_000) });
    const myOwnRequest = anchor(ME, ANN, { status: 'pending', createdAt: ago(60_000) });
    const items = notificationFeed(
      input({
        pings: [...received, sentByMe],
        friendships: [friendRequest, { ...request(ANN), direction: 'sent' }],
        anchors: [anchorRequest, myOwnRequest],
      }),
    );
    expect(items.map((i) => i.kind)).toEqual([
      'anchor_request',
      'ping',
      'ping',
      'ping',
      'ping',
      'ping',
      'friend_request',
    ]);
    expect(items[0]!.id).toBe(`anchor_request_${anchorRequest.id}`);
    expect(items.at(-1)!.id).toBe(`friend_request_${friendRequest.id}`);
    const first = items[1]!;
    expect(first.kind === 'ping' && first.text).toBe('Ann Test sent you a ping: I need a hug');
    // The 6th received ping (the oldest) is left out.
    expect(items.some((i) => i.kind === 'ping' && i.ping.id === received[5]!.id)).toBe(false);
  });

  it('rewrites a prompt from first person and leaves custom text as it is', () => {
    const items = notificationFeed(
      input({
        pings: [
          ping(ANN, ME, {
            prompt: { id: null, text: "Ping me when you're proud of me", emoji: '🌟' },
          }),
          ping(BEN, ME, {
            prompt: null,
            customText: 'Coffee at 5?',
            customEmoji: '☕',
            createdAt: ago(2 * H),
          }),
        ],
      }),
    );
    expect(items.map((i) => i.kind === 'ping' && i.text)).toEqual([
      "Ann Test sent you a ping: I'm proud of you",
      'Ben Test sent you a ping: Coffee at 5?',
    ]);
  });
});

describe('activityItems and filterActivity', () => {
  it('lists sent and received pings with their status labels and a first-ping milestone per friend', () => {
    const toAnn = ping(ME, ANN, { createdAt: ago(3 * H), isRead: true });
    const fromAnn = ping(ANN, ME, { createdAt: ago(1 * H) });
    const items = activityItems(input({ pings: [toAnn, fromAnn] }));
    expect(items.map((i) => [i.kind, i.status])).toEqual([
      ['ping_received', 'New'],
      ['first_ping', 'Achievement'],
      ['ping_sent', 'Opened'],
    ]);
    expect(items[1]!.text).toBe('First ping with Ann Test');
    expect(items[2]!.text).toBe('You pinged Ann Test: Ping me when you need a hug');
  });

  it('adds the milestone at the 100th sent ping, dated by that ping', () => {
    const sent = Array.from({ length: 100 }, (_, i) =>
      ping(ME, ANN, { createdAt: ago((200 - i) * H) }),
    );
    const items = activityItems(input({ pings: sent.slice(0, 99) }));
    expect(items.some((i) => i.kind === 'milestone')).toBe(false);
    const all = activityItems(input({ pings: sent }));
    const milestone = all.find((i) => i.kind === 'milestone');
    expect(milestone).toMatchObject({ status: 'Achievement', at: sent[99]!.createdAt });
    expect(milestone!.text).toBe('You sent your 100th ping!');
  });

  it('lists anchor activity and bookmarked pings with their labels', () => {
    const a = anchor(ANN, ME);
    const pings = [
      ping(ANN, ME, { kind: 'anchor', anchorId: a.id, createdAt: ago(2 * H), isBookmarked: true }),
    ];
    const moments = [
      { id: a.id, pingId: pings[0]!.id, title: 't', description: null, createdAt: ago(H) },
    ];
    const items = activityItems(input({ pings, anchors: [a], moments }));
    expect(items.map((i) => i.status)).toEqual([
      'Bookmarked',
      'Anchor Activity',
      'Achievement',
      'New',
    ]);
    expect(items[1]!.text).toBe('Ann Test used your Anchor ping 1 time this week');
    expect(items[0]!.text).toBe("You bookmarked Ann Test's ping: I need a hug");
  });

  it('filters: Sent only mine, Received without anchor pings, Anchors only anchor activity', () => {
    const a = anchor(ANN, ME);
    const pings = [
      ping(ME, ANN, { createdAt: ago(5 * H) }),
      ping(ANN, ME, { createdAt: ago(4 * H) }),
      ping(ANN, ME, { kind: 'anchor', anchorId: a.id, createdAt: ago(3 * H) }),
    ];
    const items = activityItems(input({ pings, anchors: [a] }));
    expect(filterActivity(items, 'all')).toHaveLength(5);
    expect(filterActivity(items, 'sent').map((i) => i.ping!.id)).toEqual([pings[0]!.id]);
    expect(filterActivity(items, 'received').map((i) => i.ping!.id)).toEqual([pings[1]!.id]);
    expect(filterActivity(items, 'anchors').map((i) => i.kind)).toEqual(['anchor_activity']);
  });

  it('ignores pings between other people', () => {
    expect(activityItems(input({ pings: [ping(ANN, BEN)] }))).toEqual([]);
  });
});
