/**
 * Every write a person can make, by name (docs/sync.md, "Mutations"): the zod
 * schema of its arguments, the schema of its answer, and the REST call that applies it. The PWA's
 * outbox stores `{name, args}` parsed by `args` when the write is made; the server applies a
 * mutation in-process, whether it arrives as that REST call or as an entry of
 * `POST /api/sync/batch`, and both answer the same status and body.
 *
 * REST paths name their parameters after fields of `args` (`/api/pings/:pingId/reactions` puts
 * the path's id in `args.pingId`); the body holds the other fields. docs/sync.md lists them all.
 */
import { z } from 'zod';
import { Anchor, CreateAnchorBody, Mood, MoodBody, RespondAnchorBody } from './schemas/anchors';
import { Id } from './schemas/common';
import {
  FriendActionResponse,
  FriendRequestBody,
  FriendRequestResponse,
  PostFriendsBody,
  RequestIdBody,
} from './schemas/friends';
import { Collection } from './schemas/insights';
import { InviteCode, InviteUseResponse } from './schemas/invites';
import { EnergyEntry } from './schemas/insights';
import {
  AssignPromptBody,
  BookmarkBody,
  CountResponse,
  CreatePromptBody,
  CustomPingBody,
  GroupPingBody,
  GroupPingResponse,
  Ping,
  Prompt,
  ReactionBody,
  SendPingBody,
  UpdatePromptBody,
} from './schemas/pings';
import {
  CompleteOnboardingBody,
  OnboardingBody,
  PrivacySettingsBody,
  ProfileUpdateBody,
} from './schemas/profile';
import {
  AdminReport,
  BlockBody,
  BlockedPerson,
  Report,
  ReportBody,
  ResolveReportBody,
  UnblockResponse,
} from './schemas/safety';
import { SelfUser } from './schemas/users';

export type MutationMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The Dexie/pull entity a mutation answers with its current state, when it does. */
export type MutationEntity = 'ping' | 'prompt' | 'mood' | 'anchor';

export interface MutationSpec<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** Its arguments: the REST path's parameters and body together. */
  readonly args: A;
  /** Its 2xx answer. */
  readonly result: R;
  readonly method: MutationMethod;
  /** The REST path; `:name` segments are fields of `args`. */
  readonly path: string;
  /** The answer is this entity's current state as the pull delivers it to the caller. */
  readonly entity?: MutationEntity;
  /** The largest JSON body (or batch entry's arguments) it takes; MUTATION_MAX_BYTES unless set. */
  readonly maxBytes?: number;
}

/** Writes are small: 64 KB of JSON, unless a mutation says otherwise. */
export const MUTATION_MAX_BYTES = 64 * 1024;

const spec = <A extends z.ZodType, R extends z.ZodType>(s: MutationSpec<A, R>) => s;

const SuccessResponse = z.object({ success: z.literal(true) });
const PingId = z.strictObject({ pingId: Id });

/**
 * Arguments made of path parameters and a strict body schema, as one strict object (a field
 * named in both would be ambiguous, so a body schema never has a path parameter's name).
 */
const withParams = <P extends z.ZodRawShape, B extends z.ZodRawShape>(
  params: P,
  body: z.ZodObject<B>,
) => z.strictObject({ ...params, ...body.shape });

