/** Pure domain rules both sides need. No I/O here. */
import { LIMITS } from './constants';

export interface NameParts {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** First name plus last name; else the part of the e-mail before the @; finally 'Friend'. */
export function displayName(user: NameParts | null | undefined): string {
  const first = user?.firstName?.trim();
  if (first) {
    const last = user?.lastName?.trim();
    return last ? `${first} ${last}` : first;
  }
  const prefix = user?.email?.split('@')[0]?.trim();
  if (prefix) return prefix;
  return 'Friend';
}

/** Lower-cased, only a-z, 0-9 and underscore kept, at most 30 characters. */
export function normalizeUsername(input: string): string {
  return input
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, LIMITS.usernameMax);
}

/** A username is acceptable when normalising leaves it unchanged and it has 3 to 30 characters. */
export function isValidUsername(input: string): boolean {
  return (
    normalizeUsername(input) === input &&
    input.length >= LIMITS.usernameMin &&
    input.length <= LIMITS.usernameMax
  );
}

/** Quiet hours are 'HH:MM' strings; a window may cross midnight. */
export function isWithinQuietHours(
  start: string | null | undefined,
  end: string | null | undefined,
  minutesOfDay: number,
): boolean {
  if (!start || !end) return false;
  const s = toMinutes(start);
  const e = toMinutes(end);
  if (s === null || e === null || s === e) return false;
  return s < e ? minutesOfDay >= s && minutesOfDay < e : minutesOfDay >= s || minutesOfDay < e;
}

function toMinutes(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** An uploaded photo's URL as the server stores it: `/uploads/<uuid>.<ext>`. */
const UPLOADED_PHOTO = /^\/uploads\/([0-9a-f-]{36})\.(?:jpg|png|gif|webp)$/;

/**
 * The small copy (LIMITS.avatarSmallPx, WebP) the server keeps beside an uploaded photo,
 * `/uploads/<uuid>-<px>.webp`; null for any other URL (an OpenID provider's avatar).
 */
export function smallPhotoUrl(url: string | null | undefined): string | null {
  const m = url ? UPLOADED_PHOTO.exec(url) : null;
  return m ? `/uploads/${m[1]}-${LIMITS.avatarSmallPx}.webp` : null;
}
