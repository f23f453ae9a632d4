/**
 * Request bodies that are files, not JSON (a profile photo; docs/security.md "Request bodies and
 * uploads"). Put it after requireUser, so nothing is read for someone who is not signed in. Then:
 * - at most `maxConcurrent` uploads run at once in this process (reading and the work after it,
 *   such as re-encoding); one more is answered 503 `server_busy` with Retry-After at once, so
 *   the memory uploads can hold is bounded by maxConcurrent × limit;
 * - a Content-Length over `limit` is refused before a byte is read (413), and a body sent
 *   without one (chunked) is counted as it arrives and abandoned as soon as it passes `limit`;
 * - a compressed body (Content-Encoding other than identity) is refused (415): its size on the
 *   wire says nothing about its size once inflated.
 * Every refusal of a body that was not read to its end closes the connection after the answer
 * (closeAfterAnswer): the rest of it never reaches a route. The bytes are on `ctx.state.upload`
 * (a Buffer) for the handler.
 */
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { AppError, badRequest, payloadTooLarge, serverBusy, unsupportedMediaType } from '../errors';
import { closeAfterAnswer } from './body';

export const UPLOAD_BUSY_MESSAGE =
  'The server is handling many uploads right now. Please try again in a moment.';
/** What a refused upload is told to wait before trying again. */
export const UPLOAD_RETRY_AFTER_SECONDS = 2;

export interface UploadOptions {
  /** Largest body in bytes. */
  limit: number;
  /** Uploads handled at once by this middleware (one route, one process). */
  maxConcurrent: number;
  /** The sentence of the 413. */
  tooLargeMessage: string;
}

export function uploadBody(opts: UploadOptions): Middleware {
  let running = 0;
  return async (ctx, next) => {
    if (running >= opts.maxConcurrent) {
      closeAfterAnswer(ctx);
      throw serverBusy(UPLOAD_BUSY_MESSAGE, UPLOAD_RETRY_AFTER_SECONDS);
    }
    running += 1;
    try {
      ctx.state.upload = await readBody(ctx, opts);
      await next();
    } finally {
      running -= 1;
    }
  };
}

/** The body as bytes, or the refusal (413, 415, 400) with the connection set to close. */
async function readBody(ctx: Context, opts: UploadOptions): Promise<Buffer> {
  // Sent as JSON, the body was already read (and judged) by the JSON parser: no file in it.
  if (ctx.req.readableEnded) {
    throw unsupportedMediaType('Send the photo as the file itself, with its image Content-Type');
  }
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    closeAfterAnswer(ctx);
    throw unsupportedMediaType('Send the file uncompressed (no Content-Encoding)');
  }
  const declared = ctx.get('content-length');
  try {
    return await getRawBody(ctx.req, {
      limit: opts.limit,
      length: declared === '' ? null : declared,
    });
  } catch (err) {
    closeAfterAnswer(ctx);
    const e = err as { status?: number; type?: string };
    if (e.status === 413 || e.type === 'entity.too.large') {
      throw payloadTooLarge(opts.tooLargeMessage);
    }
    if (err instanceof AppError) throw err;
    // The client went away part-way, or sent fewer bytes than it announced.
    throw badRequest('The upload did not arrive whole. Please try again.');
  }
}
