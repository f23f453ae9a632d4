/**
 * Pure text rules the PWA and the server share (spec sections 2, 5 and 9). No I/O here.
 */
import { BADGE_CAPS, DEFAULT_PROMPT_EMOJI, LIMITS } from './constants';

const PING_ME_WHEN = /^\s*ping me when\s+/i;

/** Keeps the look of the word it replaces: 'You' stays capitalised, 'YOU' stays upper case. */
function matchCase(original: string, replacement: string): string {
  if (replacement === 'I' || replacement.startsWith("I'")) return replacement;
  if (original.length > 1 && original === original.toUpperCase() && /[A-Z]/.test(original))
    return replacement.toUpperCase();
  if (/^[A-Z]/.test(original)) return replacement[0]!.toUpperCase() + replacement.slice(1);
  return replacement;
}

/**
 * Replaces whole words in one pass, so a swap never feeds into another (you→I and I→you at once).
 * Keys are lower case; "you're" matches both the straight and the curly apostrophe.
 */
function swapWords(text: string, table: Record<string, string>): string {
  const words = Object.keys(table)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/'/g, "['’]"));
  const re = new RegExp(`(?<![\\w'’])(${words.join('|')})(?!\\w)`, 'gi');
  return text.replace(re, (m: string) => {
    const key = m.toLowerCase().replace(/’/g, "'");
    const rep = table[key];
    if (rep === undefined) return m;
    // 'I' is written upper case whatever the case of the word it replaces; any other word
    // replacing a lone upper-case 'I' is lower case unless it starts the text.
    if (m === 'I' || /^I['’]/.test(m)) return rep;
    return matchCase(m, rep);
  });
}

/** Upper-cases the first letter, for a rewritten text that now starts a sentence. */
function capitalise(text: string): string {
  return text.replace(/^(\s*)(\p{Ll})/u, (_, ws: string, c: string) => ws + c.toUpperCase());
}

/**
 * What the receiver of a prompt ping reads (spec section 5, "Prompt rewriting"). For a text that
 * starts 'Ping me when ' (any case), "you're" becomes "I'm", "you" becomes "I" and "me" becomes
 * "you", as whole words in one pass. Any other text is returned unchanged.
 */
export function receiverView(text: string): string {
  if (!PING_ME_WHEN.test(text)) return text;
  return capitalise(swapWords(text, { "you're": "I'm", you: 'I', me: 'you' }));
}

/**
 * A ping's text in the activity feed ("Ann sent you a ping: I need a hug"). For a text that
 * starts 'ping me when ' (any case) the prefix is dropped and first and second person swap
 * (you/I, you're/I'm, me→you, your/my). A text without the prefix (custom pings are already
 * written by their sender in the first person) is returned unchanged.
 */
export function activityView(text: string): string {
  if (!PING_ME_WHEN.test(text)) return text;
  const rest = text.replace(PING_ME_WHEN, '');
  return capitalise(
    swapWords(rest, {
      "you're": "I'm",
      "i'm": "you're",
      you: 'I',
      i: 'you',
      me: 'you',
      your: 'my',
      my: 'your',
    }),
  );
}

/**
 * The text of a custom ping sent from an anchor (spec section 5): when it starts 'ping me when'
 * (any case), the prefix is stripped, 'you' becomes 'I' and 'your' becomes 'my' ("you're" becomes
 * "I'm" so the result stays grammatical). Any other text is returned trimmed and otherwise as is.
 */
export function anchorCustomRewrite(text: string): string {
  const m = /^\s*ping me when\b\s*/i.exec(text);
  if (!m) return text.trim();
  const rest = text.slice(m[0].length).trim();
  return capitalise(swapWords(rest, { "you're": "I'm", you: 'I', your: 'my' }));
}

/** Keyword → emoji, checked in this order (spec section 5, "Emoji fallback by keyword"). */
export const EMOJI_KEYWORDS: readonly (readonly [string, string])[] = [
  ['hug', '🤗'],
  ['proud', '🌟'],
  ['miss', '💕'],
  ['support', '🤝'],
  ['talk', '💬'],
  ['celebrate', '🎉'],
  ['love', '❤️'],
  ['adventure', '🗺️'],
];

/** The emoji for a text without one: the first keyword it contains (any case), else 💭. */
export function emojiFor(text: string): string {
  const lower = text.toLowerCase();
  for (const [word, emoji] of EMOJI_KEYWORDS) if (lower.includes(word)) return emoji;
  return DEFAULT_PROMPT_EMOJI;
}

export type RelativeTimeVariant = 'ping' | 'home' | 'notification';

/**
 * Relative time (spec section 9).
 * - 'ping': 'just now' under 1 minute, 'Nm ago' under 60 minutes, 'Nh ago' under 24 hours, else 'Nd ago'.
 * - 'home': 'just now' under 1 hour, then 'Nh ago', 'Nd ago'.
 * - 'notification': 'now', 'Nm', 'Nh', 'Nd'.
 * A time in the future (a device clock ahead of the server) counts as now.
 */
export function relativeTime(
  date: Date | string | number,
  now: Date | string | number = Date.now(),
  variant: RelativeTimeVariant = 'ping',
): string {
  const t = new Date(date).getTime();
  const n = new Date(now).getTime();
  const diff = Number.isFinite(t) && Number.isFinite(n) ? Math.max(0, n - t) : 0;
  const minutes = Math.floor(diff / 60_000);
  const hours = Math.floor(diff / 3_600_000);
  const days = Math.floor(diff / 86_400_000);
  switch (variant) {
    case 'home':
      if (hours < 1) return 'just now';
      return hours < 24 ? `${hours}h ago` : `${days}d ago`;
    case 'notification':
      if (minutes < 1) return 'now';
      if (minutes < 60) return `${minutes}m`;
      return hours < 24 ? `${hours}h` : `${days}d`;
    default:
      if (minutes < 1) return 'just now';
      if (minutes < 60) return `${minutes}m ago`;
      return hours < 24 ? `${hours}h ago` : `${days}d ago`;
  }
}

/**
 * An anchor label cut at `max` characters (default 20) with '...' appended when it was longer.
 * Counts user-perceived characters, so an emoji is never split.
 */
export function truncateLabel(label: string, max: number = LIMITS.anchorLabelMax): string {
  const chars = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(label)].map(
    (s) => s.segment,
  );
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : label;
}

/** Friendship strength labels (spec section 9). */
export function strengthLabel(strength: number): string {
  switch (strength) {
    case 5:
      return 'Best Friends';
    case 4:
      return 'Close Friends';
    case 3:
      return 'Good Friends';
    case 2:
      return 'Friends';
    default:
      return 'New Friends';
  }
}

/** A count badge: the number, or '{cap}+' above the cap ('99+' unread, '9+' friend requests). */
export function capBadge(n: number, cap: number = BADGE_CAPS.unread): string {
  return n > cap ? `${cap}+` : String(Math.max(0, Math.floor(n)));
}

/**
 * Which of the 4 tile gradients a prompt gets (spec section 9, "by prompt id modulo 4"). Ids are
 * UUIDs, so a number id is taken modulo 4 and a string id is hashed first (32-bit FNV-1a): the
 * same id gets the same colour on every device.
 */
export function tileColorIndex(id: string | number, buckets = 4): number {
  if (typeof id === 'number') return ((Math.trunc(id) % buckets) + buckets) % buckets;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}
