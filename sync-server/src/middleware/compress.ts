/**
 * Compresses JSON answers of the API over COMPRESS_MIN_BYTES when the client accepts br or gzip
 * (the first pull of a person with some history is 20-30 KiB of JSON; brotli makes it a few).
 * Only bodies Koa would serialise itself are touched: a plain object or array, or a string
 * answered as JSON (the idempotency replay). Streams, Buffers, files (koa-send sends its own
 * precompressed copies), HEAD, 204/304 and small answers go out as they are; /ws never passes
 * through Koa's middleware (the upgrade is handled by the hub).
 */
import { Stream } from 'node:stream';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Middleware } from 'koa';

/** Smaller answers are sent as they are: the bytes saved do not pay for the work. */
export const COMPRESS_MIN_BYTES = 1024;

export function compressJson(): Middleware {
  return async (ctx, next) => {
    await next();
    if (!ctx.path.startsWith('/api/')) return;
    if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304) return;
    if (ctx.response.get('Content-Encoding')) return;
    const body: unknown = ctx.body;
    if (body === null || body === undefined) return;
    if (Buffer.isBuffer(body) || body instanceof Stream) return;
    if (typeof body !== 'object' && typeof body !== 'string') return;
    if (!ctx.response.is('json')) return;
    // Serialised once: an answer that stays as it is goes out as this text (Koa would otherwise
    // serialise the object again), keeping its JSON type.
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string') ctx.body = text;
    if (Buffer.byteLength(text) < COMPRESS_MIN_BYTES) return;
    const raw = Buffer.from(text);
    // Whether it is compressed depends on the request's Accept-Encoding from here on.
    ctx.vary('Accept-Encoding');
    // Brotli whenever it is accepted (it wins on JSON), else gzip; no header: as it is.
    if (!ctx.get('Accept-Encoding')) return;
    const encoding = (['br', 'gzip'] as const).find((e) => ctx.acceptsEncodings(e) === e);
    if (!encoding) return;
    const type = ctx.response.get('Content-Type');
    ctx.body =
      encoding === 'br'
        ? brotliCompressSync(raw, {
            params: {
              // Quality 5: most of brotli's gain on JSON at a fraction of the default's CPU.
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          })
        : gzipSync(raw, { level: 6 });
    ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', encoding);
  };
}
