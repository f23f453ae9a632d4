/**
 * The sync protocol (docs/sync.md): the change feed a device pulls, the batch of outbox entries
 * it pushes, the /ws messages, Web Push subscriptions and the data export.
 */
import { z } from 'zod';
import { Anchor, Mood } from './anchors';
import { Id, IsoDate } from './common';
import { Moment } from './insights';
import { Ping, Prompt, Reaction } from './pings';
import { FriendUser, SelfUser, UserProfileFields, UserSummary } from './users';

// ---------- pull ----------

export const PULL_DEFAULT_LIMIT = 500;
export const PULL_MAX_LIMIT = 1000;

/** An empty query value (`?since=`) means "not given", not 0. */
const optionalNumber = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().pipe(schema).optional());

/**
 * GET /api/sync/pull?since=<cursor>&limit=<n>&snapshot=<token>
 * `since`: the cursor of the last pull that ended with hasMore false (absent: full snapshot).
 * `snapshot`: the continuation token of a snapshot in progress (wins over `since`).
 */
export const PullQuery = z.object({
  since: optionalNumber(z.number().int().min(0)),
  limit: optionalNumber(z.number().int().min(1).max(PULL_MAX_LIMIT)),
  snapshot: z.string().min(1).max(512).optional(),
});
export type PullQuery = z.infer<typeof PullQuery>;

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

/** The 'user' entity: the person themself, or one of their friends. */
export const SyncUser = z.discriminatedUnion('relation', [
  SelfUser.extend({ relation: z.literal('self') }),
  FriendUser.extend({ relation: z.literal('friend') }),
]);
export type SyncUser = z.infer<typeof SyncUser>;

/** What a pending request shows of the other person (the e-mail waits for friendship). */
export const RequestPerson = UserSummary.extend({
  handle: z.string().nullable(),
  tagline: z.string().nullable(),
});
export type RequestPerson = z.infer<typeof RequestPerson>;

/** The 'friendship' entity: one friendships row the person is part of. */
export const SyncFriendship = z.object({
  id: Id,
  status: z.enum(['pending', 'accepted']),
  /** 'sent' when the person asked, 'received' when they were asked. */
  direction: z.enum(['sent', 'received']),
  requesterId: Id,
  addresseeId: Id,
  otherUserId: Id,
  createdAt: IsoDate,
  acceptedAt: IsoDate.nullable(),
  /** Profile fields once accepted; name, avatar, handle and tagline while pending. */
  other: z.union([UserProfileFields, RequestPerson]),
});
export type SyncFriendship = z.infer<typeof SyncFriendship>;

/** The `data` of an upsert, per entity. */
export interface SyncEntityData {
  user: SyncUser;
  friendship: SyncFriendship;
  prompt: Prompt;
  ping: Ping;
  anchor: Anchor;
  mood: Mood;
  moment: Moment;
}

export const PullChange = z.object({
  entity: z.enum(SYNC_ENTITIES),
  id: z.string(),
  op: z.enum(['upsert', 'delete']),
  /** The entity's current state as that person may see it; null for a delete (a tombstone). */
  data: z.unknown().nullable(),
});
export type PullChange = z.infer<typeof PullChange>;

export const PullResponse = z.object({
  /** Store it once a response has hasMore false; send it as `since` next time. */
  cursor: z.number().int(),
  hasMore: z.boolean(),
  /**
   * True on every page of a full snapshot: once the last page (hasMore false) is applied, the
   * device drops every record the snapshot did not mention (except ones with pending writes).
   */
  reset: z.boolean(),
  /** During a snapshot with hasMore: the token for the next page (`?snapshot=`); else null. */
  snapshot: z.string().nullable(),
  changes: z.array(PullChange),
});
export type PullResponse = z.infer<typeof PullResponse>;

// ---------- batch ----------

export const BATCH_MAX_ENTRIES = 100;
/** The status of an entry the server did not run because an earlier one failed transiently. */
export const BATCH_NOT_ATTEMPTED = 0;

const IdempotencyKey = z.string().min(1).max(200);

/** An outbox entry: a named mutation (shared/src/mutations.ts) and its arguments. */
export const MutationEntry = z.strictObject({
  idempotencyKey: IdempotencyKey,
  name: z.string().min(1).max(100),
  args: z.unknown().optional(),
});
export type MutationEntry = z.infer<typeof MutationEntry>;

/**
 * An entry written before mutations had names: the REST call itself. Devices that queued writes
 * then may still send them; the server reads each as the mutation its method and path name.
 */