export const MUTATIONS = {
  // ---------- pings ----------
  'ping.send': spec({
    args: SendPingBody,
    result: Ping,
    method: 'POST',
    path: '/api/pings',
    entity: 'ping',
  }),
  'ping.sendGroup': spec({
    args: GroupPingBody,
    result: GroupPingResponse,
    method: 'POST',
    path: '/api/pings/group',
  }),
  /** A custom message, a surprise (`surprise: true`) or an anchor ping (`anchorId`). */
  'ping.sendCustom': spec({
    args: CustomPingBody,
    result: Ping,
    method: 'POST',
    path: '/api/pings/custom',
    entity: 'ping',
  }),
  'ping.markRead': spec({
    args: z.strictObject({ id: Id }),
    result: Ping,
    method: 'PATCH',
    path: '/api/pings/:id/read',
    entity: 'ping',
  }),
  'ping.markAllRead': spec({
    args: z.strictObject({}),
    result: CountResponse,
    method: 'PATCH',
    path: '/api/pings/mark-all-read',
  }),
  'ping.react': spec({
    args: withParams(PingId.shape, ReactionBody),
    result: Ping,
    method: 'POST',
    path: '/api/pings/:pingId/reactions',
    entity: 'ping',
  }),
  'ping.bookmark': spec({
    args: withParams(PingId.shape, BookmarkBody),
    result: Ping,
    method: 'PATCH',
    path: '/api/pings/:pingId/bookmark',
    entity: 'ping',
  }),

  // ---------- moods ----------
  'mood.share': spec({
    args: MoodBody,
    result: Mood,
    method: 'POST',
    path: '/api/moods',
    entity: 'mood',
  }),

  // ---------- prompts ----------
  'prompt.create': spec({
    args: CreatePromptBody,
    result: Prompt,
    method: 'POST',
    path: '/api/prompts',
    entity: 'prompt',
  }),
  'prompt.update': spec({
    args: withParams({ id: Id }, UpdatePromptBody),
    result: Prompt,
    method: 'PUT',
    path: '/api/prompts/:id',
    entity: 'prompt',
  }),
  'prompt.delete': spec({
    args: z.strictObject({ id: Id }),
    result: SuccessResponse,
    method: 'DELETE',
    path: '/api/prompts/:id',
  }),
  'prompt.assign': spec({
    args: AssignPromptBody,
    result: Prompt,
    method: 'POST',
    path: '/api/prompts/assign',
    entity: 'prompt',
  }),

  // ---------- anchors ----------
  'anchor.create': spec({
    args: CreateAnchorBody,
    result: Anchor.extend({ autoAccepted: z.boolean() }),
    method: 'POST',
    path: '/api/profile/anchors',
    entity: 'anchor',
  }),
  'anchor.respond': spec({
    args: withParams({ id: Id }, RespondAnchorBody),
    result: Anchor,
    method: 'PATCH',
    path: '/api/profile/anchors/:id/respond',
    entity: 'anchor',
  }),
  /** Either person unpins an anchor, or the asker withdraws a request: it is gone for both. */
  'anchor.delete': spec({
    args: z.strictObject({ id: Id }),
    result: SuccessResponse,
    method: 'DELETE',
    path: '/api/profile/anchors/:id',
  }),

  // ---------- friends ----------
  'friend.request': spec({
    args: FriendRequestBody,
    result: FriendRequestResponse,
    method: 'POST',
    path: '/api/friends/request',
  }),
  /** The spec's POST /api/friends {friendId, status: 'pending'}: the same as friend.request. */
  'friend.add': spec({
    args: PostFriendsBody,
    result: FriendRequestResponse,
    method: 'POST',
    path: '/api/friends',
  }),
  'friend.accept': spec({
    args: RequestIdBody,
    result: FriendActionResponse,
    method: 'POST',
    path: '/api/friends/accept',
  }),
  /** The receiver declines, or the sender withdraws (the answer's `outcome` says which). */
  'friend.decline': spec({
    args: RequestIdBody,
    result: FriendActionResponse,
    method: 'POST',
    path: '/api/friends/reject',
  }),
  /**
   * Unfriend: the friendship ends, and with it every anchor between the two and the prompts each
   * had assigned to the other; pings and moods already exchanged stay (history).
   */
  'friend.remove': spec({
    args: z.strictObject({ friendId: Id }),
    result: SuccessResponse,
    method: 'DELETE',
    path: '/api/friends/:friendId',
  }),
  'invite.use': spec({
    args: withParams({ code: InviteCode }, z.strictObject({})),
    result: InviteUseResponse,
    method: 'POST',
    path: '/api/invites/:code/use',
  }),

  // ---------- profile, setup, privacy ----------
  'profile.update': spec({
    args: ProfileUpdateBody,
    result: SelfUser,
    method: 'PUT',
    path: '/api/profile/update',
  }),
  'onboarding.complete': spec({
    args: CompleteOnboardingBody,
    result: SelfUser,
    method: 'POST',
    path: '/api/user/complete-onboarding',
  }),
  'onboarding.step': spec({
    args: OnboardingBody,
    result: SelfUser,
    method: 'PATCH',
    path: '/api/user/onboarding',
  }),
  'privacy.update': spec({
    args: PrivacySettingsBody,
    result: SelfUser,
    method: 'PUT',
    path: '/api/privacy-settings',
  }),
  'pack.install': spec({
    args: z.strictObject({ id: Id }),
    result: Collection,
    method: 'POST',
    path: '/api/profile/collections/:id/install',
  }),
  'energy.refresh': spec({
    args: z.strictObject({}),
    result: z.array(EnergyEntry),
    method: 'POST',
    path: '/api/energy/update-all',
  }),

  // ---------- safety ----------
  'block.create': spec({
    args: BlockBody,
    result: BlockedPerson,
    method: 'POST',
    path: '/api/blocks',
  }),
  'block.delete': spec({
    args: z.strictObject({ userId: Id }),
    result: UnblockResponse,
    method: 'DELETE',
    path: '/api/blocks/:userId',
  }),
  'report.create': spec({
    args: ReportBody,
    result: Report,
    method: 'POST',
    path: '/api/reports',
  }),
  'report.resolve': spec({
    args: withParams({ id: Id }, ResolveReportBody),
    result: AdminReport,
    method: 'PATCH',
    path: '/api/admin/reports/:id',
  }),
} as const;

