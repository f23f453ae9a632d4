/**
 * Fuzz run generators (test/fuzz.test.ts): for each route, requests built from the route's zod
 * schemas and then broken (wrong types, missing and extra fields, huge strings, invalid UTF-8,
 * deep JSON, wrong content types, other people's ids), as fast-check arbitraries so a failure
 * shrinks to a small request.
 */
import { gzipSync } from 'node:zlib';
import {
  AdminReportsQuery,
  AssignPromptBody,
  BatchBody,
  BlockBody,
  BookmarkBody,
  ChangePasswordBody,
  CompleteOnboardingBody,
  CreateAnchorBody,
  CreatePromptBody,
  CustomPingBody,
  DeleteAccountBody,
  ForgotPasswordBody,
  FriendRequestBody,
  GroupPingBody,
  InviteUseBody,
  LIMITS,
  LoginBody,
  MoodBody,
  OnboardingBody,
  PostFriendsBody,
  PrivacySettingsBody,
  ProfileUpdateBody,
  PullQuery,
  PushSubscribeBody,
  PushUnsubscribeBody,
  ReactionBody,
  RegisterBody,
  ReportBody,
  RequestIdBody,
  ResendVerificationBody,
  ResetPasswordBody,
  ResolveReportBody,
  RespondAnchorBody,
  SearchQuery,
  SendPingBody,
  UpdatePromptBody,
  VerifyEmailQuery,
} from '@pingme/shared';
import fc from 'fast-check';
import { z, type ZodType } from 'zod';
import type { RouteInfo } from './routes';

// ---------- what each route reads ----------

export interface RouteInputs {
  body?: ZodType;
  query?: ZodType;
  /**
   * Body limit of the route (app.ts BODY_LIMITS; the DELETE routes parse their own 8 KB; the
   * photo upload its own 5 MB).
   */
  limit?: number;
}

const KB = 1024;
const EMPTY = z.strictObject({});
const CALLBACK_QUERY = z.object({ code: z.string(), state: z.string(), error: z.string() });

/**
 * Every route's body and query schema (the same objects the routes validate with). A route that
 * listRoutes() reports and this table lacks fails the run: a new route must be added here.
 */
