/** Every router module besides auth; app.ts mounts them in this order. */
import type Router from '@koa/router';
import type { AppDeps } from '../app';

export const routeModules: ((deps: AppDeps) => Router)[] = [];
