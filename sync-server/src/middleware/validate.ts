import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { ZodType, z } from 'zod';
import { badRequest, zodIssues } from '../errors';

function parse<S extends ZodType>(schema: S, value: unknown): z.output<S> {
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
