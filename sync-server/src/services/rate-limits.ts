/**
 * Fixed-window throttles stored in SQLite (db/rate-limits.ts), so they survive restarts and hold
 * across several server processes sharing one database. Limits and windows come from config
 * (README "Configuration"); each refusal is a 429 `rate_limited` with `Retry-After` in seconds.
 * docs/security.md "Rate limits".
 */
import type { RateLimit } from '../config';
import type { Db } from '../db/connection';
import { hitBucket } from '../db/rate-limits';
import { tooMany } from '../errors';

/** "45 seconds", "1 minute", "12 minutes". */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/**
 * Counts one attempt against `bucket`; over `limit.max` within the window it answers 429 with
 * `what` ("Too many searches") and how long to wait. Call it outside `mutate` (it commits its
 * own count, so refused attempts count too).
 */
export async function throttle(
  db: Db,
  bucket: string,
  limit: RateLimit,
  what: string,
  now = Date.now(),
): Promise<void> {
  const b = await hitBucket(db, bucket, limit.windowMs, now);
  if (b.count <= limit.max) return;
  const wait = (b.resetAt - now) / 1000;
  throw tooMany(`${what}. Please wait ${waitText(wait)} and try again.`, wait);
}

/** The buckets the throttles use, in one place (account deletion clears a person's). */
export const buckets = {
  signupIp: (ip: string) => `signup:ip:${ip}`,
  resetPair: (email: string, ip: string) => `reset:pair:${email.toLowerCase()}|${ip}`,
  resetIp: (ip: string) => `reset:ip:${ip}`,
  resetMails: (email: string) => `reset:mails:${email.toLowerCase()}`,
  verifyPair: (email: string, ip: string) => `verify:pair:${email.toLowerCase()}|${ip}`,
  verifyIp: (ip: string) => `verify:ip:${ip}`,
  verifyMails: (email: string) => `verify:mails:${email.toLowerCase()}`,
  search: (userId: string) => `search:user:${userId}`,
  inviteCheck: (userId: string) => `invite-check:user:${userId}`,
  inviteUse: (userId: string) => `invite-use:user:${userId}`,
  report: (userId: string) => `report:user:${userId}`,
  // Wrong-password counts (services/sign-in-throttle.ts).
  loginPair: (email: string, ip: string) => `login:pair:${email.toLowerCase()}|${ip}`,
  loginDevice: (userId: string, device: string) => `login:device:${userId}|${device}`,
  loginAccount: (email: string) => `login:account:${email.toLowerCase()}`,
  loginIp: (ip: string) => `login:ip:${ip}`,
};

/** Every bucket that names this person (by id or e-mail): exact names and name prefixes. */
export function personBuckets(
  userId: string,
  email: string,
): { exact: string[]; prefixes: string[] } {
  const e = email.toLowerCase();
  return {
    exact: [
      buckets.loginAccount(email),
      buckets.resetMails(email),
      buckets.verifyMails(email),
      buckets.search(userId),
      buckets.inviteCheck(userId),
      buckets.inviteUse(userId),
      buckets.report(userId),
    ],
    prefixes: [
      `login:pair:${e}|`,
      `login:device:${userId}|`,
      `reset:pair:${e}|`,
      `verify:pair:${e}|`,
    ],
  };
}

/**
 * Counts one request against `bucket` and answers whether it is still within `limit` (for a
 * limit whose excess is not refused, such as the mails one address receives).
 */
export async function withinLimit(
  db: Db,
  bucket: string,
  limit: RateLimit,
  now = Date.now(),
): Promise<boolean> {
  return (await hitBucket(db, bucket, limit.windowMs, now)).count <= limit.max;
}
