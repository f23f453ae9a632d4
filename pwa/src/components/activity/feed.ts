/**
 * What the Activity and Notifications screens list, derived from the device's tables (spec
 * section 2, "Activity and notifications"). Pure: the screens pass Dexie rows and the clock in,
 * so every rule (kinds, status labels, filters, milestones, anchor activity) is unit-tested here.
 */
import {
  LIMITS,
  activityView,
  displayName,
  type Anchor,
  type Moment,
  type Ping,
  type SyncFriendship,
} from '@pingme/shared';
import {
  anchorRequestNotificationId,
  friendRequestNotificationId,
} from '../../notifications/viewed';
import { pingEmoji, pingText, sentText } from '../../lib/ping-text';
import { isPending } from '../../sync/local-write';

const DAY_MS = 86_400_000;

/** A person as the feed shows them (name and avatar). */
export interface FeedPerson {
  id: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  email?: string | null;
}

export interface FeedInput {
  meId: string;
  now: number;
  pings: readonly Ping[];
  friendships: readonly SyncFriendship[];
  anchors: readonly Anchor[];
  moments?: readonly Moment[];
}

// ── Shared pieces ──────────────────────────────────────────────────────────────────────

const time = (iso: string) => new Date(iso).getTime();
const newestFirst = <T extends { at: string }>(a: T, b: T) => time(b.at) - time(a.at);

/** The other person of an anchor, seen from `meId`. */
export function anchorOther(anchor: Anchor, meId: string): FeedPerson {
  return anchor.userId === meId ? anchor.friend : anchor.user;
}

/** Pending friend requests sent to me, newest first. */
export function receivedRequests(friendships: readonly SyncFriendship[]): SyncFriendship[] {
  return friendships
    .filter((f) => f.status === 'pending' && f.direction === 'received')
    .sort((a, b) => time(b.createdAt) - time(a.createdAt));
}

/** Pending anchor requests I was asked to answer, newest first. */
export function anchorRequests(anchors: readonly Anchor[], meId: string): Anchor[] {
  return anchors
    .filter((a) => a.status === 'pending' && a.friendId === meId)
    .sort((a, b) => time(b.createdAt) - time(a.createdAt));
}

/** Accepted anchors, whoever asked, newest first. */
export function activeAnchors(anchors: readonly Anchor[]): Anchor[] {
  return anchors
    .filter((a) => a.status === 'accepted')
    .sort((a, b) => time(b.createdAt) - time(a.createdAt));
}

export interface AnchorActivity {
  id: string;
  anchor: Anchor;
  person: FeedPerson;
  count: number;
  /** The latest of those pings. */
  at: string;
}

/**
 * Per accepted anchor: how many anchor pings its other person sent me in the last 7 days
 * (LIMITS.anchorActivityWindowDays). Anchors without any are left out.
 */
export function anchorActivity(input: FeedInput): AnchorActivity[] {
  const since = input.now - LIMITS.anchorActivityWindowDays * DAY_MS;
  const out: AnchorActivity[] = [];
  for (const anchor of activeAnchors(input.anchors)) {
    const other = anchorOther(anchor, input.meId);
    const used = input.pings.filter(
      (p) =>
        p.kind === 'anchor' &&
        p.senderId === other.id &&
        p.receiverId === input.meId &&
        time(p.createdAt) > since &&
        time(p.createdAt) <= input.now,
    );
    if (used.length === 0) continue;
    const at = used.map((p) => p.createdAt).sort((a, b) => time(b) - time(a))[0]!;
    out.push({ id: `anchor_activity_${anchor.id}`, anchor, person: other, count: used.length, at });
  }
  return out.sort(newestFirst);
}

export function anchorActivityText(name: string, count: number): string {
  return `${name} used your Anchor ping ${count} ${count === 1 ? 'time' : 'times'} this week`;
}

// ── Notifications (the mixed list) ──────────────────────────────────────────────────────

