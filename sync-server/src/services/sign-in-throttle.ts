/**
 * Slowing down password guessing without letting a stranger lock anyone out (docs/security.md,
 * "Sign-in throttling"; OWASP Authentication Cheat Sheet: per account and client address,
 * growing delays instead of lockouts, device cookies). Counts live in SQLite
 * (db/rate-limits.ts), so they hold across restarts and processes.
 *
 * Every password check (sign-in, and the current password that change-password and account
 * deletion ask for) is one attempt by a client on an account:
 *
 * 1. The client is a **known device** when it carries the signed `pingme.device` cookie naming
 *    this account (set when it signed in or signed up with it). Its wrong passwords count for
 *    that device and account only; nobody else's failures ever slow it down.
 * 2. Any other client is counted per **account and address pair**, and also, with a short cap,
 *    per **account** (guessing from many addresses) and per **address** (one address trying many
 *    accounts). A stranger's failures therefore slow the stranger, and slow the account's owner
 *    only on a device the account does not know yet, by at most LOGIN_SHARED_MAX_DELAY_SECONDS.
 * 3. After `free` failures the next attempt must wait 1 s, then 2 s, 4 s, … up to the cap; one
 *    made sooner is 429 with Retry-After before the password is looked at. A count is forgotten
 *    after LOGIN_FORGET_HOURS without a failure; a right password forgets the client's own count
 *    (the pair's or the device's).
 *
 * The client's own count is taken before the password is checked (and forgiven on success), so
 * a burst of parallel guesses from one client cannot all slip past it.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Config, LoginThrottle } from '../config';
import type { Db } from '../db/connection';
import { addFailures, clearBuckets, readFailures, type FailureCount } from '../db/rate-limits';
import { tooMany } from '../errors';
import { buckets, waitText } from './rate-limits';

export const DEVICE_COOKIE = 'pingme.device';
/** How many accounts one browser remembers having signed in to. */
const DEVICE_ACCOUNTS = 5;
const DEVICE_COOKIE_MAX_AGE_MS = 365 * 24 * 3600_000;

/**
 * The wait after this many failures: none for the first `free`, then `firstMs` (1 s), doubling
 * with each further failure, never more than `capMs`.
 */
export function delayAfter(failures: number, free: number, firstMs: number, capMs: number): number {
  if (failures <= free) return 0;
  return Math.min(firstMs * 2 ** Math.min(failures - free - 1, 40), capMs);
}

interface Counter {
  bucket: string;
  free: number;
  capMs: number;
}

export interface Attempt {
  /** The client's own count: the pair's, or the known device's. */
  own: Counter;
  /** Counted only on a failure: the account's and the address's (not for a known device). */
  shared: Counter[];
}

/** The device id in this request's `pingme.device` cookie when it names `userId`. */
export function knownDevice(ctx: Context, userId: string): string | undefined {
  const parts = readDeviceCookie(ctx);
  return parts && parts.accounts.includes(userId) ? parts.device : undefined;
}

function readDeviceCookie(ctx: Context): { device: string; accounts: string[] } | undefined {
  const value = ctx.cookies.get(DEVICE_COOKIE, { signed: true });
  if (!value) return undefined;
  const [device, ...accounts] = value.split('.');
  return device ? { device, accounts } : undefined;
}

/** Marks this browser as a device that signed in to `userId` (a signed, httpOnly cookie). */
export function rememberDevice(ctx: Context, config: Config, userId: string): void {
  const current = readDeviceCookie(ctx);
  const device = current?.device ?? randomBytes(16).toString('base64url');
  const accounts = [userId, ...(current?.accounts ?? []).filter((a) => a !== userId)].slice(
    0,
    DEVICE_ACCOUNTS,
  );
  ctx.cookies.set(DEVICE_COOKIE, [device, ...accounts].join('.'), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    path: '/api',
    maxAge: DEVICE_COOKIE_MAX_AGE_MS,
    secure: config.secureCookies || ctx.secure,
  });
}

/**
 * The counters of one password check: `email` as typed (the account, known or not), the
 * client's address, and `userId` when the account exists (to recognise a known device).
 */
export function attemptOf(
  ctx: Context,
  limits: LoginThrottle,
  email: string,
  userId: string | undefined,
): Attempt {
  const device = userId ? knownDevice(ctx, userId) : undefined;
  if (userId && device) {
    return {
      own: {
        bucket: buckets.loginDevice(userId, device),
        free: limits.freeFailures,
        capMs: limits.maxDelayMs,
      },
      shared: [],
    };
  }
  return {
    own: {
      bucket: buckets.loginPair(email, ctx.ip),
      free: limits.freeFailures,
      capMs: limits.maxDelayMs,
    },
    shared: [
      {
        bucket: buckets.loginAccount(email),
        free: limits.accountFreeFailures,
        capMs: limits.sharedMaxDelayMs,
      },
      {
        bucket: buckets.loginIp(ctx.ip),
        free: limits.ipFreeFailures,
        capMs: limits.sharedMaxDelayMs,
      },
    ],
  };
}

function waitMs(
  limits: LoginThrottle,
  counter: Counter,
  count: FailureCount | undefined,
  now: number,
): number {
  if (!count) return 0;
  const delay = delayAfter(count.failures, counter.free, limits.firstDelayMs, counter.capMs);
  return count.lastAt + delay - now;
}

/**
 * Before the password is checked: 429 (`what`, with how long to wait) while any of the attempt's
 * counters asks to wait; otherwise the client's own count takes this attempt.
 */
export async function beginAttempt(
  db: Db,
  limits: LoginThrottle,
  attempt: Attempt,
  what: string,
  now = Date.now(),
): Promise<void> {
  const counters = [attempt.own, ...attempt.shared];
  await db.transaction().execute(async (trx) => {
    const counts = await readFailures(
      trx,
      counters.map((c) => c.bucket),
      limits.forgetMs,
      now,
    );
    const wait = Math.max(0, ...counters.map((c) => waitMs(limits, c, counts.get(c.bucket), now)));
    if (wait > 0) {
      throw tooMany(`${what}. Please wait ${waitText(wait / 1000)} and try again.`, wait / 1000);
    }
    await addFailures(trx, [attempt.own.bucket], limits.forgetMs, now);
  });
}

/** The password was wrong: the account's and the address's counts take it too. */
export async function attemptFailed(
  db: Db,
  limits: LoginThrottle,
  attempt: Attempt,
  now = Date.now(),
): Promise<void> {
  await addFailures(
    db,
    attempt.shared.map((c) => c.bucket),
    limits.forgetMs,
    now,
  );
}

/** The password was right: the client's own count is forgotten. */
export async function attemptSucceeded(db: Db, attempt: Attempt): Promise<void> {
  await clearBuckets(db, [attempt.own.bucket]);
}