export const ROUTE_INPUTS: Record<string, RouteInputs> = {
  'POST /api/register': { body: RegisterBody },
  'POST /api/login': { body: LoginBody },
  'POST /api/logout': {},
  'GET /api/login': {},
  'GET /api/user': {},
  'GET /api/session': {},
  'POST /api/forgot-password': { body: ForgotPasswordBody },
  'POST /api/reset-password': { body: ResetPasswordBody },
  'GET /api/verify-email': { query: VerifyEmailQuery },
  'POST /api/resend-verification': { body: ResendVerificationBody },
  'GET /api/auth/google': {},
  'GET /api/auth/google/callback': { query: CALLBACK_QUERY },
  'GET /api/friends': {},
  'GET /api/friends/pending': {},
  'GET /api/friends/:friendId': {},
  'GET /api/friends/:friendId/stats': {},
  'POST /api/friends/request': { body: FriendRequestBody },
  'POST /api/friends': { body: PostFriendsBody },
  'POST /api/friends/accept': { body: RequestIdBody },
  'DELETE /api/friends/:friendId': {},
  'POST /api/friends/reject': { body: RequestIdBody },
  'GET /api/invites/:code': {},
  'POST /api/invites/:code/use': { body: InviteUseBody },
  'GET /api/admin/metrics': {},
  'GET /api/username/check/:handle': {},
  'POST /api/user/complete-onboarding': { body: CompleteOnboardingBody },
  'PATCH /api/user/onboarding': { body: OnboardingBody },
  'PUT /api/profile/update': { body: ProfileUpdateBody },
  // The file itself (middleware/upload.ts): what it is sent as decides nothing but a 400/415.
  'PUT /api/profile/photo': { limit: LIMITS.imageBytesExtended },
  'PUT /api/privacy-settings': { body: PrivacySettingsBody },
  'GET /api/users/search': { query: SearchQuery },
  'GET /api/users/suggestions': {},
  'GET /api/users/:id/profile': {},
  'GET /api/prompts/default': {},
  'GET /api/prompts/user': {},
  'POST /api/prompts': { body: CreatePromptBody },
  'PUT /api/prompts/:id': { body: UpdatePromptBody },
  'DELETE /api/prompts/:id': {},
  'POST /api/prompts/assign': { body: AssignPromptBody },
  'POST /api/pings': { body: SendPingBody },
  'POST /api/pings/group': { body: GroupPingBody },
  'POST /api/pings/custom': { body: CustomPingBody },
  'GET /api/pings/recent': {},
  'GET /api/pings/unread-count': {},
  'GET /api/pings/total-count': {},
  'GET /api/pings/reactions': {},
  'GET /api/pings/with/:friendId': {},
  'PATCH /api/pings/mark-all-read': {},
  'PATCH /api/pings/:id/read': {},
  'POST /api/pings/:pingId/reactions': { body: ReactionBody },
  'PATCH /api/pings/:pingId/bookmark': { body: BookmarkBody },
  'GET /api/profile/anchors': {},
  'GET /api/profile/anchors/requests': {},
  'GET /api/profile/anchors/requests/sent': {},
  'POST /api/profile/anchors': { body: CreateAnchorBody },
  'PATCH /api/profile/anchors/:id/respond': { body: RespondAnchorBody },
  'DELETE /api/profile/anchors/:id': {},
  'POST /api/moods': { body: MoodBody },
  'GET /api/moods/:friendId/latest': {},
  'GET /api/analytics/friendship/:friendId': {},
  'GET /api/analytics/pings': {},
  'GET /api/profile/metrics': {},
  'GET /api/profile/moments': {},
  'GET /api/profile/badges': {},
  'GET /api/profile/collections': {},
  'POST /api/profile/collections/:id/install': { body: EMPTY },
  'GET /api/energy/all': {},
  'GET /api/energy/friendship/:id': {},
  'POST /api/energy/update-all': { body: EMPTY },
  'GET /api/sync/pull': { query: PullQuery },
  'POST /api/sync/batch': { body: BatchBody, limit: 1024 * KB },
  'GET /api/push/vapid-public-key': {},
  'POST /api/push/subscribe': { body: PushSubscribeBody },
  'DELETE /api/push/subscribe': { body: PushUnsubscribeBody, limit: 8 * KB },
  'GET /api/export': {},
  'POST /api/change-password': { body: ChangePasswordBody },
  'POST /api/logout-everywhere': {},
  'DELETE /api/account': { body: DeleteAccountBody, limit: 8 * KB },
  'GET /api/blocks': {},
  'POST /api/blocks': { body: BlockBody },
  'DELETE /api/blocks/:userId': {},
  'POST /api/reports': { body: ReportBody },
  'GET /api/admin/reports': { query: AdminReportsQuery },
  'PATCH /api/admin/reports/:id': { body: ResolveReportBody },
};

export const DEFAULT_BODY_LIMIT = 64 * KB;

// ---------- values ----------

/** The world's ids and names, given by the test once the world exists. */
export interface Pools {
  /** Every id in the world (people, pings, prompts, anchors, ...), others' and the caller's. */
  ids: string[];
  people: string[];
  /** Invite codes, handles, e-mails, endpoints. */
  names: string[];
  emails: string[];
  /** The world's ids by kind: people, pings, prompts, anchors, friendships, reports, packs... */
  byKind: Record<string, string[]>;
}

/**
 * Which of the world's ids a field or path parameter names, from its name (and the path before
 * it): so a clean request points at a real thing of the right kind (anyone's), and the route
 * runs past its lookups. 'new' is a client-chosen id, mostly fresh.
 */
