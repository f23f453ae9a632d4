/**
 * Friendship energy (spec sections 2 "Analytics and energy", 3 and 9; docs/energy.md).
 */
import type Router from '@koa/router';
import { IdParams, type EnergyEntry } from '@pingme/shared';
import type { AppDeps } from '../deps';
import { notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';
import { readEnergy } from '../services/energy';

export function energyRoutes(router: Router, { db }: AppDeps): void {
  const signedIn = requireUser(db);

  router.get('/api/energy/all', signedIn, async (ctx) => {
    ctx.body = (await readEnergy(db, currentUser(ctx).id)) satisfies EnergyEntry[];
  });

  router.get(
    '/api/energy/friendship/:id',
    signedIn,
    validated({ params: IdParams }, async (ctx, { params: { id } }) => {
      const me = currentUser(ctx).id;
      const [found] = id === me ? [] : await readEnergy(db, me, id);
      if (!found) throw notFound('Friend not found');
      ctx.body = found satisfies EnergyEntry;
    }),
  );
}