export const RestEntry = z.strictObject({
  idempotencyKey: IdempotencyKey,
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  path: z
    .string()
    .regex(/^\/api\//, 'Paths start with /api/')
    .max(500),
  body: z.unknown().optional(),
});
export type RestEntry = z.infer<typeof RestEntry>;

export const BatchEntry = z.union([MutationEntry, RestEntry]);
export type BatchEntry = z.infer<typeof BatchEntry>;

export const BatchBody = z.strictObject({
  entries: z.array(BatchEntry).min(1).max(BATCH_MAX_ENTRIES),
});
export type BatchBody = z.infer<typeof BatchBody>;

export const BatchResult = z.object({
  idempotencyKey: z.string(),
  /** The entry's own HTTP status, or BATCH_NOT_ATTEMPTED (0). */
  status: z.number().int(),
  body: z.unknown(),
  /**
   * The caller's newest change number (the pull's cursor space) among the changes this entry's
   * write made, when it was applied by this request; absent on a replay (an answer stored by an
   * earlier request), on a refusal and for a write that changed nothing the caller pulls. A pull
   * page whose cursor is below it was read before the write: its version of the write's rows is
   * older than the answer (docs/sync.md, O3).
   */
  change: z.number().int().positive().optional(),
});
export type BatchResult = z.infer<typeof BatchResult>;
export const BatchResponse = z.object({ results: z.array(BatchResult) });
export type BatchResponse = z.infer<typeof BatchResponse>;

/**
 * Whether an answer is transient: worth retrying later, and blocking the entries behind it
 * (0 = no answer / not attempted, 408, 429, 5xx). Any other 4xx is final, and so is a 429 for a
 * receiver's daily ping limit (`daily_limit_reached`): holding that ping for a day and then
 * delivering it would surprise both people, so it is refused and shown like any other refusal.
 */
export function isRetryableStatus(status: number, body?: unknown): boolean {
  if (status === 429 && errorCodeOf(body) === 'daily_limit_reached') return false;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** The `code` of an error body, if it has one. */
export function errorCodeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'code' in body) {
    const code = (body as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

// ---------- /ws ----------

/** Larger client frames close the socket with 1009. */
export const WS_MAX_MESSAGE_BYTES = 4096;

export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), userId: z.string() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
/**
 * Every frame the server sends on /ws. The PWA parses each one and drops (and counts) what does
 * not match; the server builds frames only from these typed values (realtime/hub.ts).
 */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticated'), userId: z.string() }),
  /** A ping just delivered to this person (the sync protocol's hint, with the ping itself). */
  z.object({ type: z.literal('new_ping'), ping: Ping }),
  /** Something of this person's changed: pull. */
  z.object({ type: z.literal('poke') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

// ---------- Web Push ----------

export const VapidPublicKeyResponse = z.object({ publicKey: z.string() });
export type VapidPublicKeyResponse = z.infer<typeof VapidPublicKeyResponse>;

export const PushSubscribeBody = z.strictObject({
  endpoint: z.url().max(2000),
  keys: z.strictObject({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
  deviceId: z.string().max(100).optional(),
  expirationTime: z.number().nullable().optional(),
});
export type PushSubscribeBody = z.infer<typeof PushSubscribeBody>;
export const PushUnsubscribeBody = z.strictObject({ endpoint: z.url().max(2000) });
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBody>;

export const PushSubscriptionInfo = z.object({
  id: z.string(),
  endpoint: z.string(),
  deviceId: z.string().nullable(),
  createdAt: IsoDate,
});
export type PushSubscriptionInfo = z.infer<typeof PushSubscriptionInfo>;

/** What the service worker receives in a push (JSON). */
/** A Web Push message's JSON (the service worker parses it; push/notifier.ts builds it). */
export const PushPayload = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  pingId: z.string().optional(),
  anchorId: z.string().optional(),
});
export type PushPayload = z.infer<typeof PushPayload>;

// ---------- export ----------

/** GET /api/export ("Download My Data"), version 1. */
export const DataExport = z.object({
  exportVersion: z.literal(1),
  exportedAt: IsoDate,
  user: SelfUser,
  settings: z.object({
    profileVisibility: z.enum(['public', 'private']),
    quietHoursStart: z.string().nullable(),
    quietHoursEnd: z.string().nullable(),
    rateLimitPerDay: z.number().int(),
    onboardingCompleted: z.boolean(),
    onboardingStep: z.number().int().nullable(),
  }),
  friends: z.array(FriendUser),
  friendRequests: z.object({ sent: z.array(SyncFriendship), received: z.array(SyncFriendship) }),
  prompts: z.array(Prompt),
  pings: z.object({ sent: z.array(Ping), received: z.array(Ping) }),
  /** The reactions the person gave (those on their own pings are inside `pings`). */
  reactions: z.array(Reaction),
  moods: z.object({ shared: z.array(Mood), received: z.array(Mood) }),
  anchors: z.array(Anchor),
  moments: z.array(Moment),
  pushSubscriptions: z.array(PushSubscriptionInfo),
});
export type DataExport = z.infer<typeof DataExport>;
