/**
 * Typed errors. Services and handlers throw these; middleware/errors.ts writes the JSON body
 * `{ error, code, issues? }`. Nothing else sets an error status by hand.
 */
import type { ErrorCode } from '@pingme/shared';
import { ZodError } from 'zod';

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
/** A field the request may not carry (the wording zod's strict objects give, zodIssues). */
export const unknownField = (field: string) =>
  badRequest(`Unknown field: ${field}`, [{ path: [field], message: `Unknown field: ${field}` }]);
/** The server cannot serve now (not ready, shutting down); a client may retry elsewhere or later. */
export const serviceUnavailable = (message: string) => new AppError(503, 'unavailable', message);
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);

/** Zod's issues as the error body lists them. */
export function zodIssues(err: ZodError): Issue[] {
  return err.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.code === 'unrecognized_keys' ? `Unknown field: ${i.keys.join(', ')}` : i.message,
  }));
}

export interface ErrorAnswer {
  status: number;
  body: { error: string; code: ErrorCode; issues?: Issue[] };
  headers?: Record<string, string>;
}

/**
 * What any thrown error answers: the REST error middleware and each batch entry use this one
 * mapping, so a write refused either way gets the same status and body. A 500 is an error nobody
 * expected (the caller logs it).
 */
export function errorAnswer(err: unknown): ErrorAnswer {
  if (err instanceof AppError) {
    return {
      status: err.status,
      body: { error: err.message, code: err.code, ...(err.issues ? { issues: err.issues } : {}) },
      ...(err.headers ? { headers: err.headers } : {}),
    };
  }
  if (err instanceof ZodError) {
    const issues = zodIssues(err);
    return {
      status: 400,
      body: { error: issues[0]?.message ?? 'Invalid request', code: 'validation_failed', issues },
    };
  }
  const e = err as { status?: number; type?: string; message?: string; code?: string } | null;
  // PostgreSQL keeps no NUL character in text (SQLite does): such input is refused, not a fault.
  if (e?.code === '22021' || e?.code === '22P05') {
    return {
      status: 400,
      body: { error: 'Text must not contain NUL characters', code: 'validation_failed' },
    };
  }
  // Errors from the body parser and other Koa middleware carry an HTTP status.
  if (e?.status === 413 || e?.type === 'entity.too.large') {
    return {
      status: 413,
      body: { error: 'The request body is too large', code: 'payload_too_large' },
    };
  }
  if (e?.status === 415) {
    return {
      status: 415,
      body: { error: 'Send the body as application/json', code: 'unsupported_media_type' },
    };
  }
  if (e?.status && e.status >= 400 && e.status < 500) {
    return {
      status: 400,
      body: {
        error:
          e.type === 'entity.parse.failed' || e.status === 400
            ? 'The request body is not valid JSON'
            : (e.message ?? 'Bad request'),
        code: 'malformed_json',
      },
    };
  }
  // Another process (make-admin, an sqlite3 shell) held the SQLite file's write lock for all of
  // busy_timeout (db/connection.ts): the server is busy, not broken, and the write can be sent
  // again as it is (a device's outbox does so).
  if (e?.code?.startsWith('SQLITE_BUSY')) {
    return errorAnswer(serverBusy('The database is busy. Please try again in a moment.', 1));
  }
  return {
    status: 500,
    body: { error: 'Something went wrong on our side. Please try again.', code: 'internal' },
  };
}
export const serverBusy = (message: string, retryAfterSeconds: number) =>
  new AppError(503, 'server_busy', message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const unsupportedMediaType = (message: string) =>
  new AppError(415, 'unsupported_media_type', message);
