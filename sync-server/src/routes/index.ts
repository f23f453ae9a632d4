/**
 * The API as one router. Every route is written with its full path (`/api/pings/recent`), so
 * searching for a path finds its handler; the writes are the named mutations of
 * shared/src/mutations.ts, mounted by routes/mutations.ts. The app serves them through
 * apiRouting: each request is matched against the routes of its own path segment only.
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

type Routing = ReturnType<Router['routes']>;

/** `/api/pings/:id/read` → `pings`, in any letter case as the router matches; '' elsewhere. */
function segmentOf(path: string): string {
  const m = /^\/api\/([^/]+)/i.exec(path);
  return m ? m[1]!.toLowerCase() : '';
}

/**
 * The router's routes as middleware, one router per segment after `/api/`: a request is matched
 * against the few routes of its segment rather than all of them (the router tests every route's
 * pattern in turn: about 10 % of a REST send's CPU for 84 routes, measured side by side;
 * docs/performance.md, "Routes found by their segment"). The answers are the router's own:
 * another method on a known path is a 405 with its Allow header, OPTIONS lists the methods, and
 * a path of no segment (static files, an unknown one) goes through an empty router, so a method
 * no route knows is still a 501 there (routes/index.test.ts).
 */
export function apiRouting(router: Router): Routing {
  const bySegment = new Map<string, Router>();
  for (const layer of router.stack) {
    const segment = segmentOf(String(layer.path));
    if (!segment || segment.startsWith(':')) {
      throw new Error(`A route needs a fixed segment after /api/: ${String(layer.path)}`);
    }
    let own = bySegment.get(segment);
    if (!own) {
      own = new Router();
      bySegment.set(segment, own);
    }
    own.stack.push(layer);
  }
  const routed = (r: Router): Routing => {
    const routes = r.routes();
    const allowed = r.allowedMethods();
    // The two are typed with different router contexts; routes() has just made ctx the second.
    return (ctx, next) => routes(ctx, () => allowed(ctx as Parameters<typeof allowed>[0], next));
  };
  const chains = new Map([...bySegment].map(([segment, r]) => [segment, routed(r)]));
  const none = routed(new Router());
  return (ctx, next) => (chains.get(segmentOf(ctx.path)) ?? none)(ctx, next);
}
