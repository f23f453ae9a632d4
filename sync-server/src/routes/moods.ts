/**
 * Moods (spec sections 2 "Friends", 3 and 5; docs/api.md "Moods"). A mood is shared with one
 * friend and only the two of them see it. Each share records a 'mood' change-log row for both.
 */
import type Router from '@koa/router';
import { FriendIdParams } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { areFriends } from '../db/friendships';
import { latestMoodSharedWith } from '../db/moods';
import { notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { input, validate } from '../middleware/validate';

import { MOOD_MESSAGES } from '../mutations/moods';

export function moodRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get(
    '/api/moods/:friendId/latest',
    signedIn,
    validate({ params: FriendIdParams }),
    async (ctx) => {
      const me = currentUser(ctx);
      const { params } = input<unknown, unknown, FriendIdParams>(ctx);
      if (params.friendId === me.id || !(await areFriends(db, me.id, params.friendId)))
        throw notFound(MOOD_MESSAGES.friendNotFound);
      const mood = await latestMoodSharedWith(db, params.friendId, me.id);
      // Koa turns a null body into 204; the contract is a JSON `null` with 200.
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(mood ?? null);
    },
  );
}
