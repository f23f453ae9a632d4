/**
 * Sessions: koa-session with the session data in SQLite, so ending a session (sign-out,
 * password change) really ends it. The cookie holds only a random, signed session id.
 * docs/security.md "Sessions":
 * - absolute expiry: a signed-in session ends SESSION_MAX_AGE_DAYS after its sign-in
 *   (`signedInAt`), however often it is used or saved again; nothing renews it;
 * - idle expiry: a session unused for SESSION_IDLE_DAYS is dead; a use is recorded at most once
 *   an hour (SESSION_TOUCH_EVERY_MS), so reading a session is not a write per request;
 * - the cookie is httpOnly, SameSite=Lax, signed, and Secure when the request arrived over https
 *   (directly, or through a proxy trusted with TRUST_PROXY) or PUBLIC_URL is https.
 */
import { cookieKeys } from '../cookie-keys';
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Context } from 'koa';
import session from 'koa-session';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { SESSION_COOKIE, destroySession, getSessionWithUser, setSession } from '../db/sessions';
import type { UserRow } from '../db/schema';

/** A session's last use is written at most this often. */
export const SESSION_TOUCH_EVERY_MS = 3600_000;

/** When a session saved now ends: signed-in sessions count from their sign-in, never from now. */
export function sessionExpiry(
  data: Record<string, unknown>,
  maxAgeMs: number,
  config: Config,
  now = Date.now(),
): number {
  if (typeof data.userId === 'string' && typeof data.signedInAt === 'number') {
    return data.signedInAt + config.sessionMaxAgeMs;
  }
  return now + maxAgeMs;
}

/**
 * The person of the session this request loaded, read in the same query as the session
 * (`getSessionWithUser`), for requireUser (middleware/auth.ts). A memo of one request only: it
 * lives as long as the request's context and is never shared with another request.
 */
const loadedUsers = new WeakMap<Context, { userId: string | null; user: UserRow | undefined }>();

/**
 * The person loaded with this request's session when the session's row names `userId`;
 * undefined when the request has no such memo (then the caller reads the person itself).
 */
export function userLoadedWithSession(
  ctx: Context,
  userId: string,
): { user: UserRow | undefined } | undefined {
  const m = loadedUsers.get(ctx);
  return m && m.userId === userId ? { user: m.user } : undefined;
}

export function sessionMiddleware(app: Koa, db: Db, config: Config): Koa.Middleware {
  // keygrip's signatures, made faster (cookie-keys.ts): `cookies` takes any object with its
  // interface where Koa's type says a list of secrets.
  app.keys = cookieKeys(config.sessionKeys) as unknown as string[];
  const sessions = session(
    {
      key: SESSION_COOKIE,
      maxAge: config.sessionMaxAgeMs,
      httpOnly: true,
      sameSite: 'lax',
      // `secure` is left to the cookie jar (below): Secure whenever the connection is https.
      signed: true,
      rolling: false,
      renew: false,
      genid: () => randomBytes(24).toString('base64url'),
      store: {
        get: async (key: string, _maxAge: unknown, opts?: { ctx?: Context }) => {
          const s = await getSessionWithUser(db, key, {
            idleMs: config.sessionIdleMs,
            touchEveryMs: SESSION_TOUCH_EVERY_MS,
          });
          if (s && opts?.ctx) loadedUsers.set(opts.ctx, { userId: s.userId, user: s.user });
          return s?.data;
        },
        set: (key: string, sess: Record<string, unknown>, maxAge: number | 'session' | undefined) =>
          setSession(
            db,
            key,
            sess,
            sessionExpiry(
              sess,
              typeof maxAge === 'number' ? maxAge : config.sessionMaxAgeMs,
              config,
            ),
          ),
        destroy: (key: string) => destroySession(db, key),
      },
    } as Parameters<typeof session>[0],
    app,
  );
  return async (ctx, next) => {
    // With an https PUBLIC_URL the cookie is Secure even when the hop to this process is plain
    // http (a TLS proxy without TRUST_PROXY); otherwise it follows the request (ctx.secure).
    if (config.secureCookies) ctx.cookies.secure = true;
    return sessions(ctx, next);
  };
}
