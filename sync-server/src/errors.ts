/**
 * Typed errors. Services and handlers throw these; middleware/errors.ts writes the JSON body
 * `{ error, code, issues? }`. Nothing else sets an error status by hand.
 */
import type { ErrorCode } from '@pingme/shared';

export interface Issue {
  path: (string | number)[];
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, issues?: Issue[]) =>
  new AppError(400, 'validation_failed', message, issues);
export const unauthorized = (message = 'Unauthorized') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, code: ErrorCode = 'conflict') =>
  new AppError(409, code, message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
export const serverBusy = (message: string, retryAfterSeconds: number) =>
  new AppError(503, 'server_busy', message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const unsupportedMediaType = (message: string) =>
  new AppError(415, 'unsupported_media_type', message);
