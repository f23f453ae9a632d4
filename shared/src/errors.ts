import { z } from 'zod';

/** Stable error codes the server answers with; the PWA switches on these, never on wording. */
export const ERROR_CODES = [
  'validation_failed',
  'malformed_json',
  'payload_too_large',
  'unsupported_media_type',
  'unauthorized',
  'forbidden',
  'not_found',
  /** A method the path does not take (405, with an Allow header). */
  'method_not_allowed',
  'conflict',
  'idempotency_mismatch',
  'rate_limited',
  /** A receiver's daily ping limit: final for this write, unlike a transient rate limit. */
  'daily_limit_reached',
  'invalid_credentials',
  'email_taken',
  'handle_taken',
  'token_invalid',
  'token_expired',
  'not_configured',
  /** 503: not ready (database, migrations) or shutting down. */
  'unavailable',
  /** Too many large uploads at once on this server: 503 with Retry-After, worth a retry. */
  'server_busy',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBody = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  issues: z
    .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
    .optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
