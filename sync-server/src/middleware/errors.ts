import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import { AppError } from '../errors';
import { zodIssues } from './validate';

/** Turns every thrown error into the JSON error body; unknown errors become a logged 500. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        ctx.status = 404;
        ctx.body = { error: `No such route: ${ctx.method} ${ctx.path}`, code: 'not_found' };
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
      console.error('unhandled error', ctx.method, ctx.path, err);
      ctx.status = 500;
      ctx.body = { error: 'Something went wrong on our side. Please try again.', code: 'internal' };
    }
  };
}
