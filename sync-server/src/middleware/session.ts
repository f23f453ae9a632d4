/**
 * Sessions: koa-session with the session data in SQLite, so ending a session (sign-out,
 * password change) really ends it. The cookie holds only a random, signed session id.
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import session from 'koa-session';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { destroySession, getSession, setSession } from '../db/sessions';

export const SESSION_COOKIE = 'pingme.sid';

export function sessionMiddleware(app: Koa, db: Db, config: Config): Koa.Middleware {
  app.keys = config.sessionKeys;
  return session(
    {
      key: SESSION_COOKIE,
      maxAge: config.sessionMaxAgeMs,
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      signed: true,
      rolling: false,
      renew: true,
      genid: () => randomBytes(24).toString('base64url'),
      store: {
        get: (key: string) => getSession(db, key),
        set: (key: string, sess: Record<string, unknown>, maxAge: number | 'session' | undefined) =>
          setSession(db, key, sess, typeof maxAge === 'number' ? maxAge : config.sessionMaxAgeMs),
        destroy: (key: string) => destroySession(db, key),
      },
    } as Parameters<typeof session>[0],
    app,
  );
}
