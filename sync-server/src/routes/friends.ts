/**
 * Friends and friend requests (spec sections 2, 3 and 6; docs/api.md "Friends").
 * One friendships row per pair: 'pending' while a request waits, 'accepted' once they are
 * friends, deleted when a request is declined or withdrawn so either may ask again later.
 * Every change records a 'friendship' change-log row for both people.
 */
import type Router from '@koa/router';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import {
  FriendIdParams,
  type FriendStats,
  type FriendUser,
  type PendingRequest,
  type PendingResponse,
} from '@pingme/shared';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import type { Db } from '../db/connection';
import {
  findFriend,
  listFriends,
  listPending,
  pingCountsBetween,
  type LinkedUser,
} from '../db/friends-queries';
import { areFriends } from '../db/friendships';
import { toProfileFields, toSummary } from '../db/users';
import { notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';

const DAY_MS = 24 * 3600_000;

export function toFriendUser(row: LinkedUser): FriendUser {
  return {
    ...toProfileFields(row),
    friendshipId: row.friendshipId,
    friendsSince: row.acceptedAt ?? row.friendshipCreatedAt,
  };
}

/**
 * The other person of a pending request: name, avatar, handle and tagline (what anyone signed
 * in may see). The e-mail is withheld until they are friends (spec section 6).
 */
export function toPendingRequest(row: LinkedUser): PendingRequest {
  return {
    ...toSummary(row),
    requestId: row.friendshipId,
    friendshipId: row.friendshipId,
    userId: row.id,
    email: null,
    tagline: row.tagline,
    handle: row.handle,
    createdAt: row.friendshipCreatedAt,
  };
}

/** Whole days since `sinceIso`, never negative. */
export function daysSince(sinceIso: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - Date.parse(sinceIso)) / DAY_MS));
}

export function friendRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get('/api/friends', signedIn, async (ctx) => {
    const me = currentUser(ctx);
    ctx.body = (await listFriends(db, me.id)).map(toFriendUser) satisfies FriendUser[];
  });

  // Before '/:friendId', which would otherwise see 'pending' as an id.
  router.get('/api/friends/pending', signedIn, async (ctx) => {
    const me = currentUser(ctx);
    const { sent, received } = await listPending(db, me.id);
    ctx.body = {
      sent: sent.map(toPendingRequest),
      received: received.map(toPendingRequest),
    } satisfies PendingResponse;
  });

  router.get(
    '/api/friends/:friendId',
    signedIn,
    validated({ params: FriendIdParams }, async (ctx, { params }) => {
      const friend = await friendOf(db, ctx, params);
      ctx.body = toFriendUser(friend) satisfies FriendUser;
    }),
  );

  router.get(
    '/api/friends/:friendId/stats',
    signedIn,
    validated({ params: FriendIdParams }, async (ctx, { params }) => {
      const friend = await friendOf(db, ctx, params);
      const counts = await pingCountsBetween(db, currentUser(ctx).id, friend.id);
      ctx.body = {
        ...counts,
        daysConnected: daysSince(friend.acceptedAt ?? friend.friendshipCreatedAt),
      } satisfies FriendStats;
    }),
  );
}

/**
 * The handler of a route that answers only about a friend: it gets the signed-in person's id and
 * the id of the friend the route's `:friendId` names, without loading either. 400 when the id is
 * not one; 404 'Friend not found' when that is not a friend of theirs, or is themself.
 */
export function aboutFriend(
  db: Db,
  handler: (ctx: RouterContext, ids: { me: string; friendId: string }) => Promise<void>,
): RouterMiddleware {
  return validated({ params: FriendIdParams }, async (ctx, { params: { friendId } }) => {
    const me = currentUser(ctx).id;
    if (friendId === me || !(await areFriends(db, me, friendId)))
      throw notFound('Friend not found');
    await handler(ctx, { me, friendId });
  });
}

/** The friend named by the route, or 404 'Friend not found' when they are not a friend. */
async function friendOf(db: Db, ctx: Context, { friendId }: FriendIdParams): Promise<LinkedUser> {
  const friend = await findFriend(db, currentUser(ctx).id, friendId);
  if (!friend) throw notFound('Friend not found');
  return friend;
}
