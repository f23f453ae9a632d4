/**
 * Moods (spec sections 2 "Friends", 3 and 5; docs/api.md "Moods"). A mood is shared with one
 * friend and only the two of them see it. Each share records a 'mood' change-log row for both.
 */
import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { latestMoodSharedWith } from '../db/moods';
import { requireUser } from '../middleware/auth';
import { aboutFriend } from './friends';

export function moodRoutes(router: Router, { db }: AppDeps): void {
  router.get(
    '/api/moods/:friendId/latest',
    requireUser(db),
    aboutFriend(db, async (ctx, { me, friendId }) => {
      const mood = await latestMoodSharedWith(db, friendId, me);
      // Koa turns a null body into 204; the contract is a JSON `null` with 200.
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(mood ?? null);
    }),
  );
}