export type NotificationItem =
  | { kind: 'friend_request'; id: string; at: string; person: FeedPerson; request: SyncFriendship }
  | { kind: 'anchor_request'; id: string; at: string; person: FeedPerson; anchor: Anchor }
  | { kind: 'anchor_activity'; id: string; at: string; person: FeedPerson; count: number }
  | { kind: 'ping'; id: string; at: string; person: FeedPerson; ping: Ping; text: string };

/**
 * Friend requests, anchor requests, anchor activity and the 5 latest pings I received
 * (LIMITS.activityLatestPings), newest first.
 */
export function notificationFeed(input: FeedInput): NotificationItem[] {
  const items: NotificationItem[] = [];
  for (const request of receivedRequests(input.friendships)) {
    items.push({
      kind: 'friend_request',
      id: friendRequestNotificationId(request.id),
      at: request.createdAt,
      person: request.other,
      request,
    });
  }
  for (const anchor of anchorRequests(input.anchors, input.meId)) {
    items.push({
      kind: 'anchor_request',
      id: anchorRequestNotificationId(anchor.id),
      at: anchor.createdAt,
      person: anchor.user,
      anchor,
    });
  }
  for (const a of anchorActivity(input)) {
    items.push({ kind: 'anchor_activity', id: a.id, at: a.at, person: a.person, count: a.count });
  }
  const received = input.pings
    .filter((p) => p.receiverId === input.meId)
    .sort((a, b) => time(b.createdAt) - time(a.createdAt) || (b.id > a.id ? 1 : -1))
    .slice(0, LIMITS.activityLatestPings);
  for (const ping of received) {
    items.push({
      kind: 'ping',
      id: `ping_${ping.id}`,
      at: ping.createdAt,
      person: ping.sender,
      ping,
      text: `${displayName(ping.sender)} sent you a ping: ${activityView(sentText(ping))}`,
    });
  }
  return items.sort(newestFirst);
}

// ── Activity (the screen's Recent Pings tab) ────────────────────────────────────────────

export const ACTIVITY_FILTERS = ['all', 'sent', 'received', 'anchors'] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];

export type ActivityStatus =
  | 'Waiting to send'
  | 'Sent'
  | 'Opened'
  | 'Responded'
  | 'New'
  | 'Achievement'
  | 'Anchor Activity'
  | 'Bookmarked';

export type ActivityKind =
  'ping_sent' | 'ping_received' | 'milestone' | 'first_ping' | 'anchor_activity' | 'bookmarked';

export interface ActivityItem {
  id: string;
  kind: ActivityKind;
  at: string;
  person: FeedPerson | null;
  text: string;
  emoji: string;
  status: ActivityStatus;
  ping?: Ping;
}

/**
 * A ping's display status (spec section 4): sent (mine) or new (theirs), then opened once read,
 * then responded once the person it went to reacted. A ping of mine the server does not have yet
 * is 'Waiting to send', never 'Sent'.
 */
export function pingStatus(
  ping: Ping,
  meId: string,
): 'Waiting to send' | 'Sent' | 'New' | 'Opened' | 'Responded' {
  const mine = ping.senderId === meId;
  if (mine && isPending(ping)) return 'Waiting to send';
  const responder = mine ? ping.receiverId : meId;
  if (ping.reactions.some((r) => r.userId === responder)) return 'Responded';
  if (ping.isRead) return 'Opened';
  return mine ? 'Sent' : 'New';
}

function pingItem(ping: Ping, meId: string): ActivityItem {
  const mine = ping.senderId === meId;
  const other = mine ? ping.receiver : ping.sender;
  const text = pingText(ping, meId);
  return {
    id: `ping_${ping.id}`,
    kind: mine ? 'ping_sent' : 'ping_received',
    at: ping.createdAt,
    person: other,
    text: mine
      ? `You pinged ${displayName(other)}: ${text}`
      : `${displayName(other)} sent you a ping: ${activityView(sentText(ping))}`,
    emoji: pingEmoji(ping),
    status: pingStatus(ping, meId),
    ping,
  };
}

