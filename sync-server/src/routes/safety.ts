/**
 * Block and report (docs/api.md "Safety", docs/security.md "Blocking" and "Reports").
 * A block ends everything between the two people in one transaction and hides each from the
 * other; what the blocked person gets from then on is exactly what a stranger gets, never a
 * word about the block. Reports are stored for admins, who list and resolve them.
 */
import type Router from '@koa/router';
import { AdminReportsQuery, type AdminReport, type BlockedPerson } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { listBlocked } from '../db/blocks';
import { listAdminReports } from '../db/reports';
import { currentUser, requireAdmin, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';

export function safetyRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  // ---------- blocks ----------

  router.get('/api/blocks', signedIn, async (ctx) => {
    ctx.body = (await listBlocked(db, currentUser(ctx).id)) satisfies BlockedPerson[];
  });

  // ---------- reports ----------

  // ---------- admin ----------

  const admin = [signedIn, requireAdmin()];

  router.get(
    '/api/admin/reports',
    ...admin,
    validated({ query: AdminReportsQuery }, async (ctx, { query }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = (await listAdminReports(db, { status: query.status })) satisfies AdminReport[];
    }),
  );
}
