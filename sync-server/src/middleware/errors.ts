import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { AppError } from '../errors';
import { zodIssues } from './validate';

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
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = {
          error: err.message,
          code: err.code,
          ...(err.issues ? { issues: err.issues } : {}),
        };
        if (err.headers) ctx.set(err.headers);
        return;
      }
      if (err instanceof ZodError) {
        const issues = zodIssues(err);
        ctx.status = 400;
        ctx.body = {
          error: issues[0]?.message ?? 'Invalid request',
          code: 'validation_failed',
          issues,
        };
        return;
      }
      const e = err as { status?: number; type?: string; message?: string; expose?: boolean };
      // Errors from the body parser and other Koa middleware carry an HTTP status.
      if (e.status === 413 || e.type === 'entity.too.large') {
        ctx.status = 413;
        ctx.body = { error: 'The request body is too large', code: 'payload_too_large' };
        return;
      }
      if (e.status === 415) {
        ctx.status = 415;
        ctx.body = { error: 'Send the body as application/json', code: 'unsupported_media_type' };
        return;
      }
      if (e.status && e.status >= 400 && e.status < 500) {
        ctx.status = 400;
        ctx.body = {
          error:
            e.type === 'entity.parse.failed' || e.status === 400
              ? 'The request body is not valid JSON'
              : (e.message ?? 'Bad request'),
          code: 'malformed_json',
        };
        return;
      }
      ctx.log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Something went wrong on our side. Please try again.', code: 'internal' };
    }
  };
}
