/**
 * JSON request bodies (docs/api.md "Conventions", docs/security.md "Request bodies and uploads"):
 * @koa/bodyparser with the route's size limit, plus two refusals it does not make itself, so
 * that no body, however broken, reaches a 500:
 * - a body that cannot be read (Content-Encoding gzip, deflate or br whose bytes do not
 *   decompress: zlib's error carries no HTTP status) is 400 `malformed_json`, and like every
 *   body refused while it is read (413, 415, malformed JSON) its answer closes the connection;
 * - a body nested deeper than MAX_JSON_DEPTH is 400 `validation_failed`. It parses, but
 *   overflows the stack of what walks it recursively later (JSON.stringify for the idempotency
 *   hash and for each batch entry).
 */
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware, Next } from 'koa';
import { AppError, badRequest } from '../errors';

/**
 * How long a connection whose request body was refused unread stays open after its answer,
 * reading and dropping what the client is still sending (docs/security.md "Request bodies and
 * uploads"), and how much of it is read at most.
 */
export const LINGER_MS = 2000;
export const LINGER_MAX_BYTES = 8 * 1024 * 1024;

const lingering = new WeakSet<object>();

/**
 * The answer to this request closes the connection: the rest of its body is never handed to a
 * route. Closed the moment the answer is written, a socket with bytes still unread is reset, and
 * the reset can reach a client still sending before it has read the answer: it would see a broken
 * connection instead of the 401, 413, 415 or 503 (an HTTP server's "lingering close"). So after the
 * answer the connection stays open until the client has sent the body's end, for at most
 * LINGER_MS and LINGER_MAX_BYTES, dropping what arrives.
 */
export function closeAfterAnswer(ctx: Context): void {
  ctx.set('Connection', 'close');
  const { req, res } = ctx;
  if (lingering.has(res)) return;
  lingering.add(res);
  const socket = req.socket;
  res.once('finish', () => {
    // Node's server has just asked the socket to end and to be destroyed once its last bytes are
    // handed over (socket.destroySoon): keep it open instead, reading, until one of the ends below.
    if (socket.destroyed) return;
    socket.removeListener('finish', socket.destroy);
    const end = () => socket.destroy();
    const timer = setTimeout(end, LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    let dropped = 0;
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_MAX_BYTES) end();
    });
    req.once('end', end);
    req.once('error', end);
    if (req.readableEnded) end();
    else req.resume();
  });
}

/** The API's deepest body (a batch entry's body inside the batch) nests under 10 levels. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests arrays and objects deeper than `max` (no recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses JSON bodies of `methods` (POST, PUT and PATCH unless given) up to `limit` bytes. */
export function jsonBody(limit: number, methods?: string[]): Middleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    encoding: 'utf-8',
    ...(methods ? { parsedMethods: methods } : {}),
  }) as unknown as Middleware;
  return async (ctx, next) => {
    let read = false;
    try {
      await parse(ctx, async () => {
        read = true;
        if (nestsDeeperThan(ctx.request.body, MAX_JSON_DEPTH)) {
          throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
        }
        await next();
      });
    } catch (err) {
      if (read || err instanceof AppError) throw err;
      // The body was refused part-way (an encoding that does not decompress stops reading with
      // the rest of a large body still unread on the socket): the answer closes the
      // connection, or the client's next request on it would wait behind those bytes.
      closeAfterAnswer(ctx);
      if (typeof (err as { status?: unknown }).status !== 'number') {
        throw new AppError(400, 'malformed_json', 'The request body could not be decoded');
      }
      throw err;
    }
  };
}

/**
 * For a request whose body will not be read (nobody signed in on a route that needs a session):
 * when it has one, the answer closes the connection (closeAfterAnswer): the rest of it never
 * reaches a route.
 */
export function leaveBodyUnread(ctx: Context, next: Next): Promise<unknown> {
  const announced = Number(ctx.get('content-length') || 0);
  if (announced > 0 || ctx.get('transfer-encoding')) closeAfterAnswer(ctx);
  return next();
}
