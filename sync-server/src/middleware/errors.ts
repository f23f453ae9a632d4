import type { Middleware } from 'koa';
import { AppError, errorAnswer } from '../errors';

/** Turns every thrown error into the JSON error body; unknown errors become a logged 500. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // The router matches paths in any letter case, so `/API/…` is the API too.
      const api = /^\/api\//i.test(ctx.path);
      if (ctx.status === 404 && ctx.body === undefined && api) {
        ctx.status = 404;
        ctx.body = { error: `No such route: ${ctx.method} ${ctx.path}`, code: 'not_found' };
      }
      // The routers' allowedMethods() answer a path's other methods with 405 and methods they do
      // not know at all (PROPFIND, PURGE…) with 501, both as plain text: the API answers 405
      // with its error body for both (no input produces a 5xx), keeping the Allow header.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined && api) {
        ctx.status = 405;
        ctx.body = {
          error: `${ctx.method} is not allowed on ${ctx.path}`,
          code: 'method_not_allowed',
        };
      }
    } catch (err) {
      const answer = errorAnswer(err);
      if (answer.status === 500) {
        ctx.log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      } else if (answer.status === 503 && !(err instanceof AppError)) {
        ctx.log.warn({ err, method: ctx.method, path: ctx.path }, 'busy: answered 503');
      }
      ctx.status = answer.status;
      ctx.body = answer.body;
      if (answer.headers) ctx.set(answer.headers);
    }
  };
}
