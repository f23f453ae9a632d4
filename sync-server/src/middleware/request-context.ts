/**
 * Outermost middleware: gives every request an id, times it, counts it in the metrics by its
 * route pattern, and logs it when asked (LOG_REQUESTS=true at info, or LOG_LEVEL=debug).
 *
 * The id is answered as `X-Request-Id` and carried by every line `ctx.log` writes. An incoming
 * `X-Request-Id` is kept only behind a trusted proxy (TRUST_PROXY), and only when it is short and
 * plain; otherwise anyone could put what they like into the operator's log lines.
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import type { Config } from '../config';
import { logger, type Logger } from '../logger';
import type { Metrics } from '../metrics';

declare module 'koa' {
  interface DefaultContext {
    /** This request's id (X-Request-Id). */
    requestId: string;
    /** The server's logger with this request's id on every line. */
    readonly log: Logger;
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';
const SANE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** What a request is counted and logged as: a route pattern, never a path with its ids. */
export function routeOf(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (matched !== undefined) return String(matched);
  const own = (ctx.state as { route?: unknown }).route;
  if (typeof own === 'string') return own;
  if (/^\/api(\/|$)/i.test(ctx.path)) return '(unmatched)';
  if (ctx.path.startsWith('/uploads/')) return '/uploads/:file';
  return '(static)';
}

const loggers = new WeakMap<Context, Logger>();

export function requestContext(
  app: Koa,
  config: Pick<Config, 'trustProxy' | 'logRequests'>,
  metrics?: Metrics,
): Middleware {
  // A child logger is made only for requests that log something.
  Object.defineProperty(app.context, 'log', {
    configurable: true,
    get(this: Context): Logger {
      let log = loggers.get(this);
      if (!log) {
        log = logger.child({ reqId: this.requestId });
        loggers.set(this, log);
      }
      return log;
    },
  });
  const level = config.logRequests ? 'info' : 'debug';

  return async (ctx, next) => {
    const started = performance.now();
    const incoming = config.trustProxy ? ctx.get(REQUEST_ID_HEADER) : '';
    ctx.requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set(REQUEST_ID_HEADER, ctx.requestId);
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(ctx);
      metrics?.observeRequest(ctx.method, route, ctx.status, seconds);
      if (logger.isLevelEnabled(level)) {
        // The path without its query: a query can hold a token (a reset link's).
        ctx.log[level](
          {
            method: ctx.method,
            path: ctx.path,
            route,
            status: ctx.status,
            ms: Math.round(seconds * 10_000) / 10,
          },
          'request',
        );
      }
    }
  };
}
