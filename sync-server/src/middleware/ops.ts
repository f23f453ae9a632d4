/**
 * What a platform asks of a service, outside the API and before sessions and bodies:
 *
 * - `GET /healthz`: the process is alive and answers (no database: a slow disk must not get the
 *   process restarted);
 * - `GET /readyz`: the database answers and every migration is applied, and the server is not
 *   shutting down; otherwise 503, so a load balancer sends traffic elsewhere;
 * - `GET /metrics`: Prometheus metrics, only with METRICS_TOKEN (as `Authorization: Bearer …`);
 *   without it this port answers 404. METRICS_PORT serves them on a port of their own
 *   (server.ts), for a scraper on a private network.
 */
import type { Middleware } from 'koa';
import type { Config } from '../config';
import { notReadyReason, type Db } from '../db/connection';
import { AppError, notFound, serviceUnavailable } from '../errors';
import type { Lifecycle } from '../deps';
import { bearerMatches, type Metrics } from '../metrics';

export interface OpsDeps {
  db: Db;
  config: Pick<Config, 'metrics'>;
  metrics?: Metrics;
  lifecycle?: Lifecycle;
}

export function opsEndpoints(deps: OpsDeps): Middleware {
  // While shutting down, a kept-alive connection is closed after its answer (also for a request
  // that began before), so the listener can finish: the next request opens a fresh connection,
  // to another server or to this one once it is back.
  const closeWhenDraining: Middleware = async (ctx, next) => {
    try {
      await next();
    } finally {
      if (deps.lifecycle?.draining && !ctx.headerSent) ctx.set('Connection', 'close');
    }
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return closeWhenDraining(ctx, next);
    switch (ctx.path) {
      case '/healthz':
        ctx.state.route = '/healthz';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'ok' };
        return;
      case '/readyz': {
        ctx.state.route = '/readyz';
        ctx.set('Cache-Control', 'no-store');
        const reason = deps.lifecycle?.draining
          ? 'The server is shutting down'
          : await notReadyReason(deps.db);
        if (reason) throw serviceUnavailable(reason);
        ctx.body = { status: 'ready' };
        return;
      }
      case '/metrics': {
        ctx.state.route = '/metrics';
        const { token } = deps.config.metrics;
        if (!token || !deps.metrics) throw notFound(`No such route: ${ctx.method} ${ctx.path}`);
        if (!bearerMatches(ctx.get('authorization'), token)) {
          throw new AppError(
            401,
            'unauthorized',
            'Unauthorized: send the metrics token as a Bearer token',
            undefined,
            { 'WWW-Authenticate': 'Bearer realm="metrics"' },
          );
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.type = deps.metrics.registry.contentType;
        ctx.body = await deps.metrics.registry.metrics();
        return;
      }
    }
    return closeWhenDraining(ctx, next);
  };
}