export type MutationName = keyof typeof MUTATIONS;
export const MUTATION_NAMES = Object.keys(MUTATIONS) as MutationName[];

/** What a mutation's arguments are once parsed (the outbox stores these). */
export type MutationArgs<N extends MutationName> = z.output<(typeof MUTATIONS)[N]['args']>;
/** What a caller may give before parsing (optional fields, defaults). */
export type MutationInput<N extends MutationName> = z.input<(typeof MUTATIONS)[N]['args']>;
export type MutationResult<N extends MutationName> = z.output<(typeof MUTATIONS)[N]['result']>;

export function isMutationName(name: unknown): name is MutationName {
  return typeof name === 'string' && Object.hasOwn(MUTATIONS, name);
}

/** The `:name` parameters of a REST path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

/** Each mutation's path parameters, read from its path once (every REST write asks). */
const PARAMS_OF = new Map<MutationName, readonly string[]>(
  MUTATION_NAMES.map((name) => [name, pathParams(MUTATIONS[name].path)]),
);

/** The `:name` parameters of a mutation's REST path, in order. */
export function mutationParams(name: MutationName): readonly string[] {
  return PARAMS_OF.get(name) ?? [];
}

/** The REST call of a mutation: the path with its parameters filled in, and the body. */
export function restCall<N extends MutationName>(
  name: N,
  args: MutationArgs<N>,
): { method: MutationMethod; path: string; body: Record<string, unknown> } {
  const { method, path } = MUTATIONS[name];
  const body: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  if (mutationParams(name).length === 0) return { method, path, body };
  const filled = path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = body[key];
    delete body[key];
    return encodeURIComponent(String(value));
  });
  return { method, path: filled, body };
}

/**
 * Which mutation a REST call is, with its arguments (path parameters and body together), or
 * undefined when no mutation has that method and path. Outbox entries written before named
 * mutations stored `{method, path, body}`; this reads them.
 */
export function mutationOfRestCall(
  method: string,
  path: string,
  body: unknown,
): { name: MutationName; args: Record<string, unknown>; repeated?: string } | undefined {
  const segments = path.split('?')[0]!.split('/');
  for (const name of MUTATION_NAMES) {
    const m = MUTATIONS[name];
    if (m.method !== method.toUpperCase()) continue;
    const pattern = m.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const seg = segments[i]!;
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(seg);
        } catch {
          return false;
        }
        return seg.length > 0;
      }
      return part === seg;
    });
    if (!matches) continue;
    const fields = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    const args: Record<string, unknown> = { ...fields, ...params };
    // A body field named like a path parameter is ambiguous: an unknown field, refused.
    for (const p of Object.keys(params))
      if (Object.hasOwn(fields, p)) args[`body.${p}`] = fields[p];
    return { name, args };
  }
  return undefined;
}
