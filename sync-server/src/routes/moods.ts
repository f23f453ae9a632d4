/**
 * Moods (spec sections 2 "Friends", 3 and 5; docs/api.md "Moods"). A mood is shared with one
 * friend and only the two of them see it. Each share records a 'mood' change-log row for both.
 */
import Router from '@koa/router';
import { Id, MoodBody, uuidv7, type Mood } from '@pingme/shared';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { nowIso } from '../db/connection';
import { areFriends } from '../db/friendships';
import { findMoodRow, insertMood, latestMoodSharedWith, loadMoods } from '../db/moods';
import { conflict, forbidden, notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';

export const MOOD_MESSAGES = {
  notFriends: 'You can only share a mood with a friend.',
  friendNotFound: 'Friend not found',
  idTaken: 'This mood id is already in use',
} as const;

const FriendParams = z.object({ friendId: Id });

export function moodRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api/moods' });
  const signedIn = requireUser(db);

  router.post('/', signedIn, validate({ body: MoodBody }), async (ctx) => {
    const me = currentUser(ctx);
    const { body } = input<z.output<typeof MoodBody>>(ctx);
    await mutate<Mood>(ctx, db, async (trx, feed) => {
      if (body.id) {
        const existing = await findMoodRow(trx, body.id);
        if (existing) {
          if (existing.userId !== me.id) throw conflict(MOOD_MESSAGES.idTaken);
          const [mood] = await loadMoods(trx, me.id, [existing.id]);
          return { status: 200, body: mood! };
        }
      }
      if (body.friendId === me.id || !(await areFriends(trx, me.id, body.friendId)))
        throw forbidden(MOOD_MESSAGES.notFriends);
      const row = {
        id: body.id ?? uuidv7(),
        userId: me.id,
        friendId: body.friendId,
        mood: body.mood,
        emoji: body.emoji,
        note: body.note,
        createdAt: nowIso(),
      };
      await insertMood(trx, row);
      await feed.record([me.id, body.friendId], 'mood', row.id);
      const [mood] = await loadMoods(trx, me.id, [row.id]);
      return { status: 201, body: mood! };
    });
  });

  router.get('/:friendId/latest', signedIn, validate({ params: FriendParams }), async (ctx) => {
    const me = currentUser(ctx);
    const { params } = input<unknown, unknown, z.output<typeof FriendParams>>(ctx);
    if (params.friendId === me.id || !(await areFriends(db, me.id, params.friendId)))
      throw notFound(MOOD_MESSAGES.friendNotFound);
    const mood = await latestMoodSharedWith(db, params.friendId, me.id);
    // Koa turns a null body into 204; the contract is a JSON `null` with 200.
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(mood ?? null);
  });

  return router;
}
