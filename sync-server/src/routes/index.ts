/**
 * The API as one router. Every route is written with its full path (`/api/pings/recent`), so
 * searching for a path finds its handler; the writes are the named mutations of
 * shared/src/mutations.ts, mounted by routes/mutations.ts.
 */
import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { accountRoutes } from './account';
import { adminRoutes } from './admin';
import { anchorRoutes } from './anchors';
import { authRoutes } from './auth';
import { energyRoutes } from './energy';
import { exportRoutes } from './export';
import { friendRoutes } from './friends';
import { insightRoutes } from './insights';
import { inviteRoutes } from './invites';
import { moodRoutes } from './moods';
import { mutationRoutes } from './mutations';
import { oauthRoutes } from './oauth';
import { pingRoutes } from './pings';
import { profileRoutes } from './profile';
import { promptRoutes } from './prompts';
import { pushRoutes } from './push';
import { safetyRoutes } from './safety';
import { syncRoutes } from './sync';
import { usersRoutes } from './users';

const MODULES: ((router: Router, deps: AppDeps) => void)[] = [
  authRoutes,
  oauthRoutes,
  accountRoutes,
  mutationRoutes,
  friendRoutes,
  inviteRoutes,
  adminRoutes,
  profileRoutes,
  usersRoutes,
  promptRoutes,
  pingRoutes,
  anchorRoutes,
  moodRoutes,
  insightRoutes,
  energyRoutes,
  syncRoutes,
  pushRoutes,
  exportRoutes,
  safetyRoutes,
];

export function apiRouter(deps: AppDeps): Router {
  const router = new Router();
  for (const add of MODULES) add(router, deps);
  return router;
}
