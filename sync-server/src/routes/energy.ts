/**
 * Friendship energy (spec sections 2 "Analytics and energy", 3 and 9; docs/energy.md).
 */
import Router from '@koa/router';
import { IdParams, type EnergyEntry } from '@pingme/shared';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { mutate } from '../middleware/idempotency';
import { input, validate } from '../middleware/validate';
import { readEnergy, refreshEnergy } from '../services/energy';

export function energyRoutes({ db }: AppDeps): Router {
  const router = new Router({ prefix: '/api/energy' });
  const signedIn = requireUser(db);

  router.get('/all', signedIn, async (ctx) => {
    ctx.body = (await readEnergy(db, currentUser(ctx).id)) satisfies EnergyEntry[];
  });

  router.get('/friendship/:id', signedIn, validate({ params: IdParams }), async (ctx) => {
    const me = currentUser(ctx).id;
    const { id } = input<unknown, unknown, { id: string }>(ctx).params;
    const [found] = id === me ? [] : await readEnergy(db, me, id);
    if (!found) throw notFound('Friend not found');
    ctx.body = found satisfies EnergyEntry;
  });

  router.post('/update-all', signedIn, validate({ body: z.strictObject({}) }), async (ctx) => {
    const me = currentUser(ctx).id;
    await mutate<EnergyEntry[]>(ctx, db, async (trx) => ({ body: await refreshEnergy(trx, me) }));
  });

  return router;
}
