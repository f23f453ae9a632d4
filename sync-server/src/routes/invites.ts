/**
 * Invite links (/invite/{code}): every person has one code (users.invite_code). Checking a code
 * needs a session; using it makes the caller and the code's owner friends at once, which is how
 * private profiles are reached. docs/api.md "Invites", docs/decisions.md "Invites".
 */
import Router from '@koa/router';
import {
  INVITE_INVALID_MESSAGE,
  InviteParams,
  InviteUseBody,
  type InviteCheckResponse,
  type InviteUseResponse,
} from '@pingme/shared';
import type { AppDeps } from '../app';
import { isBlockedEitherWay } from '../db/blocks';
import { acceptFriendship, findFriendshipBetween, insertFriendship } from '../db/friendships';
import { findUserByInviteCode, toSummary } from '../db/users';
import { badRequest, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import { buckets, throttle } from '../services/rate-limits';

export function inviteRoutes({ db, config }: AppDeps): Router {
  const router = new Router({ prefix: '/api/invites' });
  const signedIn = requireUser(db);

  router.get('/:code', signedIn, validate({ params: InviteParams }), async (ctx) => {
    const me = currentUser(ctx);
    const { code } = input<unknown, unknown, InviteParams>(ctx).params;
    await throttle(
      db,
      buckets.inviteCheck(me.id),
      config.rateLimits.inviteCheckPerUser,
      'Too many invite checks',
    );
    const owner = await findUserByInviteCode(db, code);
    // A block either way: the code reads as unknown (docs/security.md).
    if (!owner || (owner.id !== me.id && (await isBlockedEitherWay(db, me.id, owner.id)))) {
      // 200, not 404: an unknown code is a state the invite screen shows ('Invite Expired').
      ctx.body = {
        valid: false,
        user: null,
        message: INVITE_INVALID_MESSAGE,
      } satisfies InviteCheckResponse;
      return;
    }
    const row = owner.id === me.id ? undefined : await findFriendshipBetween(db, me.id, owner.id);
    ctx.body = {
      valid: true,
      user: toSummary(owner),
      alreadyFriends: row?.status === 'accepted',
      isOwnInvite: owner.id === me.id,
    } satisfies InviteCheckResponse;
  });

  router.post(
    '/:code/use',
    signedIn,
    validate({ params: InviteParams, body: InviteUseBody }),
    async (ctx) => {
      const me = currentUser(ctx).id;
      const { code } = input<unknown, unknown, InviteParams>(ctx).params;
      await throttle(
        db,
        buckets.inviteUse(me),
        config.rateLimits.inviteUsePerUser,
        'Too many invite links tried',
      );
      await mutate<InviteUseResponse>(ctx, db, async (trx, feed) => {
        const owner = await findUserByInviteCode(trx, code);
        if (!owner || (owner.id !== me && (await isBlockedEitherWay(trx, me, owner.id))))
          throw notFound(INVITE_INVALID_MESSAGE);
        if (owner.id === me) throw badRequest('This is your own invite link');
        const friend = toSummary(owner);
        const existing = await findFriendshipBetween(trx, me, owner.id);
        if (existing?.status === 'accepted') {
          return { body: { success: true, alreadyFriends: true, friend } };
        }
        // A pending request in either direction becomes the friendship; otherwise a new row,
        // with the code's owner as the one who asked.
        const row = existing
          ? await acceptFriendship(trx, existing.id)
          : await insertFriendship(trx, {
              requesterId: owner.id,
              addresseeId: me,
              status: 'accepted',
            });
        await feed.record([me, owner.id], 'friendship', row.id);
        return { body: { success: true, alreadyFriends: false, friend } };
      });
    },
  );

  return router;
}
