/**
 * The Koa app factory. It never listens: server.ts (and the tests) put it on a port.
 */
import Koa from 'koa';
import type { AppDeps } from './deps';
import { jsonBody, leaveBodyUnread } from './middleware/body';
import { sessionUserId } from './middleware/auth';
import { compressJson } from './middleware/compress';
import { sameOriginOnly } from './middleware/csrf';
import { errorHandler } from './middleware/errors';
import { opsEndpoints } from './middleware/ops';
import { requestContext } from './middleware/request-context';
import { sessionMiddleware } from './middleware/session';
import { securityHeaders } from './middleware/security';
import { staticFiles } from './middleware/static';
import { apiRouter, apiRouting } from './routes/index';
import type { ChangeEvents } from './realtime/events';
import { logger } from './logger';

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

  // Outermost: the request id, timing and metrics see the final status the error handler set.
  app.use(requestContext(app, deps.config, deps.metrics));
  app.use(errorHandler());
  app.use(securityHeaders(deps.config));
  app.use(compressJson());
  // Health, readiness and metrics need no session, body or origin check.
  app.use(opsEndpoints(deps));
  // Before the body is read or the session loaded: a forged request changes nothing.
  app.use(sameOriginOnly(deps.config));
  // The session before any body: who is asking decides whether a body is read at all.
  app.use(sessionMiddleware(app, deps.db, deps.config));
  app.use((ctx, next) => {
    if (!sessionUserId(ctx) && !PUBLIC_BODY_PATHS.test(ctx.path)) return leaveBodyUnread(ctx, next);
    const limit = BODY_LIMITS.find(([re]) => re.test(ctx.path))?.[1] ?? DEFAULT_BODY_LIMIT;
    return parserFor(limit)(ctx, next);
  });

  app.use(apiRouting(apiRouter(deps)));
  app.use(staticFiles(deps.config));
  // A client that went away mid-answer (a closed tab, a lost connection) is not the server's
  // error: only real ones reach the log (and, as Koa's own handler does, not 404s or errors
  // meant for the client).
  app.on('error', (err: unknown, ctx?: Koa.Context) => {
    if (clientWentAway(err)) return;
    const e = err as { status?: number; expose?: boolean };
    if (e.status === 404 || e.expose) return;
    (ctx?.log ?? logger).error({ err }, 'request failed');
  });
  return app;
}

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function clientWentAway(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_GONE.has(code);
}
