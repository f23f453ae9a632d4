import { z } from 'zod';

/** GET /api/sync/pull?since=<cursor>&limit=<n> */
export const PullQuery = z.object({
  since: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

export const SYNC_ENTITIES = [
  'user',
  'friendship',
  'prompt',
  'ping',
  'anchor',
  'mood',
  'moment',
] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];

export const PullChange = z.object({
  entity: z.enum(SYNC_ENTITIES),
  id: z.string(),
  op: z.enum(['upsert', 'delete']),
  /** The entity's current state as that person may see it; null for a delete (a tombstone). */
  data: z.unknown().nullable(),
});
export type PullChange = z.infer<typeof PullChange>;

export const PullResponse = z.object({
  cursor: z.number().int(),
  hasMore: z.boolean(),
  /** True when the device must drop its copy first (no cursor, or the cursor is unknown/expired). */
  reset: z.boolean(),
  changes: z.array(PullChange),
});
export type PullResponse = z.infer<typeof PullResponse>;

export const BATCH_MAX_ENTRIES = 100;

export const BatchEntry = z.strictObject({
  idempotencyKey: z.string().min(1).max(200),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().regex(/^\/api\//, 'Paths start with /api/').max(500),
  body: z.unknown().optional(),
});
export type BatchEntry = z.infer<typeof BatchEntry>;

export const BatchBody = z.strictObject({
  entries: z.array(BatchEntry).min(1).max(BATCH_MAX_ENTRIES),
});

export const BatchResult = z.object({
  idempotencyKey: z.string(),
  status: z.number().int(),
  body: z.unknown(),
});
export const BatchResponse = z.object({ results: z.array(BatchResult) });
export type BatchResponse = z.infer<typeof BatchResponse>;

/** Messages on /ws. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), userId: z.string() }),
  z.object({ type: z.literal('ping') }),
]);
export type ServerMessage =
  | { type: 'authenticated'; userId: string }
  | { type: 'new_ping'; ping: unknown }
  | { type: 'poke' }
  | { type: 'pong' }
  | { type: 'error'; error: string };

export const PushSubscribeBody = z.strictObject({
  endpoint: z.url().max(2000),
  keys: z.strictObject({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
  deviceId: z.string().max(100).optional(),
  expirationTime: z.number().nullable().optional(),
});
export const PushUnsubscribeBody = z.strictObject({ endpoint: z.url().max(2000) });