export function idKind(name: string, before = ''): string | undefined {
  if (/^(receiverIds?|friendId|userId)$/.test(name)) return 'people';
  if (name === 'promptId') return 'prompts';
  if (name === 'pingId') return 'pings';
  if (name === 'anchorId') return 'anchors';
  if (name === 'requestId') return 'friendships';
  if (name === 'groupId') return 'groups';
  if (name === 'id' && before) {
    for (const [re, kind] of [
      [/\/prompts\/$/, 'prompts'],
      [/\/pings\/$/, 'pings'],
      [/\/anchors\/$/, 'anchors'],
      [/\/reports\/$/, 'reports'],
      [/\/collections\/$/, 'packs'],
      [/\/(users|friendship)\/$/, 'people'],
    ] as const)
      if (re.test(before)) return kind;
  }
  if (/^(id|ids|momentId)$/.test(name)) return 'new';
  return undefined;
}

function idsOfKind(kind: string | undefined, pools: Pools): fc.Arbitrary<string> {
  const own = kind && kind !== 'new' ? pools.byKind[kind] : undefined;
  if (kind === 'new')
    return fc.oneof(
      { weight: 4, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constantFrom(...pools.ids) },
    );
  return fc.oneof(
    { weight: own?.length ? 4 : 0, arbitrary: fc.constantFrom(...(own?.length ? own : pools.ids)) },
    { weight: 2, arbitrary: fc.constantFrom(...pools.ids) },
    { weight: 1, arbitrary: fc.uuid() },
  );
}

/** A value the serializer replaces with JSON nested `depth` levels deep (built as text). */
export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}
  toJSON() {
    return `@@DEEP_${this.depth}_${this.shape}@@`;
  }
  text(): string {
    return this.shape === 'array'
      ? '['.repeat(this.depth) + ']'.repeat(this.depth)
      : '{"a":'.repeat(this.depth) + '1' + '}'.repeat(this.depth);
  }
}

/** A string of `length` copies of `unit`, shown short in counterexamples. */
export class Huge {
  constructor(
    readonly unit: string,
    readonly count: number,
  ) {}
  toJSON() {
    return this.unit.repeat(this.count);
  }
  toString() {
    return `Huge(${JSON.stringify(this.unit)} x ${this.count})`;
  }
}

/** JSON text of a value that may hold Deep markers. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"@@DEEP_(\d+)_(array|object)@@"/g, (_m, d: string, s: 'array' | 'object') =>
    new Deep(Number(d), s).text(),
  );
}

const PLAUSIBLE = [
  'hi',
  'Hello there',
  '  padded  ',
  '',
  ' ',
  '😊',
  '👩‍👩‍👧‍👦',
  '#e35120',
  '12:30',
  '25:99',
  'https://example.test/x',
  'data:image/png;base64,iVBORw0KGgo=',
  'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  'data:image/png;base64,!!!!',
  'good_name',
  'accept',
  'decline',
  'resolved',
  'open',
  'all',
  'public',
  'private',
  'heart',
  'spam',
  'pending',
  'DELETE',
  'correct horse',
  'happy',
];

export const NASTY_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e999',
  '0x1F',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '../../etc/passwd',
  '..',
  '%00',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\ufeff',
  'Z̷̢͙a̴l̵g̶o̷',
  '<script>alert(1)</script>',
  '${7*7}',
  '\r\n\r\n',
  '\\',
  '%',
  'e\u0301',
  '🏳️‍🌈'.repeat(40),
];

const NUMBERS = [0, -1, 1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, -(2 ** 31), 1e-300, 7];

export const huge = fc.oneof(
  fc.constant(new Huge('x', 100_001)),
  fc.constant(new Huge('😀', 30_000)),
  fc.constant(new Huge('é', 70_000)),
  fc.integer({ min: 100_001, max: 150_000 }).map((n) => new Huge('a', n)),
);

export const deep = fc.oneof(
  fc.constant(new Deep(10_000, 'array')),
  fc.constant(new Deep(10_000, 'object')),
  fc.constant(new Deep(30_000, 'array')),
  fc.integer({ min: 100, max: 5_000 }).map((n) => new Deep(n, 'array')),
);

/** Some value of the wrong kind, for any field. */
export function wrongValue(pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 3, arbitrary: fc.constantFrom(...pools.ids, ...pools.names) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...pools.ids), { maxLength: 60 }) },
  );
}

