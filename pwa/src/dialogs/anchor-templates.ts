/**
 * The anchor dialog's eight templates (spec sections 2 and 9) and the pure rules of creating an
 * anchor: who counts as "already anchored", which friend the dialog picks, and whether the
 * server will auto-accept (the friend already asked you).
 */
import { ANCHOR_STATUSES, LIMITS, type Anchor } from '@pingme/shared';

export interface AnchorTemplate {
  id: string;
  /** What the tile says. */
  label: string;
  /** The anchor text; sent later as a custom ping, rewritten by anchorCustomRewrite. */
  text: string;
  emoji: string;
  color: string;
}

/** Written so that anchorCustomRewrite reads naturally ('… you're feeling low' → "I'm feeling low"). */
export const ANCHOR_TEMPLATES: readonly AnchorTemplate[] = [
  {
    id: 'miss-me',
    label: 'Miss me',
    text: 'Ping me when you miss our time together',
    emoji: '💕',
    color: '#db2777',
  },
  {
    id: 'need-me',
    label: 'Need me',
    text: 'Ping me when you need a hand',
    emoji: '🤝',
    color: '#e35120',
  },
  {
    id: 'free-for-chai',
    label: 'Free for chai',
    text: "Ping me when you're free for chai",
    emoji: '☕',
    color: '#a16207',
  },
  {
    id: 'need-to-vent',
    label: 'Need to vent',
    text: 'Ping me when you need to vent',
    emoji: '💬',
    color: '#7c3aed',
  },
  {
    id: 'want-to-celebrate',
    label: 'Want to celebrate',
    text: 'Ping me when you want to celebrate',
    emoji: '🎉',
    color: '#ca8a04',
  },
  {
    id: 'feeling-low',
    label: 'Feeling low',
    text: "Ping me when you're feeling low",
    emoji: '💙',
    color: '#2563eb',
  },
  {
    id: 'proud-of-something',
    label: 'Proud of something',
    text: "Ping me when you're proud of something",
    emoji: '🌟',
    color: '#d97706',
  },
  {
    id: 'want-company',
    label: 'Want company',
    text: 'Ping me when you want company',
    emoji: '🫂',
    color: '#059669',
  },
];

type AnchorLike = Pick<Anchor, 'userId' | 'friendId' | 'status'>;

const ACTIVE: readonly (typeof ANCHOR_STATUSES)[number][] = ['pending', 'accepted'];

/** Pending or accepted anchors the person is part of, whoever asked (they count to the limit). */
export function activeAnchors<A extends AnchorLike>(anchors: readonly A[], meId: string): A[] {
  return anchors.filter(
    (a) => ACTIVE.includes(a.status) && (a.userId === meId || a.friendId === meId),
  );
}

/** The other person of an anchor. */
export function anchorPartnerId(anchor: Pick<Anchor, 'userId' | 'friendId'>, meId: string) {
  return anchor.userId === meId ? anchor.friendId : anchor.userId;
}

/** The friend's pending request to me, which creating an anchor with them accepts at once. */
export function incomingRequest<A extends AnchorLike>(
  anchors: readonly A[],
  meId: string,
  friendId: string,
): A | undefined {
  return anchors.find(
    (a) => a.status === 'pending' && a.userId === friendId && a.friendId === meId,
  );
}

export type AnchorTarget =
  | { kind: 'ok'; friendId: string; autoAccept: boolean }
  | { kind: 'limit' }
  | { kind: 'no-friends' }
  | { kind: 'already'; friendId: string };

/**
 * Which friend the dialog creates the anchor with (spec section 5): the given friend, else the
 * first friend without an anchor, else a friend whose request waits for you (creating it accepts
 * theirs). Accepting a request never counts against the limit (it is already counted), so that
 * case wins over the limit.
 */
export function chooseAnchorTarget(
  friends: readonly { id: string }[],
  anchors: readonly AnchorLike[],
  meId: string,
  wanted?: string,
): AnchorTarget {
  const active = activeAnchors(anchors, meId);
  const anchored = new Set(active.map((a) => anchorPartnerId(a, meId)));
  const asking = friends.find((f) => incomingRequest(anchors, meId, f.id));
  if (wanted && incomingRequest(anchors, meId, wanted)) {
    return { kind: 'ok', friendId: wanted, autoAccept: true };
  }
  if (active.length >= LIMITS.anchors) {
    return !wanted && asking
      ? { kind: 'ok', friendId: asking.id, autoAccept: true }
      : { kind: 'limit' };
  }
  if (wanted && friends.some((f) => f.id === wanted)) {
    return anchored.has(wanted)
      ? { kind: 'already', friendId: wanted }
      : { kind: 'ok', friendId: wanted, autoAccept: false };
  }
  const free = friends.find((f) => !anchored.has(f.id));
  if (free) return { kind: 'ok', friendId: free.id, autoAccept: false };
  return asking ? { kind: 'ok', friendId: asking.id, autoAccept: true } : { kind: 'no-friends' };
}

/** Friends the person may pick in the dialog: those without an anchor, plus `keep`. */
export function selectableFriends<F extends { id: string }>(
  friends: readonly F[],
  anchors: readonly AnchorLike[],
  meId: string,
  keep?: string,
): F[] {
  const anchored = new Set(activeAnchors(anchors, meId).map((a) => anchorPartnerId(a, meId)));
  return friends.filter((f) => f.id === keep || !anchored.has(f.id));
}
