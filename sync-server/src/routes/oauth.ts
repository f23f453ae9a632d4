/**
 * Third-party sign-in ("Continue with Google"): GET /api/auth/google sends the browser to the
 * OpenID provider, GET /api/auth/google/callback signs the person in and sends them to `/`.
 * Both are full-page navigations, so every failure is a redirect to `/auth?error=<message>`,
 * never a JSON error or a 500.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { FirstName, LastName, LIMITS, cleanName } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { findUserByEmail, findUserByGoogleSub, updateUser } from '../db/users';
import { applyListedAdmin, createUser, PRE_AUTH_SESSION_MS, signIn } from '../services/accounts';
import {
  createOidcClient,
  isPendingSignIn,
  PENDING_TTL_MS,
  type ProviderIdentity,
} from '../services/oidc';

export const CALLBACK_PATH = '/api/auth/google/callback';

export const OAUTH_MESSAGES = {
  notConfigured: 'Google sign-in is not configured on this server',
  unavailable: 'Google sign-in is unavailable right now. Please try again later.',
  cancelled: 'Google sign-in was cancelled',
  failed: 'Google sign-in failed. Please try again.',
  expired: 'Your Google sign-in expired. Please try again.',
  noEmail: 'Google did not share your e-mail address',
  unverified: 'Your Google e-mail address is not verified',
  otherAccount: 'This e-mail address is already linked to a different Google account',
} as const;

/** A refusal whose message is shown to the person. */
class SignInRefused extends Error {}

/**
 * A name the provider gave, by the same rules as a sign-up's (NFC, no bidirectional controls, a
 * visible character), cut to fit; null when nothing visible is left.
 */
function providerName(
  schema: typeof FirstName | typeof LastName,
  raw: string | undefined,
  max: number,
): string | null {
  if (raw === undefined) return null;
  let fitted = '';
  for (const ch of cleanName(raw).trim()) {
    if (fitted.length + ch.length > max) break;
    fitted += ch;
  }
  const parsed = schema.safeParse(fitted);
  return parsed.success ? parsed.data : null;
}

function fail(ctx: Context, message: string): void {
  ctx.redirect(`/auth?error=${encodeURIComponent(message)}`);
}

export function oauthRoutes(router: Router, { db, config }: AppDeps): void {
  const client = config.oidc
    ? createOidcClient(config.oidc, `${config.publicUrl}${CALLBACK_PATH}`)
    : undefined;

  /** The account for this identity: linked before, linked now by verified e-mail, or new. */
  async function accountFor(identity: ProviderIdentity): Promise<string> {
    return db.transaction().execute(async (trx) => {
      const linked = await findUserByGoogleSub(trx, identity.sub);
      if (linked) {
        await applyListedAdmin(trx, config, linked);
        return linked.id;
      }
      if (!identity.email) throw new SignInRefused(OAUTH_MESSAGES.noEmail);
      // Only an address the provider has verified may claim (or create) a PingMe account.
      if (!identity.emailVerified) throw new SignInRefused(OAUTH_MESSAGES.unverified);
      const existing = await findUserByEmail(trx, identity.email);
      if (existing) {
        if (existing.googleSub && existing.googleSub !== identity.sub)
          throw new SignInRefused(OAUTH_MESSAGES.otherAccount);
        const proven = await updateUser(trx, existing.id, {
          googleSub: identity.sub,
          emailVerified: 1,
        });
        await applyListedAdmin(trx, config, proven);
        return existing.id;
      }
      const created = await createUser(trx, config, {
        email: identity.email,
        firstName: providerName(FirstName, identity.givenName, LIMITS.firstName),
        lastName: providerName(LastName, identity.familyName, LIMITS.lastName),
        passwordHash: null,
        emailVerified: 1,
        googleSub: identity.sub,
      });
      return created.id;
    });
  }

  router.get('/api/auth/google', async (ctx) => {
    if (!client) return fail(ctx, OAUTH_MESSAGES.notConfigured);
    try {
      const { url, pending } = await client.begin();
      ctx.session!.oidc = pending;
      // A visitor who never comes back leaves a short-lived row, not a 30-day one.
      if (!ctx.session!.userId) ctx.session!.maxAge = PRE_AUTH_SESSION_MS;
      ctx.redirect(url);
    } catch (err) {
      ctx.log.error({ err }, 'OpenID sign-in could not start');
      fail(ctx, OAUTH_MESSAGES.unavailable);
    }
  });

  router.get('/api/auth/google/callback', async (ctx) => {
    // A started sign-in is good for one callback, whatever its outcome.
    const pending: unknown = ctx.session?.oidc;
    if (ctx.session && 'oidc' in ctx.session) delete ctx.session.oidc;
    if (!client) return fail(ctx, OAUTH_MESSAGES.notConfigured);
    const providerError = ctx.query.error;
    if (providerError) {
      return fail(
        ctx,
        providerError === 'access_denied' ? OAUTH_MESSAGES.cancelled : OAUTH_MESSAGES.failed,
      );
    }
    if (!isPendingSignIn(pending) || Date.now() - pending.startedAt > PENDING_TTL_MS) {
      return fail(ctx, OAUTH_MESSAGES.expired);
    }
    let userId: string;
    try {
      // The URL the provider redirected to, as the provider saw it (PUBLIC_URL, not Host).
      const callbackUrl = new URL(client.redirectUri);
      callbackUrl.search = ctx.querystring;
      const identity = await client.complete(callbackUrl, pending);
      userId = await accountFor(identity);
    } catch (err) {
      if (err instanceof SignInRefused) return fail(ctx, err.message);
      ctx.log.error(
        { reason: err instanceof Error ? err.message : String(err) },
        'OpenID sign-in failed',
      );
      return fail(ctx, OAUTH_MESSAGES.failed);
    }
    await signIn(ctx, userId, config.sessionMaxAgeMs);
    ctx.redirect('/');
  });
}
