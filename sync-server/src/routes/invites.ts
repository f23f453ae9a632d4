/**
 * Invite links (/invite/{code}): every person has one code (users.invite_code). Checking a code
 * needs a session; using it makes the caller and the code's owner friends at once, which is how
 * private profiles are reached. docs/api.md "Invites", docs/decisions.md "Invites".
 */
import type Router from '@koa/router';
import { INVITE_INVALID_MESSAGE, InviteParams, type InviteCheckResponse } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { isBlockedEitherWay } from '../db/blocks';
import { findFriendshipBetween } from '../db/friendships';
import { findUserByInviteCode, toSummary } from '../db/users';
import { currentUser, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';
import { buckets, throttle } from '../services/rate-limits';

export function inviteRoutes(router: Router, { db, config }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get(
    '/api/invites/:code',
    signedIn,
    validated({ params: InviteParams }, async (ctx, { params: { code } }) => {
      const me = currentUser(ctx);
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
    }),
  );
}
