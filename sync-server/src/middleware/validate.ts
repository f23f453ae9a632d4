import type { RouterContext, RouterMiddleware } from '@koa/router';
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

/** The schemas a route's input is parsed with: its JSON body, its query string, its path. */
export interface InputSchemas {
  body?: ZodType;
  query?: ZodType;
  params?: ZodType;
}

/** What the handler receives: each part the route named, as its schema's output. */
export type ParsedInput<S extends InputSchemas> = {
  [K in keyof S & keyof InputSchemas]: z.output<NonNullable<S[K]>>;
};

/**
 * A route's handler with its input parsed first: the body, the query and the path parameters the
 * route names, in that order, each by its schema; the first that fails is a 400 with the zod
 * issues. Listed last, after the route's other middleware (authentication first, so a signed-out
 * request is a 401 whatever its input). The handler takes its body, query and path from here
 * only, typed by the schemas themselves (`z.output`), so the types cannot drift from them:
 *
 *   router.get('/api/users/:id/profile', requireUser(db),
 *     validated({ params: IdParams }, async (ctx, { params }) => { ... }));
 */
export function validated<S extends InputSchemas>(
  schemas: S & Record<Exclude<keyof S, keyof InputSchemas>, never>,
  handler: (ctx: RouterContext, input: ParsedInput<S>) => Promise<void> | void,
): RouterMiddleware {
  return async (ctx) => {
    const input: Partial<Record<keyof InputSchemas, unknown>> = {};
    if (schemas.body) input.body = parse(schemas.body, ctx.request.body ?? {});
    if (schemas.query) input.query = parse(schemas.query, ctx.query);
    if (schemas.params) input.params = parse(schemas.params, ctx.params);
    await handler(ctx, input as ParsedInput<S>);
  };
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
