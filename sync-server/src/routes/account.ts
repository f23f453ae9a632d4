/**
 * The signed-in person's own account security (docs/api.md "Account security", docs/security.md):
 * change the password (ends every other session), sign out everywhere, delete the account.
 */
import type Router from '@koa/router';
import {
  ChangePasswordBody,
  DELETE_CONFIRMATION,
  DeleteAccountBody,
  type ChangePasswordResponse,
  type DeleteAccountResponse,
  type LogoutEverywhereResponse,
} from '@pingme/shared';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { nowIso } from '../db/connection';
import type { UserRow } from '../db/schema';
import { destroyUserSessions } from '../db/sessions';
import { findUserById, updateUser } from '../db/users';
import { badRequest, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { forgoIdempotencyRecord, keyed, mutate } from '../middleware/idempotency';
import { jsonBody } from '../middleware/body';
import { validated } from '../middleware/validate';
import { signOut } from '../services/accounts';
import { deleteStoredImage } from '../services/images';
import { hashPassword, verifyPassword } from '../services/passwords';
import {
  attemptFailed,
  attemptOf,
  attemptSucceeded,
  beginAttempt,
} from '../services/sign-in-throttle';
import { deleteAccount } from '../services/safety';

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'That password is not correct',
  noPassword:
    'This account has no password yet. Use "Forgot your password?" to set one, then change it here.',
  samePassword: 'Choose a new password that is different from the current one',
  passwordNeeded: 'Enter your password to delete your account',
  confirmNeeded: `Type ${DELETE_CONFIRMATION} to confirm`,
} as const;

/** The app parses bodies of POST, PUT and PATCH only; DELETE /api/account carries one too. */
const deleteBody = jsonBody(8 * 1024, ['DELETE']);

/** The id of the caller's own session row (koa-session's external key). */
function currentSessionId(ctx: Context): string | undefined {
  return (ctx.session as { externalKey?: string } | null)?.externalKey;
}

export function accountRoutes(router: Router, { db, config }: AppDeps): void {
  // Idempotency-Key on every write here (docs/sync.md, guarantee 2).
  const keyedByHeader = keyed(db);
  const signedIn = requireUser(db);

  /**
   * Checks the person's password for a sensitive action, throttled exactly as a sign-in from this
   * client (services/sign-in-throttle.ts), so a borrowed session cannot be used to guess the
   * password either, and cannot slow the owner's other devices.
   */
  async function confirmPassword(ctx: Context, user: UserRow, password: string): Promise<void> {
    const limits = config.loginThrottle;
    const attempt = attemptOf(ctx, limits, user.email, user.id);
    await beginAttempt(db, limits, attempt, 'Too many wrong passwords');
    if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
      await attemptFailed(db, limits, attempt);
      throw forbidden(ACCOUNT_MESSAGES.wrongPassword);
    }
    await attemptSucceeded(db, attempt);
  }

  router.post(
    '/api/change-password',
    keyedByHeader,
    signedIn,
    validated({ body: ChangePasswordBody }, async (ctx, { body }) => {
      const me = currentUser(ctx);
      if (!me.passwordHash) throw badRequest(ACCOUNT_MESSAGES.noPassword);
      await confirmPassword(ctx, me, body.currentPassword);
      if (body.newPassword === body.currentPassword)
        throw badRequest(ACCOUNT_MESSAGES.samePassword);
      const passwordHash = await hashPassword(body.newPassword);
      const current = currentSessionId(ctx);
      await mutate<ChangePasswordResponse>(ctx, db, async ({ trx }) => {
        await updateUser(trx, me.id, { passwordHash, passwordChangedAt: nowIso() });
        // Every other device signs in again with the new password; this one stays.
        const endedSessions = await destroyUserSessions(trx, me.id, current);
        return { body: { success: true, endedSessions } };
      });
      // This device stays signed in under a new session id: a copy of the old cookie is dead.
      if (ctx.response.get('Idempotent-Replayed') !== 'true') await ctx.session?.regenerate();
    }),
  );

  router.post('/api/logout-everywhere', keyedByHeader, signedIn, async (ctx) => {
    const me = currentUser(ctx);
    const endedSessions = await destroyUserSessions(db, me.id);
    signOut(ctx);
    ctx.body = { success: true, endedSessions } satisfies LogoutEverywhereResponse;
  });

  router.delete(
    '/api/account',
    keyedByHeader,
    signedIn,
    deleteBody,
    validated({ body: DeleteAccountBody }, async (ctx, { body }) => {
      const me = currentUser(ctx);
      if (me.passwordHash) {
        if (body.password === undefined) throw badRequest(ACCOUNT_MESSAGES.passwordNeeded);
        await confirmPassword(ctx, me, body.password);
      } else if (body.confirm !== DELETE_CONFIRMATION) {
        // An account made with Google sign-in has no password: a typed confirmation instead.
        throw badRequest(ACCOUNT_MESSAGES.confirmNeeded);
      }
      forgoIdempotencyRecord(ctx);
      let photo: string | null = null;
      await mutate<DeleteAccountResponse>(ctx, db, async ({ trx, changes }) => {
        const user = await findUserById(trx, me.id);
        if (!user) throw notFound('User not found');
        photo = user.profileImageUrl;
        await deleteAccount(trx, changes, user);
        return { body: { success: true } };
      });
      signOut(ctx);
      await deleteStoredImage(config.uploadsDir, photo);
    }),
  );
}
