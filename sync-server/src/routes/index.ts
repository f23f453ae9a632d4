/** Every router module besides auth; app.ts mounts them in this order. */
import type Router from '@koa/router';
import type { AppDeps } from '../app';
import { friendRoutes } from './friends';
import { inviteRoutes } from './invites';
import { adminRoutes } from './admin';
import { oauthRoutes } from './oauth';
import { pingRoutes } from './pings';
import { promptRoutes } from './prompts';
import { profileRoutes } from './profile';
import { usersRoutes } from './users';
import { anchorRoutes } from './anchors';
import { energyRoutes } from './energy';
import { insightRoutes } from './insights';
import { moodRoutes } from './moods';
import { syncRoutes } from './sync';
import { pushRoutes } from './push';
import { exportRoutes } from './export';
import { accountRoutes } from './account';
import { safetyRoutes } from './safety';

export const routeModules: ((deps: AppDeps) => Router)[] = [
  oauthRoutes,
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
  accountRoutes,
  safetyRoutes,
];