// ---------- zod shape -> plausible values ----------

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, ZodType>;
  innerType?: ZodType;
  in?: ZodType;
  out?: ZodType;
  element?: ZodType;
  options?: ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  defaultValue?: unknown;
}
const defOf = (s: ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Values shaped like the schema (right keys, right kinds), drawn from the world's ids, e-mails
 * and plausible texts, mostly ones the field's own schema accepts, so that requests start from
 * something the route reads deeply before they are broken. `field` is the schema of the whole
 * field (with its optional/pipe wrappers), used to pick the candidates it accepts.
 */
export function plausible(
  schema: ZodType,
  pools: Pools,
  depth = 0,
  field: ZodType = schema,
  key?: string,
): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const accepted = <T>(candidates: T[], other: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => {
    const ok = candidates.filter((c) => field.safeParse(c).success);
    return ok.length
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ok) }, { weight: 1, arbitrary: other })
      : other;
  };
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const entries = Object.entries(shape).map(
        ([k, v]) => [k, plausible(v, pools, depth + 1, v, k)] as const,
      );
      const optional = Object.entries(shape)
        .filter(([, v]) => ['optional', 'default'].includes(defOf(v).type) || isOptionalPipe(v))
        .map(([k]) => k);
      return fc.record(Object.fromEntries(entries), {
        requiredKeys: Object.keys(shape).filter((k) => !optional.includes(k)),
      });
    }
    case 'string':
      if (def.format === 'uuid') return idsOfKind(key && idKind(key), pools);
      if (def.format === 'email')
        return fc.oneof(
          fc.constantFrom(...pools.emails),
          fc.emailAddress(),
          fc.uuid().map((u) => `new-${u.slice(0, 8)}@example.test`),
        );
      if (def.format === 'url')
        return fc.oneof(fc.constant('https://push.example.test/sub/1'), fc.webUrl());
      return accepted(
        [...PLAUSIBLE, ...pools.names, ...pools.emails],
        fc.oneof(fc.constantFrom(...PLAUSIBLE), fc.string({ maxLength: 40 })),
      );
    case 'number':
    case 'int':
      return accepted(
        [...NUMBERS, 2, 3, 5, 20, 100],
        fc.oneof(fc.integer({ min: -2, max: 1200 }), fc.constantFrom(...NUMBERS)),
      );
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return plausible(def.innerType!, pools, depth, field, key);
    case 'pipe': {
      // A string normalised then checked (Email: trim, lowercase, then z.email()): the check's
      // format says what to generate.
      const out = def.out ? defOf(def.out) : undefined;
      if (out?.type === 'string' && out.format)
        return plausible(def.out!, pools, depth, field, key);
      return plausible(def.in!, pools, depth, field, key);
    }
    case 'array':
      return depth > 4
        ? fc.constant([])
        : fc.uniqueArray(plausible(def.element!, pools, depth + 1, def.element!, key), {
            minLength: 1,
            maxLength: 4,
          });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((o) => plausible(o, pools, depth)));
    case 'unknown':
    case 'any':
      return depth > 4 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function isOptionalPipe(s: ZodType): boolean {
  const d = defOf(s);
  return d.type === 'pipe' && ['optional', 'default'].includes(defOf(d.in!).type);
}

// ---------- mutations of a JSON body ----------

