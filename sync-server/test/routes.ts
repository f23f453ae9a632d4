/**
 * Every route the app answers, read from the routers themselves, so a test that walks this list
 * (the authorization matrix, the fuzz run) fails when a route is added without being covered.
 */
import type { AppDeps } from '../src/deps';
import { apiRouter } from '../src/routes/index';

export interface RouteInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The pattern as registered, e.g. `/api/pings/:id/react`. */
  path: string;
}

export function listRoutes(deps: AppDeps): RouteInfo[] {
  const seen = new Set<string>();
  const out: RouteInfo[] = [];
  {
    for (const layer of apiRouter(deps).stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const key = `${method} ${layer.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ method: method as RouteInfo['method'], path: String(layer.path) });
      }
    }
  }
  return out;
}

/** `GET /api/pings/:id` style keys, as the tests' tables name routes. */
export const routeKey = (r: RouteInfo) => `${r.method} ${r.path}`;
