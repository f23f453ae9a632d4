/**
 * The Koa app factory. It never listens: server.ts (and the tests) put it on a port.
 */
import Koa from 'koa';
import type Router from '@koa/router';
import type { Config } from './config';
import type { Db } from './db/connection';
import { jsonBody, leaveBodyUnread } from './middleware/body';
import { sessionUserId } from './middleware/auth';
import { compressJson } from './middleware/compress';
import { sameOriginOnly } from './middleware/csrf';
import { errorHandler } from './middleware/errors';
import { idempotency } from './middleware/idempotency';
import { sessionMiddleware } from './middleware/session';
import { securityHeaders } from './middleware/security';
import { staticFiles } from './middleware/static';
import { authRoutes } from './routes/auth';
import type { Mailer } from './services/mail';
import { routeModules } from './routes/index';
import type { ChangeEvents } from './realtime/events';

export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  events: ChangeEvents;
}

declare module 'koa' {
  interface DefaultContext {
    events: ChangeEvents;
  }
}

const KB = 1024;
/**
 * JSON body limits per route: every JSON body is small (photos are files of their own route,
 * PUT /api/profile/photo, middleware/upload.ts). The batch carries up to 512 KB of outbox
 * entries (the PWA's MAX_BATCH_BYTES), or one entry of up to 64 KB, plus its envelope.
 */
const BODY_LIMITS: [RegExp, number][] = [[/^\/api\/sync\/batch\/?$/i, 1024 * KB]];
const DEFAULT_BODY_LIMIT = 64 * KB;
/**
 * The only routes that read a JSON body from someone who is not signed in. Any other request
 * without a signed-in session is answered (401 by requireUser, or 404) without its body being
 * read: a stranger cannot make the server hold their bytes.
 */
const PUBLIC_BODY_PATHS =
  /^\/api\/(register|login|logout|forgot-password|reset-password|resend-verification)\/?$/i;

export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy });
  app.context.events = deps.events;
  const parsers = new Map<number, Koa.Middleware>();
  const parserFor = (limit: number) => {
    let p = parsers.get(limit);
    if (!p) {
      p = jsonBody(limit);
      parsers.set(limit, p);
    }
    return p;
  };

  app.use(errorHandler());
  app.use(securityHeaders(deps.config));
  app.use(compressJson());
  if (deps.config.logRequests) {
    app.use(async (ctx, next) => {
      const t = performance.now();
      await next();
      console.log(
        `${ctx.method} ${ctx.path} ${ctx.status} ${(performance.now() - t).toFixed(1)}ms`,
      );
    });
  }
  // Before the body is read or the session loaded: a forged request changes nothing.
  app.use(sameOriginOnly(deps.config));
  // The session before any body: who is asking decides whether a body is read at all.
  app.use(sessionMiddleware(app, deps.db, deps.config));
  app.use((ctx, next) => {
    if (!sessionUserId(ctx) && !PUBLIC_BODY_PATHS.test(ctx.path)) return leaveBodyUnread(ctx, next);
    const limit = BODY_LIMITS.find(([re]) => re.test(ctx.path))?.[1] ?? DEFAULT_BODY_LIMIT;
    return parserFor(limit)(ctx, next);
  });
  app.use(idempotency(deps.db));

  const routers: Router[] = [authRoutes(deps), ...routeModules.map((make) => make(deps))];
  for (const r of routers) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }
  app.use(staticFiles(deps.config));
  // A client that went away mid-answer (a closed tab, a lost connection) is not the server's
  // error: only real ones reach Koa's log.
  app.on('error', (err: unknown) => {
    if (clientWentAway(err)) return;
    app.onerror(err as Error);
  });
  return app;
}

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function clientWentAway(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}