type Json = unknown;

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'extra',
  'isAdmin',
  'userId',
  'id',
  '',
];

/**
 * A body derived from `base`: as is, a field dropped, a field added, a field's value replaced by
 * a wrong one, or the whole body replaced (null, an array, a number, a string, deep nesting).
 */
export function mutatedBody(base: fc.Arbitrary<Json>, pools: Pools): fc.Arbitrary<[Json, string]> {
  const wrong = wrongValue(pools);
  return fc.oneof(
    { weight: 4, arbitrary: base.map((b): [Json, string] => [b, 'as generated']) },
    {
      weight: 2,
      arbitrary: fc.tuple(base, fc.nat()).map(([b, i]): [Json, string] => {
        if (!isObject(b)) return [b, 'as generated'];
        const keys = Object.keys(b);
        if (!keys.length) return [b, 'as generated'];
        const k = keys[i % keys.length]!;
        const { [k]: _gone, ...rest } = b;
        return [rest, `without ${k}`];
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(base, fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), wrong)
        .map(([b, k, v]): [Json, string] => {
          if (!isObject(b)) return [b, 'as generated'];
          const out: Record<string, unknown> = { ...b };
          // defineProperty: `out[k] =` would set the prototype for '__proto__'.
          Object.defineProperty(out, k, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          return [out, `extra field ${JSON.stringify(k)}`];
        }),
    },
    {
      weight: 5,
      arbitrary: fc.tuple(base, fc.nat(), wrong).map(([b, i, v]): [Json, string] => {
        if (!isObject(b)) return [v, 'replaced whole body'];
        const keys = Object.keys(b);
        if (!keys.length) return [v, 'replaced whole body'];
        const k = keys[i % keys.length]!;
        return [{ ...b, [k]: v }, `${k} replaced`];
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom<Json>(null, [], 0, -1, 'a string', true, [{}], { '': {} }),
          deep,
          huge,
          fc.jsonValue({ maxDepth: 4 }),
          base.map((b) => [b]),
        )
        .map((v): [Json, string] => [v, 'whole body replaced']),
    },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Deep) &&
  !(v instanceof Huge);

// ---------- the request ----------

export type Identity = 'alice' | 'anon' | 'admin' | 'forged';
export type OriginKind = 'own' | 'none' | 'foreign' | 'null' | 'cross-site-fetch';

export interface Shot {
  as: Identity;
  method: string;
  /** Path with query, percent-encoded. */
  path: string;
  origin: OriginKind;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  idempotencyKey: string | undefined;
  body: Buffer | undefined;
  /** What was done to the request, for the report of a failure. */
  note: string;
}

export function describeShot(s: Shot): string {
  const body = s.body
    ? s.body.length > 300
      ? `${s.body.length} bytes: ${JSON.stringify(s.body.subarray(0, 160).toString('latin1'))}…`
      : JSON.stringify(s.body.toString('latin1'))
    : 'none';
  return `${s.method} ${s.path.length > 300 ? s.path.slice(0, 300) + '…' : s.path} as ${s.as}, origin ${s.origin}, content-type ${s.contentType ?? 'none'}${s.contentEncoding ? `, content-encoding ${s.contentEncoding}` : ''}${s.idempotencyKey ? `, idempotency-key ${s.idempotencyKey.slice(0, 40)}` : ''} [${s.note}] body ${body}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Percent-encoded; a lone surrogate (no UTF-8 for it) is sent as U+FFFD. */
const enc = (s: string) => encodeURIComponent(s.replace(LONE_SURROGATE, '\ufffd'));

/** A path parameter naming a real thing of the right kind (anyone's), percent-encoded. */
export function realParam(name: string, before: string, pools: Pools): fc.Arbitrary<string> {
  if (name === 'code' || name === 'handle') return fc.constantFrom(...pools.names).map(enc);
  return idsOfKind(idKind(name, before), pools).map(enc);
}

/** A path parameter: a real id (anyone's), a random one, or junk, already percent-encoded. */
export function paramValue(name: string, before: string, pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: realParam(name, before, pools) },
    { weight: 3, arbitrary: fc.constantFrom(...pools.ids).map(enc) },
    { weight: 2, arbitrary: fc.uuid().map(enc) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).map(enc) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(enc) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(enc) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2F',
        'a%2Fb',
        '%',
        '%zz',
        '%E0%A4%A',
        '%FF%FE',
        '%C0%AF',
        '%ED%A0%80',
        '%00',
        '',
        '%20',
        'a'.repeat(4000),
        '%F0%9F%98%80'.repeat(600),
        pools.people[0]!.toUpperCase(),
        `${pools.people[0]}%00`,
        `${pools.people[1]}.json`,
      ),
    },
  );
}

/** A query string for a route: its own keys with plausible or wrong values, repeats, junk. */
export function queryString(inputs: RouteInputs, pools: Pools): fc.Arbitrary<string> {
  const keys = inputs.query ? Object.keys(defOf(inputs.query).shape ?? {}) : [];
  const key = fc.oneof(
    ...(keys.length ? [{ weight: 5, arbitrary: fc.constantFrom(...keys) }] : []),
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'a[b]', 'x', '') },
  );
  const value = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '0',
        '1',
        '10',
        '500',
        '1000',
        'open',
        'all',
        'resolved',
        'ab',
        'bob',
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).map(enc) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.ids, ...pools.names).map(enc) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(enc) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%FF',
        '%',
        '%zz',
        '1e400',
        '-1',
        '1.5',
        '0x10',
        'a'.repeat(4000),
        '',
      ),
    },
  );
  const pair = fc.tuple(key, value).map(([k, v]) => `${enc(k)}=${v}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: keys.length ? 5 : 1,
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((ps) => `?${ps.join('&')}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?a=1&a=2&a=3', '?%FF=%FF') },
  );
}

const INVALID_UTF8 = [
  Buffer.from([0xff, 0xfe]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x00]),
];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16le',
  'application/json; charset=nope',
  'application/vnd.api+json',
  'application/csp-report',
  'APPLICATION/JSON',
  'application/json, text/plain',
  '',
];

/** The bytes of a request body: JSON (mutated) or raw (broken encodings, types, sizes). */
export function bodyOf(
  inputs: RouteInputs,
  pools: Pools,
): fc.Arbitrary<{
  body: Buffer | undefined;
  contentType: string | undefined;
  contentEncoding?: string;
  note: string;
}> {
  const base = inputs.body ? plausible(inputs.body, pools) : fc.constant<Json>({});
  const json = mutatedBody(base, pools);
  const text = json.map(([v]) => toJsonText(v));
  const limit = inputs.limit ?? DEFAULT_BODY_LIMIT;
  const asJson = (b: string | Buffer, note: string, contentType = 'application/json') => ({
    body: Buffer.isBuffer(b) ? b : Buffer.from(b),
    contentType,
    note,
  });
  return fc.oneof(
    { weight: 12, arbitrary: json.map(([v, note]) => asJson(toJsonText(v), note)) },
    {
      weight: 2,
      arbitrary: fc.tuple(base, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([b, bad, i]) => {
        // Invalid UTF-8 bytes inside the first string value (or the whole body).
        const t = toJsonText(b);
        const at = t.indexOf('":"');
        const cut = at >= 0 ? at + 3 : i % (t.length + 1);
        return asJson(
          Buffer.concat([Buffer.from(t.slice(0, cut)), bad, Buffer.from(t.slice(cut))]),
          'invalid UTF-8',
        );
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(text, fc.nat())
        .map(([t, i]) => asJson(t.slice(0, i % Math.max(1, t.length)), 'truncated JSON')),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 300 })
        .map((b) => asJson(Buffer.from(b), 'random bytes')),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          text,
          wrongValue(pools),
          fc.constantFrom('__proto__', 'constructor', 'id', 'friendId', 'text'),
        )
        .map(([t, v, k]) =>
          asJson(
            t.startsWith('{') && t.length > 2
              ? `{${JSON.stringify(k)}:${toJsonText(v)},${t.slice(1)}`
              : t,
            `duplicate key ${k}`,
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: text.map((t) => {
        // The valid JSON text, then whitespace past the route's limit.
        const pad = Math.max(0, limit + 1 - Buffer.byteLength(t));
        return asJson(t + ' '.repeat(pad), `over the ${limit}-byte limit`);
      }),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(text, fc.constantFrom(...CONTENT_TYPES)).map(([t, ct]) => ({
        ...asJson(t, `content-type ${ct || 'empty'}`, ct),
        contentType: ct || undefined,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        asJson('a=1&friendId=x', 'form body', 'application/x-www-form-urlencoded'),
        asJson(
          '--zz\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--zz--\r\n',
          'multipart body',
          'multipart/form-data; boundary=zz',
        ),
        asJson('<x/>', 'xml body', 'application/xml'),
        asJson('', 'empty body'),
        asJson('\ufeff{}', 'BOM'),
        asJson('null', 'null'),
        asJson('{"a":1}{"b":2}', 'two documents'),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constant({ body: undefined, contentType: undefined, note: 'no body' }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          text,
          fc.constantFrom(
            'gzip-valid',
            'gzip',
            'deflate',
            'br',
            'x-unknown',
            'identity',
            'gzip, gzip',
          ),
        )
        .map(([t, e]) => {
          if (e === 'gzip-valid')
            return {
              body: gzipSync(Buffer.from(t)),
              contentType: 'application/json',
              contentEncoding: 'gzip',
              note: 'gzipped',
            };
          return {
            body: Buffer.from(t),
            contentType: 'application/json',
            contentEncoding: e,
            note: `content-encoding ${e} (not encoded)`,
          };
        }),
    },
  );
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND', 'PURGE', 'OPTIONS'];

/**
 * Requests for one route. A quarter are clean (Alice, the app's origin, the route's method, a
 * JSON body shaped by the schema and not broken) so the route's deeper code runs too; the rest
 * vary everything.
 */
export function shotFor(route: RouteInfo, pools: Pools): fc.Arbitrary<Shot> {
  const inputs = ROUTE_INPUTS[`${route.method} ${route.path}`] ?? {};
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1]!,
    before: route.path.slice(0, m.index),
  }));
  const params = fc.tuple(...names.map((n) => paramValue(n.name, n.before, pools)));
  const realParams = fc.tuple(...names.map((n) => realParam(n.name, n.before, pools)));
  const fill = (values: string[]) => {
    let i = 0;
    return route.path.replace(/:(\w+)/g, () => values[i++] ?? '');
  };
  const noBody = { body: undefined, contentType: undefined, note: 'no body' } as const;

  const clean = fc
    .record({
      params: realParams,
      query: inputs.query ? queryString(inputs, pools) : fc.constant(''),
      body:
        route.method === 'GET'
          ? fc.constant(undefined)
          : (inputs.body ? plausible(inputs.body, pools) : fc.constant({})).map((v) =>
              toJsonText(v),
            ),
    })
    .map((r): Shot => ({
      as: 'alice',
      method: route.method,
      path: fill(r.params) + r.query,
      origin: 'own',
      contentType: r.body === undefined ? undefined : 'application/json',
      contentEncoding: undefined,
      idempotencyKey: undefined,
      body: r.body === undefined ? undefined : Buffer.from(r.body),
      note: 'clean',
    }));

  const path = fc.tuple(params, fc.integer({ min: 0, max: 39 })).map(([values, mangle]) => {
    let p = fill(values);
    // Now and then the static part in other letter cases or with a doubled or trailing slash.
    if (mangle === 0) p = p.replace(/[a-z]/g, (c, at: number) => (at % 2 ? c.toUpperCase() : c));
    if (mangle === 1) p = `${p}/`;
    if (mangle === 2) p = p.replace('/api/', '/api//');
    return p;
  });
  const wild = fc
    .record({
      as: fc.constantFrom<Identity>(
        ...(Array(10).fill('alice') as Identity[]),
        'anon',
        'anon',
        'admin',
        'admin',
        'forged',
      ),
      wrongMethod: fc.integer({ min: 0, max: 24 }),
      otherMethod: fc.constantFrom(...OTHER_METHODS),
      path,
      query: fc.oneof(
        { weight: 3, arbitrary: fc.constant('') },
        { weight: inputs.query ? 6 : 1, arbitrary: queryString(inputs, pools) },
      ),
      origin: fc.constantFrom<OriginKind>(
        ...(Array(10).fill('own') as OriginKind[]),
        'none',
        'none',
        'foreign',
        'null',
        'cross-site-fetch',
      ),
      body:
        route.method === 'GET'
          ? fc.oneof(
              { weight: 6, arbitrary: fc.constant(noBody) },
              { weight: 1, arbitrary: bodyOf(inputs, pools) },
            )
          : bodyOf(inputs, pools),
      idem: fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        {
          weight: 2,
          arbitrary: fc
            .string({ minLength: 1, maxLength: 20 })
            .filter((k) => /^[\x21-\x7e]+$/.test(k)),
        },
        { weight: 1, arbitrary: fc.constantFrom('fuzz-shared-key', 'k'.repeat(201)) },
      ),
    })
    .map((r): Shot => ({
      as: r.as,
      method: r.wrongMethod === 0 ? r.otherMethod : route.method,
      path: r.path + r.query,
      origin: r.origin,
      contentType: r.body.contentType,
      contentEncoding: 'contentEncoding' in r.body ? r.body.contentEncoding : undefined,
      idempotencyKey: r.idem,
      body: r.body.body,
      note: r.body.note,
    }));
  return fc.oneof({ weight: 1, arbitrary: clean }, { weight: 3, arbitrary: wild });
}

// ---------- batch entries ----------

export interface FuzzEntry {
  idempotencyKey: string;
  method: string;
  path: string;
  body?: unknown;
}

/** One outbox entry aimed at any route: its path with fuzzed params, a mutated JSON body. */
export function batchEntry(routes: RouteInfo[], pools: Pools): fc.Arbitrary<FuzzEntry> {
  return fc
    .constantFrom(...routes)
    .chain((route) => {
      const inputs = ROUTE_INPUTS[`${route.method} ${route.path}`] ?? {};
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
        name: m[1]!,
        before: route.path.slice(0, m.index),
      }));
      const base = inputs.body ? plausible(inputs.body, pools) : fc.constant<Json>({});
      return fc.record({
        idempotencyKey: fc.oneof(fc.uuid(), fc.constantFrom('batch-shared-key', 'fuzz-shared-key')),
        method: fc.oneof(
          { weight: 6, arbitrary: fc.constant(route.method === 'GET' ? 'POST' : route.method) },
          { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE') },
        ),
        path: fc
          .tuple(
            fc.tuple(...names.map((n) => paramValue(n.name, n.before, pools))),
            queryString(inputs, pools),
          )
          .map(([values, q]) => {
            let i = 0;
            return (route.path.replace(/:(\w+)/g, () => values[i++] ?? '') + q).slice(0, 500);
          }),
        body: fc.option(
          mutatedBody(base, pools).map(([b]) => b),
          { nil: undefined, freq: 6 },
        ),
      });
    })
    .map((e) => {
      const out: FuzzEntry = { idempotencyKey: e.idempotencyKey, method: e.method, path: e.path };
      if (e.body !== undefined) out.body = e.body;
      return out;
    });
}
