/**
 * The sync protocol's two calls (docs/sync.md): GET /api/sync/pull (the change feed and full
 * snapshots, sync/pull.ts) and POST /api/sync/batch (outbox entries in bulk, sync/batch.ts).
 */
import Router from '@koa/router';
import { BatchBody, PullQuery, type BatchResponse } from '@pingme/shared';
import type { AppDeps } from '../app';
import { badRequest } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { input, validate } from '../middleware/validate';
import { BATCH_MARKER_HEADER, runBatch } from '../sync/batch';
import { pull } from '../sync/pull';

export function syncRoutes({ db, metrics }: AppDeps): Router {
  const router = new Router({ prefix: '/api/sync' });
  const signedIn = requireUser(db);

  router.get('/pull', signedIn, validate({ query: PullQuery }), async (ctx) => {
    const { query } = input<unknown, PullQuery>(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await pull(db, currentUser(ctx).id, query);
  });

  router.post(
    '/batch',
    async (ctx, next) => {
      if (ctx.get(BATCH_MARKER_HEADER)) throw badRequest('A batch cannot contain /api/sync/batch');
      await next();
    },
    signedIn,
    validate({ body: BatchBody }),
    async (ctx) => {
      const { body } = input<BatchBody>(ctx);
      metrics?.batchEntries.observe(body.entries.length);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { results: await runBatch(ctx, body.entries) } satisfies BatchResponse;
    },
  );

  return router;
}
