/**
 * The sync protocol's two calls (docs/sync.md): GET /api/sync/pull (the change feed and full
 * snapshots, sync/pull.ts) and POST /api/sync/batch (outbox entries in bulk, sync/batch.ts).
 */
import type Router from '@koa/router';
import { BatchBody, PullQuery } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { currentUser, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';
import { batchResponseJson, runBatch } from '../sync/batch';
import { pull } from '../sync/pull';

export function syncRoutes(router: Router, deps: AppDeps): void {
  const { db, config, metrics } = deps;
  const signedIn = requireUser(db);

  router.get(
    '/api/sync/pull',
    signedIn,
    validated({ query: PullQuery }, async (ctx, { query }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await pull(db, currentUser(ctx).id, query);
    }),
  );

  router.post(
    '/api/sync/batch',
    signedIn,
    validated({ body: BatchBody }, async (ctx, { body }) => {
      metrics?.batchEntries.observe(body.entries.length);
      ctx.set('Cache-Control', 'no-store');
      const caller = { me: currentUser(ctx), config, ip: ctx.ip };
      ctx.type = 'json';
      ctx.body = batchResponseJson(await runBatch(deps, caller, body.entries));
    }),
  );
}
