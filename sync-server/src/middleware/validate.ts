import type { Context, Middleware } from 'koa';
import type { ZodType, z } from 'zod';
import { badRequest, zodIssues } from '../errors';

export function parse<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error);
    throw badRequest(issues[0]?.message ?? 'Invalid request', issues);
  }
  return result.data;
}

/** Parsed input lives on ctx.state.input; handlers read nothing else from the request. */
export interface Input<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
}

export function validate<B extends ZodType, Q extends ZodType, P extends ZodType>(schemas: {
  body?: B;
  query?: Q;
  params?: P;
}): Middleware {
  return async (ctx, next) => {
    ctx.state.input = {
      body: schemas.body ? parse(schemas.body, ctx.request.body ?? {}) : undefined,
      query: schemas.query ? parse(schemas.query, ctx.query) : undefined,
      params: schemas.params
        ? parse(schemas.params, (ctx as Context & { params?: unknown }).params)
        : undefined,
    };
    await next();
  };
}

export function input<B = unknown, Q = unknown, P = unknown>(ctx: Context): Input<B, Q, P> {
  return ctx.state.input as Input<B, Q, P>;
}
