/**
 * The admin dashboard's numbers. Admin status is granted only by the server: ADMIN_EMAILS at
 * sign-up and sign-in, and `npm run make-admin -- <email>`.
 */
import type Router from '@koa/router';
import type { AdminMetrics } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { adminMetrics } from '../db/admin';
import { requireAdmin, requireUser } from '../middleware/auth';

export function adminRoutes(router: Router, { db }: AppDeps): void {
  router.get('/api/admin/metrics', requireUser(db), requireAdmin(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await adminMetrics(db)) satisfies AdminMetrics;
  });
}
