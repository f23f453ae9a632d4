/**
 * Friends and friend requests (spec sections 2, 3 and 6; docs/api.md "Friends").
 * One friendships row per pair: 'pending' while a request waits, 'accepted' once they are
 * friends, deleted when a request is declined or withdrawn so either may ask again later.
 * Every change records a 'friendship' change-log row for both people.
 */
import Router from '@koa/router';
import {
  FriendIdParams,
  FriendRequestBody,
  PostFriendsBody,
  RequestIdBody,
  type FriendActionResponse,
  type FriendRequestResponse,
  type FriendStats,
  type FriendUser,
  type PendingRequest,
  type PendingResponse,
} from '@pingme/shared';
import type { Context } from 'koa';
import type { AppDeps } from '../app';
import { isBlockedEitherWay } from '../db/blocks';
import type { Db } from '../db/connection';
import {
  findFriend,
  listFriends,
  listPending,
  pingCountsBetween,
  type LinkedUser,
} from '../db/friends-queries';
import {
  acceptFriendship,
  deleteFriendship,
  findFriendshipBetween,
  findFriendshipById,
  insertFriendship,
} from '../db/friendships';
import type { FriendshipRow } from '../db/schema';
import { findUserById, toProfileFields, toSummary } from '../db/users';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate, type Trx } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';

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

async function otherPerson(trx: Trx, row: FriendshipRow, me: string) {
  const otherId = row.requesterId === me ? row.addresseeId : row.requesterId;
  const other = await findUserById(trx, otherId);
  if (!other) throw notFound('Friend request not found');
  return other;
}

/** The row behind a requestId, if the caller is one of its two people; 404 otherwise. */
async function requestOf(trx: Trx, requestId: string, me: string): Promise<FriendshipRow> {
  const row = await findFriendshipById(trx, requestId);
  // A stranger learns nothing: the same 404 as an id that does not exist.
  if (!row || (row.requesterId !== me && row.addresseeId !== me)) {
    throw notFound('Friend request not found');
  }
  return row;
}

export function friendRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api/friends' });
  const signedIn = requireUser(db);

  router.get('/', signedIn, async (ctx) => {
    const me = currentUser(ctx);
    ctx.body = (await listFriends(db, me.id)).map(toFriendUser) satisfies FriendUser[];
  });

  // Before '/:friendId', which would otherwise see 'pending' as an id.
  router.get('/pending', signedIn, async (ctx) => {
    const me = currentUser(ctx);
    const { sent, received } = await listPending(db, me.id);
    ctx.body = {
      sent: sent.map(toPendingRequest),
      received: received.map(toPendingRequest),
    } satisfies PendingResponse;
  });

  router.get('/:friendId', signedIn, validate({ params: FriendIdParams }), async (ctx) => {
    const friend = await friendOf(db, ctx);
    ctx.body = toFriendUser(friend) satisfies FriendUser;
  });

  router.get('/:friendId/stats', signedIn, validate({ params: FriendIdParams }), async (ctx) => {
    const friend = await friendOf(db, ctx);
    const counts = await pingCountsBetween(db, currentUser(ctx).id, friend.id);
    ctx.body = {
      ...counts,
      daysConnected: daysSince(friend.acceptedAt ?? friend.friendshipCreatedAt),
    } satisfies FriendStats;
  });

  router.post('/request', signedIn, validate({ body: FriendRequestBody }), async (ctx) => {
    await sendRequest(db, ctx, input<FriendRequestBody>(ctx).body.friendId);
  });

  // Defined by the spec, unused by its screens: an alias of /request (status must be 'pending').
  router.post('/', signedIn, validate({ body: PostFriendsBody }), async (ctx) => {
    await sendRequest(db, ctx, input<PostFriendsBody>(ctx).body.friendId);
  });

  router.post('/accept', signedIn, validate({ body: RequestIdBody }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { requestId } = input<RequestIdBody>(ctx).body;
    await mutate(ctx, db, async (trx, feed) => {
      const row = await requestOf(trx, requestId, me);
      const friend = toSummary(await otherPerson(trx, row, me));
      const body: FriendActionResponse = { success: true, requestId, outcome: 'accepted', friend };
      // Already friends (a second device, a late retry): nothing left to do.
      if (row.status === 'accepted') return { body };
      if (row.addresseeId !== me) {
        throw forbidden('Only the person who received this request can accept it');
      }
      await acceptFriendship(trx, row.id);
      await feed.record([row.requesterId, row.addresseeId], 'friendship', row.id);
      return { body };
    });
  });

  // The receiver declines; the sender may use the same call to withdraw their own request.
  router.post('/reject', signedIn, validate({ body: RequestIdBody }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { requestId } = input<RequestIdBody>(ctx).body;
    await mutate<FriendActionResponse>(ctx, db, async (trx, feed) => {
      const row = await requestOf(trx, requestId, me);
      if (row.status === 'accepted') {
        throw conflict('This request was already accepted: you are friends');
      }
      const friend = toSummary(await otherPerson(trx, row, me));
      await deleteFriendship(trx, row.id);
      await feed.record([row.requesterId, row.addresseeId], 'friendship', row.id, 'delete');
      const outcome = row.addresseeId === me ? 'declined' : 'withdrawn';
      return { body: { success: true, requestId, outcome, friend } };
    });
  });

  return router;
}

/** The friend named by the route, or 404 'Friend not found' when they are not a friend. */
async function friendOf(db: Db, ctx: Context): Promise<LinkedUser> {
  const { friendId } = input<unknown, unknown, FriendIdParams>(ctx).params;
  const friend = await findFriend(db, currentUser(ctx).id, friendId);
  if (!friend) throw notFound('Friend not found');
  return friend;
}

/**
 * POST /api/friends/request (and its alias POST /api/friends). A request to someone who has
 * already asked you accepts theirs. Private profiles cannot be asked by id: 404, as if absent.
 */
async function sendRequest(db: Db, ctx: Context, friendId: string): Promise<void> {
  const me = currentUser(ctx).id;
  if (friendId === me) throw badRequest('You cannot send a friend request to yourself');
  await mutate<FriendRequestResponse>(ctx, db, async (trx, feed) => {
    const other = await findUserById(trx, friendId);
    // A block either way: the same answer as for someone who does not exist (docs/security.md).
    if (!other || (await isBlockedEitherWay(trx, me, friendId))) throw notFound('User not found');
    const existing = await findFriendshipBetween(trx, me, friendId);
    if (existing?.status === 'accepted') throw conflict('You are already friends');
    if (existing?.status === 'pending') {
      if (existing.requesterId === me) throw conflict('Friend request already sent');
      await acceptFriendship(trx, existing.id);
      await feed.record([me, friendId], 'friendship', existing.id);
      return {
        status: 200,
        body: {
          requestId: existing.id,
          status: 'accepted',
          autoAccepted: true,
          friend: toSummary(other),
        },
      };
    }
    if (other.profileVisibility === 'private') throw notFound('User not found');
    const row = await insertFriendship(trx, {
      requesterId: me,
      addresseeId: friendId,
      status: 'pending',
    });
    await feed.record([me, friendId], 'friendship', row.id);
    return {
      status: 201,
      body: {
        requestId: row.id,
        status: 'pending',
        autoAccepted: false,
        friend: toSummary(other),
      } satisfies FriendRequestResponse,
    };
  });
}
