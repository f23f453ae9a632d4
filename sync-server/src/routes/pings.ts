/**
 * Reading pings: the recent ones, counts, reactions around a person, and the pings between two
 * friends. Every answer with a ping uses loadPings, the same shape /api/sync/pull delivers. The
 * writes (sending, read marks, reactions, bookmarks) are mutations (mutations/pings.ts).
 */
import type Router from '@koa/router';
import type { CountResponse } from '@pingme/shared';
import type { AppDeps } from '../deps';
import {
  countSentAndReceived,
  countUnread,
  loadPings,
  pingIdsBetween,
  receivedPingIds,
} from '../db/pings';
import { reactionsAround } from '../db/reactions';
import { currentUser, requireUser } from '../middleware/auth';
import { aboutFriend } from './friends';

/** Lists are bounded; the full history reaches devices through /api/sync/pull. */
export const RECENT_PINGS_LIMIT = 50;
export const PINGS_WITH_LIMIT = 50;
export const REACTIONS_LIMIT = 100;

export function pingRoutes(router: Router, { db }: AppDeps): void {
  const auth = requireUser(db);

  router.get('/api/pings/recent', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPings(db, me, await receivedPingIds(db, me, RECENT_PINGS_LIMIT));
  });

  router.get('/api/pings/unread-count', auth, async (ctx) => {
    ctx.body = { count: await countUnread(db, currentUser(ctx).id) } satisfies CountResponse;
  });

  router.get('/api/pings/total-count', auth, async (ctx) => {
    ctx.body = {
      count: await countSentAndReceived(db, currentUser(ctx).id),
    } satisfies CountResponse;
  });

  router.get('/api/pings/reactions', auth, async (ctx) => {
    ctx.body = await reactionsAround(db, currentUser(ctx).id, REACTIONS_LIMIT);
  });

  router.get(
    '/api/pings/with/:friendId',
    auth,
    aboutFriend(db, async (ctx, { me, friendId }) => {
      ctx.body = await loadPings(db, me, await pingIdsBetween(db, me, friendId, PINGS_WITH_LIMIT));
    }),
  );
}
