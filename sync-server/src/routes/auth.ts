/** Sign-up, sign-in, sign-out, the current user, password reset and e-mail verification. */
import type Router from '@koa/router';
import {
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResendVerificationBody,
  ResetPasswordBody,
  VerifyEmailQuery,
  type ForgotPasswordResponse,
  type ResetPasswordResponse,
  type SelfUser,
  type SessionResponse,
  type VerifyEmailResponse,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import { nowIso } from '../db/connection';
import { destroyUserSessions } from '../db/sessions';
import { findUserByEmail, findUserById, toSelf, updateUser } from '../db/users';
import { AppError, conflict } from '../errors';
import { currentUser, requireUser, sessionUserId } from '../middleware/auth';
import { keyed, mutate } from '../middleware/idempotency';
import { validated } from '../middleware/validate';
import { applyListedAdmin, createUser, signIn, signOut } from '../services/accounts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../services/passwords';
import { buckets, throttle, withinLimit } from '../services/rate-limits';
import {
  attemptFailed,
  attemptOf,
  attemptSucceeded,
  beginAttempt,
  rememberDevice,
} from '../services/sign-in-throttle';
import { issueToken, redeemToken } from '../services/tokens';

export function authRoutes(router: Router, { db, config, mailer }: AppDeps): void {
  // Idempotency-Key on every write here (docs/sync.md, guarantee 2).
  const keyedByHeader = keyed(db);

  async function sendVerification(userId: string, email: string, firstName: string | null) {
    const token = await issueToken(db, userId, 'verify', config.verifyTokenTtlMs);
    const link = `${config.publicUrl}/verify-email?token=${token}`;
    await mailer.send({
      to: email,
      subject: 'Verify your PingMe e-mail',
      text: `Hi ${firstName ?? 'there'},\n\nConfirm your e-mail address for PingMe:\n${link}\n\nThe link works once and expires in ${Math.round(config.verifyTokenTtlMs / 3600_000)} hours.`,
    });
    return link;
  }

  /**
   * The account a password reset or verification mail asked for `email` (from `ip`) goes to.
   * Counted for every address, known or not, so a 429 reveals nothing about accounts; refused per
   * e-mail only for the address that asked, so a stranger's requests block only the stranger
   * (docs/security.md, "Password reset and verification requests"). Past the mails one address
   * may receive: undefined, so the answer is the same and nothing is sent (the links already sent
   * still work).
   */
  async function mailRecipient(kind: 'reset' | 'verify', email: string, ip: string) {
    const limits = config.rateLimits;
    const guard =
      kind === 'reset'
        ? ({
            what: 'Too many password reset requests',
            perIp: [buckets.resetIp(ip), limits.resetPerIp],
            perPair: [buckets.resetPair(email, ip), limits.resetPerEmailPerIp],
            mails: [buckets.resetMails(email), limits.resetMailsPerEmail],
          } as const)
        : ({
            what: 'Too many verification e-mails requested',
            perIp: [buckets.verifyIp(ip), limits.verifyResendPerIp],
            perPair: [buckets.verifyPair(email, ip), limits.verifyResendPerEmailPerIp],
            mails: [buckets.verifyMails(email), limits.verifyResendMailsPerEmail],
          } as const);
    await throttle(db, ...guard.perIp, guard.what);
    await throttle(db, ...guard.perPair, guard.what);
    const mail = await withinLimit(db, ...guard.mails);
    return mail ? findUserByEmail(db, email) : undefined;
  }

  router.post(
    '/api/register',
    keyedByHeader,
    validated({ body: RegisterBody }, async (ctx, { body }) => {
      await throttle(
        db,
        buckets.signupIp(ctx.ip),
        config.rateLimits.signupPerIp,
        'Too many sign-ups from this network',
      );
      const passwordHash = await hashPassword(body.password);
      const user = await mutate(ctx, db, async ({ trx }) => {
        if (await findUserByEmail(trx, body.email)) {
          throw conflict(
            'An account with this email already exists. Try signing in instead.',
            'email_taken',
          );
        }
        const u = await createUser(trx, config, {
          email: body.email,
          firstName: body.firstName,
          lastName: body.lastName,
          passwordHash,
          passwordChangedAt: nowIso(),
        });
        return { status: 201, body: toSelf(u) };
      });
      await signIn(ctx, user.id, config.sessionMaxAgeMs);
      rememberDevice(ctx, config, user.id);
      sendVerification(user.id, user.email ?? body.email, user.firstName).catch((err: unknown) =>
        ctx.log.error({ err }, 'verification mail failed'),
      );
    }),
  );

  router.post(
    '/api/login',
    keyedByHeader,
    validated({ body: LoginBody }, async (ctx, { body }) => {
      const limits = config.loginThrottle;
      const user = await findUserByEmail(db, body.email);
      // Slowed per client, never locked for everyone (services/sign-in-throttle.ts).
      const attempt = attemptOf(ctx, limits, body.email, user?.id);
      await beginAttempt(db, limits, attempt, 'Too many failed sign-in attempts');
      const ok = user?.passwordHash
        ? await verifyPassword(body.password, user.passwordHash)
        : (await burnPasswordCheck(body.password), false);
      if (!user || !ok) {
        await attemptFailed(db, limits, attempt);
        throw new AppError(401, 'invalid_credentials', 'Invalid email or password');
      }
      await attemptSucceeded(db, attempt);
      const fresh = await applyListedAdmin(db, config, user);
      await signIn(ctx, fresh.id, config.sessionMaxAgeMs);
      rememberDevice(ctx, config, fresh.id);
      ctx.body = toSelf(fresh) satisfies SelfUser;
    }),
  );

  router.post('/api/logout', keyedByHeader, async (ctx) => {
    signOut(ctx);
    ctx.body = { success: true };
  });

  // The spec's full-page navigation target for signing in (and for an expired session).
  router.get('/api/login', (ctx) => {
    ctx.redirect('/auth');
  });

  router.get('/api/user', requireUser(db), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toSelf(currentUser(ctx));
  });

  /**
   * Who this browser is, answered 200 to everyone: `{ user: null }` for a visitor (nothing is
   * written, no session or cookie is created), the same SelfUser as GET /api/user when signed in.
   * The PWA's start-up check, so a visitor's first load logs no 401 (docs/decisions.md).
   */
  const loadUser = requireUser(db);
  router.get('/api/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    let user: SelfUser | null = null;
    if (sessionUserId(ctx)) {
      try {
        await loadUser(ctx, async () => undefined);
        user = toSelf(currentUser(ctx));
      } catch (err) {
        // A session whose person is gone counts as signed out, as GET /api/user's 401 does.
        if (!(err instanceof AppError && err.status === 401)) throw err;
      }
    }
    ctx.body = { user } satisfies SessionResponse;
  });

  router.post(
    '/api/forgot-password',
    keyedByHeader,
    validated({ body: ForgotPasswordBody }, async (ctx, { body }) => {
      const user = await mailRecipient('reset', body.email, ctx.ip);
      // The same answer for every address, known or not, and never the link itself: whoever asks
      // is not necessarily the owner (docs/security.md, "Reset and verification links").
      const response: ForgotPasswordResponse = {
        success: true,
        message: mailer.delivers
          ? 'If an account exists for that email, a reset link is on its way.'
          : 'If an account exists for that email, a reset link was made. This server does not send e-mail: ask the person who runs it for your link.',
      };
      if (user) {
        const token = await issueToken(db, user.id, 'reset', config.resetTokenTtlMs);
        const welcome = user.passwordHash === null ? '&welcome=true' : '';
        const link = `${config.publicUrl}/reset-password?token=${token}${welcome}`;
        // Not awaited: a slow or failing mail server must neither reveal (by timing or a 500)
        // that the account exists nor fail the request.
        mailer
          .send({
            to: user.email,
            subject: 'Reset your PingMe password',
            text: `Hi ${user.firstName ?? 'there'},\n\nSet a new PingMe password here:\n${link}\n\nThe link works once and expires in ${Math.round(config.resetTokenTtlMs / 60_000)} minutes. If you did not ask for it, ignore this e-mail.`,
          })
          .catch((err: unknown) => ctx.log.error({ err }, 'reset mail failed'));
      }
      ctx.body = response;
    }),
  );

  router.post(
    '/api/reset-password',
    keyedByHeader,
    validated({ body: ResetPasswordBody }, async (ctx, { body }) => {
      const passwordHash = await hashPassword(body.password);
      await mutate(ctx, db, async ({ trx }) => {
        const userId = await redeemToken(trx, 'reset', body.token);
        const before = await findUserById(trx, userId);
        if (!before)
          throw new AppError(
            400,
            'token_invalid',
            'This password reset link is invalid or has expired',
          );
        // The link reached the address's owner: the address is proven.
        const after = await updateUser(trx, userId, {
          passwordHash,
          passwordChangedAt: nowIso(),
          emailVerified: 1,
        });
        await applyListedAdmin(trx, config, after);
        // A password change ends every session of that person.
        await destroyUserSessions(trx, userId);
        return {
          body: {
            success: true,
            isFirstTime: before.passwordHash === null,
          } satisfies ResetPasswordResponse,
        };
      });
      if (ctx.session?.userId) signOut(ctx);
    }),
  );

  router.get(
    '/api/verify-email',
    validated({ query: VerifyEmailQuery }, async (ctx, { query }) => {
      const user = await db.transaction().execute(async (trx) => {
        const userId = await redeemToken(trx, 'verify', query.token);
        return applyListedAdmin(trx, config, await updateUser(trx, userId, { emailVerified: 1 }));
      });
      ctx.body = {
        success: true,
        message: 'Email verified!',
        user: { email: user.email, firstName: user.firstName },
      } satisfies VerifyEmailResponse;
    }),
  );

  router.post(
    '/api/resend-verification',
    keyedByHeader,
    validated({ body: ResendVerificationBody }, async (ctx, { body }) => {
      const user = await mailRecipient('verify', body.email, ctx.ip);
      // Not awaited, for the same reasons as the reset mail.
      if (user && user.emailVerified !== 1) {
        sendVerification(user.id, user.email, user.firstName).catch((err: unknown) =>
          ctx.log.error({ err }, 'verification mail failed'),
        );
      }
      ctx.body = {
        success: true,
        message: 'If that account still needs verifying, a new link is on its way.',
      };
    }),
  );
}
