/** Creating accounts and signing people in; used by the auth routes and the OpenID callback. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { nowIso } from '../db/connection';
import type { NewUser, UserRow } from '../db/schema';
import { findUserByInviteCode, insertUser, updateUser } from '../db/users';
import { LIMITS } from '@pingme/shared';

export function newInviteCode(): string {
  return randomBytes(9).toString('base64url');
}

export async function uniqueInviteCode(db: Db): Promise<string> {
  for (;;) {
    const code = newInviteCode();
    if (!(await findUserByInviteCode(db, code))) return code;
  }
}

export function isAdminEmail(config: Config, email: string): boolean {
  return config.adminEmails.includes(email.toLowerCase());
}

/**
 * ADMIN_EMAILS names addresses, and an address counts only once its owner has proven it: a
 * verified e-mail (the verification link, a reset link, or a provider that verified it). Anyone
 * can sign up with any address, so an unverified listed address is no admin (docs/security.md).
 */
export function grantsListedAdmin(
  config: Config,
  user: { email: string; emailVerified: number },
): boolean {
  return user.emailVerified === 1 && isAdminEmail(config, user.email);
}

/** Makes a verified listed address an admin; called wherever an address becomes proven. */
export async function applyListedAdmin(db: Db, config: Config, user: UserRow): Promise<UserRow> {
  return grantsListedAdmin(config, user) && user.isAdmin !== 1
    ? updateUser(db, user.id, { isAdmin: 1 })
    : user;
}

export async function createUser(
  db: Db,
  config: Config,
  fields: Pick<NewUser, 'email' | 'firstName' | 'lastName'> & Partial<NewUser>,
): Promise<UserRow> {
  const now = nowIso();
  return insertUser(db, {
    id: randomUUID(),
    passwordHash: null,
    profileVisibility: 'public',
    onboardingCompleted: 0,
    onboardingStep: null,
    emailVerified: 0,
    rateLimitPerDay: LIMITS.dailyPingLimitDefault,
    inviteCode: await uniqueInviteCode(db),
    createdAt: now,
    updatedAt: now,
    ...fields,
    email: fields.email.toLowerCase(),
    isAdmin: grantsListedAdmin(config, {
      email: fields.email,
      emailVerified: fields.emailVerified ?? 0,
    })
      ? 1
      : 0,
  });
}

/** A session that only carries a sign-in in progress (OpenID state) lives this long. */
export const PRE_AUTH_SESSION_MS = 15 * 60_000;

/**
 * A fresh session id at every sign-in, so a session id seen before sign-in is worthless after;
 * the session then lasts `maxAgeMs` (a pre-sign-in session may have been given a short life).
 */
export async function signIn(ctx: Context, userId: string, maxAgeMs: number): Promise<void> {
  if (ctx.session && !ctx.session.isNew) await ctx.session.regenerate();
  ctx.session!.maxAge = maxAgeMs;
  ctx.session!.userId = userId;
  ctx.session!.signedInAt = Date.now();
}

export function signOut(ctx: Context): void {
  ctx.session = null;
}
