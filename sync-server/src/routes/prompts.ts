/**
 * The Ping Library: default prompts, a person's custom prompts, and assigning prompts to friends.
 * Answers use loadPrompts, the same shape /api/sync/pull delivers.
 */
import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { customPromptIds, defaultPromptIds, loadPrompts } from '../db/prompts';
import { currentUser, requireUser } from '../middleware/auth';

export function promptRoutes(router: Router, { db }: AppDeps): void {
  const auth = requireUser(db);

  router.get('/api/prompts/default', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPrompts(db, me, await defaultPromptIds(db));
  });

  router.get('/api/prompts/user', auth, async (ctx) => {
    const me = currentUser(ctx).id;
    ctx.body = await loadPrompts(db, me, await customPromptIds(db, me));
  });
}
