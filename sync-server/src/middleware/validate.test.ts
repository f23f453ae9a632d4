/**
 * validated() (middleware/validate.ts) on a real Koa app with @koa/router on a loopback port:
 * the handler gets the schemas' output (defaults, coercions), a bad part is the product's 400
 * with zod's issues and the handler never runs, the body is judged before the query and the
 * query before the path, and middleware listed before it (authentication) runs first. Its types are
 * checked by `tsc -b` (`typeChecks` below).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { unauthorized } from '../errors';
import { jsonBody } from './body';
import { errorHandler } from './errors';
import { validated } from './validate';

const Body = z.strictObject({
  text: z.string().min(1, 'Text is required'),
  count: z.number().default(1),
});
const Query = z.object({ page: z.coerce.number().int().min(1, 'Page must be at least 1') });
const Params = z.object({ id: z.string().regex(/^\d+$/, 'The id must be digits') });

/** What the handlers saw, in order. */
const seen: unknown[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  const router = new Router();
  app.use(errorHandler());
  app.use(jsonBody(64 * 1024));
  router.post(
    '/api/things/:id',
    validated({ body: Body, query: Query, params: Params }, (ctx, input) => {
      seen.push(input);
      ctx.body = input;
    }),
  );
  router.post(
    '/api/guarded',
    (ctx, next) => {
      if (ctx.get('x-signed-in') !== 'yes') throw unauthorized();
      return next();
    },
    validated({ body: Body }, (ctx, { body }) => {
      seen.push(body);
      ctx.status = 204;
    }),
  );
  app.use(router.routes());
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('validated()', () => {
  it("gives the handler each part as its schema's output: defaults filled, the query coerced", async () => {
    seen.length = 0;
    const res = await post('/api/things/42?page=3', { text: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      body: { text: 'hi', count: 1 },
      query: { page: 3 },
      params: { id: '42' },
    });
    expect(seen).toEqual([res.body]);
  });

  it("answers a bad part with the product's 400 and zod's issues, and never runs the handler", async () => {
    seen.length = 0;
    const res = await post('/api/things/42?page=3', { text: 'hi', extra: true });
    expect(res).toEqual({
      status: 400,
      body: {
        error: 'Unknown field: extra',
        code: 'validation_failed',
        issues: [{ path: [], message: 'Unknown field: extra' }],
      },
    });
    expect(seen).toEqual([]);
  });

  it('judges the body first, then the query, then the path', async () => {
    seen.length = 0;
    const all = await post('/api/things/x?page=0', { text: '' });
    expect(all.body).toMatchObject({ error: 'Text is required', issues: [{ path: ['text'] }] });
    const queryAndPath = await post('/api/things/x?page=0', { text: 'hi' });
    expect(queryAndPath.body).toMatchObject({ error: 'Page must be at least 1' });
    const path = await post('/api/things/x?page=2', { text: 'hi' });
    expect(path.body).toMatchObject({ error: 'The id must be digits', issues: [{ path: ['id'] }] });
    expect([all.status, queryAndPath.status, path.status]).toEqual([400, 400, 400]);
    expect(seen).toEqual([]);
  });

  it('runs after the middleware listed before it: a signed-out request is a 401 whatever its input', async () => {
    seen.length = 0;
    const signedOut = await post('/api/guarded', { nonsense: true });
    expect(signedOut.status).toBe(401);
    const signedIn = await post('/api/guarded', { nonsense: true }, { 'x-signed-in': 'yes' });
    expect(signedIn.status).toBe(400);
    const good = await post('/api/guarded', { text: 'ok', count: 2 }, { 'x-signed-in': 'yes' });
    expect(good.status).toBe(204);
    expect(seen).toEqual([{ text: 'ok', count: 2 }]);
  });
});

/**
 * Never called: its lines are for `tsc -b`. Each `@ts-expect-error` fails the build the day
 * validated() accepts what it marks.
 */
export function typeChecks(): void {
  validated({ params: Params }, (_ctx, input) => {
    const id: string = input.params.id;
    // @ts-expect-error no body was declared
    void input.body;
    void id;
  });
  validated({ query: Query }, (_ctx, input) => {
    // @ts-expect-error the query's page is a number, not a string
    const page: string = input.query.page;
    void page;
  });
  // @ts-expect-error a misspelled part is refused
  validated({ parms: Params }, () => undefined);
  // @ts-expect-error so is one beside the parts it knows
  validated({ params: Params, parms: Params }, () => undefined);
}
