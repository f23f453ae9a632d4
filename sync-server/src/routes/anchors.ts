/**
 * Anchors (spec sections 2 "Anchor dialog", 4, 5, 6 and 9; docs/api.md "Anchors").
 * At most 5 pending-or-accepted anchors per person; one per pair; asking a friend who already asked
 * you accepts their request instead. Every change records an 'anchor' change-log row for both.
 */
import type Router from '@koa/router';
import { type Anchor } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { listAcceptedAnchors, listPendingAnchors } from '../db/anchors';
import { currentUser, requireUser } from '../middleware/auth';

export function anchorRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get('/api/profile/anchors', signedIn, async (ctx) => {
    ctx.body = (await listAcceptedAnchors(db, currentUser(ctx).id)) satisfies Anchor[];
  });

  router.get('/api/profile/anchors/requests', signedIn, async (ctx) => {
    ctx.body = (await listPendingAnchors(db, currentUser(ctx).id, 'to')) satisfies Anchor[];
  });

  router.get('/api/profile/anchors/requests/sent', signedIn, async (ctx) => {
    ctx.body = (await listPendingAnchors(db, currentUser(ctx).id, 'from')) satisfies Anchor[];
  });
}
