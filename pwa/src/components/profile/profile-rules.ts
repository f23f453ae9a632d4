/** Pure rules of the profile screens (spec section 2, "Profile"). */
import { displayName, truncateLabel, type Anchor } from '@pingme/shared';

export type ProfileRelation = 'self' | 'friends' | 'request_sent' | 'request_received' | 'none';

/**
 * The extended view is shown when the profile is the viewer's own or a friend's AND it has a
 * handle, bio or status; otherwise the simple view.
 */
export function isExtendedProfile(
  relation: ProfileRelation | undefined,
  fields: { handle?: string | null; bio?: string | null; status?: string | null } | null,
): boolean {
  if (relation !== 'self' && relation !== 'friends') return false;
  return Boolean(fields?.handle?.trim() || fields?.bio?.trim() || fields?.status?.trim());
}

/** Only the person themself and their friends see handle, bio, e-mail, moments, anchors... */
export function seesFullProfile(relation: ProfileRelation | undefined): boolean {
  return relation === 'self' || relation === 'friends';
}

/**
 * What an anchor shows under the friend's avatar: its label cut at 20 characters plus '...',
 * else the friend's first name (else their display name).
 */
export function anchorCaption(
  anchor: Pick<Anchor, 'label'>,
  partner: { firstName?: string | null; lastName?: string | null; email?: string | null },
): string {
  const label = anchor.label?.trim();
  if (label) return truncateLabel(label);
  return partner.firstName?.trim() || displayName(partner);
}

/** A link the person typed, safe to put in href: only http(s). */
export function safeLink(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The link as shown: without the scheme and a trailing slash. */
export function linkText(link: string): string {
  return link.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

/** 'HH:MM' for a time input from a stored value (null or '' → ''). */
export function clockValue(value: string | null | undefined): string {
  return value && /^\d{2}:\d{2}$/.test(value) ? value : '';
}

/** A date as the person's locale writes it (moments, badges). */
export function shortDate(iso: string, locale?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}

const WEEK_MS = 7 * 24 * 3_600_000;

interface PingLike {
  senderId: string;
  receiverId: string;
  createdAt: string;
  prompt: { text: string } | null;
  customText?: string | null;
}

/**
 * A friend's Overview "this week" from the pings the viewer shares with them (the server's
 * metrics are only ever the caller's own): pings the friend sent to the viewer and received from
 * them in the last 7 × 24 h, and the 3 texts used most (ties: the most recent first).
 */
export function weekTogether(
  pings: readonly PingLike[],
  meId: string,
  friendId: string,
  now: number = Date.now(),
): { sent: number; received: number; themes: string[] } {
  const recent = pings
    .filter((p) => now - Date.parse(p.createdAt) <= WEEK_MS)
    .filter(
      (p) =>
        (p.senderId === friendId && p.receiverId === meId) ||
        (p.senderId === meId && p.receiverId === friendId),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const counts = new Map<string, number>();
  for (const p of recent) {
    const text = p.prompt?.text ?? p.customText ?? '';
    if (text) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const themes = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([text]) => text);
  return {
    sent: recent.filter((p) => p.senderId === friendId).length,
    received: recent.filter((p) => p.receiverId === friendId).length,
    themes,
  };
}
