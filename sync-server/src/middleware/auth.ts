import type { Context, Middleware } from 'koa';
import type { Db } from '../db/connection';
import { nowIso } from '../db/connection';
import type { UserRow } from '../db/schema';
import { findUserById, updateUser } from '../db/users';
import { forbidden, unauthorized } from '../errors';
import { userLoadedWithSession } from './session';

const ACTIVE_MARK_EVERY_MS = 10 * 60_000;

export function sessionUserId(ctx: Context): string | undefined {
  const id = ctx.session?.userId;
  return typeof id === 'string' ? id : undefined;
}

/** Loads the signed-in person into ctx.state.user, or answers 401 'Unauthorized'. */
export function requireUser(db: Db): Middleware {
  return async (ctx, next) => {
    const id = sessionUserId(ctx);
    // Usually read with the session, in the same query (middleware/session.ts).
    const user = id
      ? (userLoadedWithSession(ctx, id) ?? { user: await findUserById(db, id) }).user
      : undefined;
    if (!user) throw unauthorized();
    const last = user.lastActiveAt ? Date.parse(user.lastActiveAt) : 0;
    if (Date.now() - last > ACTIVE_MARK_EVERY_MS) {
      ctx.state.user = await updateUser(db, user.id, { lastActiveAt: nowIso() });
    } else {
      ctx.state.user = user;
    }
    await next();
  };
}

export function requireAdmin(): Middleware {
  return async (ctx, next) => {
    if (currentUser(ctx).isAdmin !== 1)
      throw forbidden('Access denied. Admin privileges required.');
    await next();
  };
}

export function currentUser(ctx: Context): UserRow {
  const u = ctx.state.user as UserRow | undefined;
  if (!u) throw unauthorized();
  return u;
}