/** The milestone at the 100th ping I sent (LIMITS.milestoneSentPings), dated by that ping. */
function milestoneItems(pings: readonly Ping[], meId: string): ActivityItem[] {
  const sent = pings
    .filter((p) => p.senderId === meId)
    .sort((a, b) => time(a.createdAt) - time(b.createdAt) || (a.id < b.id ? -1 : 1));
  const nth = sent[LIMITS.milestoneSentPings - 1];
  if (!nth) return [];
  return [
    {
      id: `milestone_${LIMITS.milestoneSentPings}`,
      kind: 'milestone',
      at: nth.createdAt,
      person: null,
      text: `You sent your ${LIMITS.milestoneSentPings}th ping!`,
      emoji: '🏆',
      status: 'Achievement',
    },
  ];
}

/** One 'first ping with a friend' milestone per person: the earliest ping between us. */
function firstPingItems(pings: readonly Ping[], meId: string): ActivityItem[] {
  const first = new Map<string, Ping>();
  for (const p of pings) {
    const otherId = p.senderId === meId ? p.receiverId : p.senderId;
    const seen = first.get(otherId);
    if (!seen || time(p.createdAt) < time(seen.createdAt)) first.set(otherId, p);
  }
  return [...first.values()].map((p) => {
    const other = p.senderId === meId ? p.receiver : p.sender;
    return {
      id: `first_ping_${other.id}`,
      kind: 'first_ping' as const,
      at: p.createdAt,
      person: other,
      text: `First ping with ${displayName(other)}`,
      emoji: '✨',
      status: 'Achievement' as const,
      ping: p,
    };
  });
}

function bookmarkItems(input: FeedInput): ActivityItem[] {
  const momentOf = new Map((input.moments ?? []).map((m) => [m.pingId, m]));
  return input.pings
    .filter((p) => p.isBookmarked)
    .map((p) => {
      const other = p.senderId === input.meId ? p.receiver : p.sender;
      return {
        id: `bookmarked_${p.id}`,
        kind: 'bookmarked' as const,
        at: momentOf.get(p.id)?.createdAt ?? p.createdAt,
        person: other,
        text:
          p.senderId === input.meId
            ? `You bookmarked your ping to ${displayName(other)}: ${sentText(p)}`
            : `You bookmarked ${displayName(other)}'s ping: ${activityView(sentText(p))}`,
        emoji: '🔖',
        status: 'Bookmarked' as const,
        ping: p,
      };
    });
}

/** At the same moment: the summary before the ping it sums up, then the later id. */
const KIND_ORDER: Record<ActivityKind, number> = {
  bookmarked: 0,
  anchor_activity: 1,
  milestone: 2,
  first_ping: 3,
  ping_received: 4,
  ping_sent: 4,
};

/** Every activity item, newest first (ties: KIND_ORDER, then the later id; UUIDv7 sorts by time). */
export function activityItems(input: FeedInput): ActivityItem[] {
  const mine = input.pings.filter((p) => p.senderId === input.meId || p.receiverId === input.meId);
  const items = [
    ...mine.map((p) => pingItem(p, input.meId)),
    ...milestoneItems(mine, input.meId),
    ...firstPingItems(mine, input.meId),
    ...anchorActivity(input).map((a): ActivityItem => ({
      id: a.id,
      kind: 'anchor_activity',
      at: a.at,
      person: a.person,
      text: anchorActivityText(displayName(a.person), a.count),
      emoji: a.anchor.emoji,
      status: 'Anchor Activity',
    })),
    ...bookmarkItems(input),
  ];
  return items.sort(
    (a, b) =>
      time(b.at) - time(a.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (b.id > a.id ? 1 : -1),
  );
}

/**
 * The filter chips: All; Sent (pings I sent); Received (pings I received, anchor pings left
 * out); Anchors (anchor activity; the screen lists anchor requests and active anchors there too).
 */
export function filterActivity(items: readonly ActivityItem[], filter: ActivityFilter) {
  switch (filter) {
    case 'sent':
      return items.filter((i) => i.kind === 'ping_sent');
    case 'received':
      return items.filter((i) => i.kind === 'ping_received' && i.ping?.kind !== 'anchor');
    case 'anchors':
      return items.filter((i) => i.kind === 'anchor_activity');
    default:
      return [...items];
  }
}
