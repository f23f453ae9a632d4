/**
 * The authorization matrix (docs/security.md, "Authorization matrix"): every route the server
 * answers, called by each of seven people, with the answer each must get.
 *
 * One real server and one world (test/authz-world.ts): the owner A with real data of every
 * kind, A's friend F, a stranger S (signed in, no relation), B1 whom A blocked ("blocked"), B2
 * who blocked A ("blocker"), an admin with no relation to A, and nobody signed in. Where a route
 * takes an id it is A's (A's ping, prompt, anchor request, report, invite code...), so every row
 * says what each person gets when they try A's things; routes about the caller only are called
 * with A's details (A's e-mail, handle, password, push endpoint) where that is the way in.
 *
 * Every case checks the status and the essential of the answer. Every refusal is `{error, code}`
 * and changes nothing in the database (a digest of every table before and after); a call by
 * someone else that succeeds for themselves leaves everything of A's as it was; no answer to
 * anyone but A contains A's private texts, and no answer to anyone but A and A's friends
 * contains what only friends see. A route without a row (or a row without a route) fails.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { INVITE_INVALID_MESSAGE } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { OAUTH_MESSAGES } from '../src/routes/oauth';
import { PUSH_ENDPOINT_TAKEN } from '../src/routes/push';
import {
  DEFAULT_PROMPT,
  MARKERS,
  OTHERS_PASSWORD,
  OWNER_PASSWORD,
  RESET_SUBJECT,
  ROLES,
  VERIFY_SUBJECT,
  buildWorld,
  databaseDigest,
  ownerDigest,
  pushKeys,
  tokenIn,
  type FriendMarker,
  type OwnerOnlyMarker,
  type Role,
  type SignedInRole,
  type World,
} from './authz-world';
import { makeFriends, makeUser, pullAll, type Res } from './harness';
import { listRoutes, routeKey } from './routes';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
}, 120_000);
afterAll(async () => {
  await w?.stop();
});

// ---------- the vocabulary of the table ----------

/** A 1×1 PNG, for the photo upload. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface Req {
  path: string;
  body?: unknown;
  /** A file sent as the body instead of JSON (the photo upload). */
  file?: { bytes: Buffer; type: string };
}
interface Call {
  w: World;
  role: Role;
  res: Res;
  /** The caller's id (undefined when signed out). */
  me: string | undefined;
}
interface Expect {
  status: number;
  /** What the answer must say. */
  check?: (c: Call) => void | Promise<void>;
  /** A success that must change nothing at all (the whole database). */
  noChange?: boolean;
  /** A success for the caller that must leave everything of A's as it was. */
  ownerUntouched?: boolean;
  /** Puts the world back after a success that changed it (runs even when a check failed). */
  after?: (c: Call) => Promise<void>;
}
interface Row {
  route: string;
  req: (w: World, role: Role) => Req;
  who: Record<Role, Expect>;
  /** Private texts a role may see on this route (the admin reading reports). */
  reveals?: Partial<Record<Role, (OwnerOnlyMarker | FriendMarker)[]>>;
  setup?: (w: World) => Promise<void>;
}

const errorIs =
  (code: string, message?: string): Expect['check'] =>
  ({ res }) => {
    expect(res.body, res.text).toMatchObject({ code, ...(message ? { error: message } : {}) });
    expect(typeof res.body.error).toBe('string');
  };
const refused = (status: number, code: string, message?: string): Expect => ({
  status,
  check: errorIs(code, message),
});
const UNAUTHORIZED = refused(401, 'unauthorized', 'Unauthorized');
const notFound = (message: string) => refused(404, 'not_found', message);
const forbidden = (message: string) => refused(403, 'forbidden', message);
const badRequest = (message: string) => refused(400, 'validation_failed', message);
const ADMIN_ONLY = forbidden('Access denied. Admin privileges required.');
const FRIEND_NOT_FOUND = notFound('Friend not found');
const PING_NOT_FOUND = notFound('Ping not found');
const ONLY_FRIENDS = forbidden('You can only ping friends');
const ok = (status: number, check?: Expect['check'], more: Partial<Expect> = {}): Expect => ({
  status,
  ...(check ? { check } : {}),
  ...more,
});

/**
 * One row. Unless the row says otherwise: signed out gets 401; the blocked person gets what the
 * stranger gets (docs/security.md: a block makes the two unknown to each other), and so does
 * the person who blocked A; the admin, who has no relation to A, gets what the stranger gets.
 */
function row(
  route: string,
  req: Row['req'],
  who: Partial<Record<Role, Expect>> & Pick<Record<Role, Expect>, 'stranger' | 'friend' | 'owner'>,
  opts: Pick<Row, 'reveals' | 'setup'> = {},
): Row {
  const blocked = who.blocked ?? who.stranger;
  return {
    route,
    req,
    who: {
      'signed out': who['signed out'] ?? UNAUTHORIZED,
      stranger: who.stranger,
      blocked,
      blocker: who.blocker ?? blocked,
      admin: who.admin ?? who.stranger,
      friend: who.friend,
      owner: who.owner,
    },
    ...opts,
  };
}

/** Everybody gets the same. */
const all = (e: Expect) => ({ stranger: e, friend: e, owner: e });
/** A request for everyone but A, and one for A. */
const split =
  (others: (w: World, role: Role) => Req, owner: (w: World) => Req) => (w: World, role: Role) =>
    role === 'owner' ? owner(w) : others(w, role);
const same = (req: (w: World) => Req) => (w: World) => req(w);

// Helpers of the checks.
const A = () => w.a.id;
const idOf = (role: SignedInRole) => w.people[role].id;
const ids = (list: unknown): string[] => (list as { id: string }[]).map((x) => x.id);
/** A count by SQL with `?` placeholders, on either engine. */
const sqlCount = async (query: string, ...params: unknown[]) => {
  const parts = query.split('?');
  const raw = sql.join(
    parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
    sql``,
  );
  const r = await sql<{ n: number }>`${raw}`.execute(w.server.database.db.withoutPlugins());
  return Number(r.rows[0]!.n);
};
/** The ping of A's a role would try: their own history for the two blocked people. */
const pingFor = (w: World, role: Role) =>
  role === 'blocked'
    ? w.a.pingToBlocked
    : role === 'blocker'
      ? w.a.pingToBlocker
      : w.a.pingFromFriend;
const stillSignedIn = async (role: SignedInRole) =>
  expect((await w.client(role).get('/api/user')).status).toBe(200);
const signedOutNow = async (role: SignedInRole) =>
  expect((await w.client(role).get('/api/user')).status).toBe(401);
/** Ends a pending request the role made (restores "no relation"). */
const withdraw = async ({ w, role, res }: Call) => {
  const r = await w.client(role).post('/api/friends/reject', { requestId: res.body.requestId });
  expect(r.status, r.text).toBe(200);
};
/** Ends a friendship the role made through A's invite (block, then lift it: nothing is left). */
const undoFriendship = async ({ w, role }: Call) => {
  const c = w.client(role);
  expect((await c.post('/api/blocks', { userId: w.a.id })).status).toBe(201);
  expect((await c.del(`/api/blocks/${w.a.id}`)).status).toBe(200);
};
const unblockA = async ({ w, role }: Call) => {
  const r = await w.client(role).del(`/api/blocks/${w.a.id}`);
  expect(r.body).toMatchObject({ success: true, wasBlocked: true });
};

// Row-local state (made by a row's setup).
const scratch: Record<string, string> = {};
let resetMailsBefore = 0;

// ---------- the table ----------

const TABLE: Row[] = [
  // ----- sign-up and sign-in: public routes -----
  row(
    'POST /api/register',
    (w, role) =>
      role === 'signed out'
        ? { path: '/api/register', body: newPerson() }
        : // Anyone signed in trying to take A's e-mail.
          {
            path: '/api/register',
            body: {
              email: w.a.email,
              password: OTHERS_PASSWORD,
              firstName: 'Evil',
              lastName: 'Twin',
            },
          },
    {
      'signed out': ok(
        201,
        ({ res }) => {
          expect(res.body.email).toBe(scratch.newEmail);
          expect(res.body.id).not.toBe(A());
        },
        // Its verification token is written after the answer: wait for its mail.
        { after: async () => void (await w.waitForMail(scratch.newEmail!, VERIFY_SUBJECT)) },
      ),
      ...all(
        refused(
          409,
          'email_taken',
          'An account with this email already exists. Try signing in instead.',
        ),
      ),
    },
  ),
  row(
    'POST /api/login',
    (w, role) => ({
      path: '/api/login',
      body: {
        email: w.a.email,
        password: role === 'signed out' || role === 'owner' ? OWNER_PASSWORD : OTHERS_PASSWORD,
      },
    }),
    {
      // Public: whoever has A's password signs in as A (a new client here, so nobody is changed).
      'signed out': ok(200, ({ res }) => expect(res.body.id).toBe(A())),
      ...all(refused(401, 'invalid_credentials', 'Invalid email or password')),
      owner: ok(200, ({ res }) => expect(res.body).toMatchObject({ id: A(), email: w.a.email })),
    },
    // Whoever signs in with A's password is A, and is answered as A.
    { reveals: { 'signed out': ['email', 'bio'] } },
  ),
  row(
    'GET /api/login',
    same(() => ({ path: '/api/login' })),
    {
      'signed out': ok(302, ({ res }) => expect(res.headers.get('location')).toBe('/auth'), {
        noChange: true,
      }),
      ...all(
        ok(302, ({ res }) => expect(res.headers.get('location')).toBe('/auth'), { noChange: true }),
      ),
    },
  ),
  row(
    'GET /api/user',
    same(() => ({ path: '/api/user' })),
    {
      ...all(
        ok(200, ({ res, me }) => {
          expect(res.body.id).toBe(me);
          expect(res.headers.get('cache-control')).toBe('no-store');
        }),
      ),
    },
  ),
  row(
    'GET /api/session',
    same(() => ({ path: '/api/session' })),
    {
      // Public: a visitor is told "nobody", with no session created (and nothing written).
      'signed out': ok(
        200,
        ({ res }) => {
          expect(res.body).toEqual({ user: null });
          expect(res.headers.getSetCookie()).toEqual([]);
        },
        { noChange: true },
      ),
      // Everyone signed in gets their own record, never anyone else's.
      ...all(
        ok(200, ({ res, me }) => {
          expect(Object.keys(res.body)).toEqual(['user']);
          expect(res.body.user.id).toBe(me);
          expect(res.headers.get('cache-control')).toBe('no-store');
        }),
      ),
    },
  ),
  row(
    'POST /api/forgot-password',
    same((w) => ({ path: '/api/forgot-password', body: { email: w.a.email } })),
    {
      // Public, the same answer for everyone; the link goes to A's inbox, never into the answer.
      'signed out': ok(200, resetAnswer),
      ...all(ok(200, resetAnswer)),
      owner: ok(200, resetAnswer, {
        after: async ({ w }) => {
          // Each request revokes the earlier links; the mails may arrive in any order.
          const mails = await w.waitForMail(w.a.email, RESET_SUBJECT, resetMailsBefore + 7);
          const live = new Set(
            (
              await w.server.database.db
                .selectFrom('tokens')
                .select('tokenHash')
                .where('userId', '=', w.a.id)
                .where('kind', '=', 'reset')
                .where('usedAt', 'is', null)
                .execute()
            ).map((t) => t.tokenHash),
          );
          scratch.resetToken = mails
            .map((m) => tokenIn(m, '/reset-password'))
            .find((t) => live.has(createHash('sha256').update(t).digest('base64url')))!;
          expect(scratch.resetToken).toBeDefined();
        },
      }),
    },
    {
      setup: async (w) => {
        resetMailsBefore = w.mailsTo(w.a.email, RESET_SUBJECT).length;
      },
    },
  ),
  row(
    'POST /api/reset-password',
    split(
      () => ({
        path: '/api/reset-password',
        body: { token: `forged-${randomUUID()}`, password: 'taken over 1' },
      }),
      () => ({
        path: '/api/reset-password',
        body: { token: scratch.resetToken, password: OWNER_PASSWORD },
      }),
    ),
    {
      // Public: the token from A's inbox is the credential; a session neither helps nor is needed.
      'signed out': refused(
        400,
        'token_invalid',
        'This password reset link is invalid or has already been used',
      ),
      ...all(
        refused(
          400,
          'token_invalid',
          'This password reset link is invalid or has already been used',
        ),
      ),
      owner: ok(
        200,
        async ({ res }) => {
          expect(res.body).toEqual({ success: true, isFirstTime: false });
          // A reset ends every session of A's.
          await signedOutNow('owner');
        },
        { after: () => w.signInAgain('owner') },
      ),
    },
  ),
  row(
    'GET /api/verify-email',
    split(
      () => ({ path: `/api/verify-email?token=forged-${randomUUID()}` }),
      (w) => ({ path: `/api/verify-email?token=${w.a.verifyToken}` }),
    ),
    {
      'signed out': refused(
        400,
        'token_invalid',
        'This verification link is invalid or has already been used',
      ),
      ...all(
        refused(400, 'token_invalid', 'This verification link is invalid or has already been used'),
      ),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ success: true, user: { email: w.a.email } }),
      ),
    },
  ),
  row(
    'POST /api/resend-verification',
    same((w) => ({ path: '/api/resend-verification', body: { email: w.a.email } })),
    {
      // Public and the same for everyone; A is verified by now, so nothing is issued or sent.
      'signed out': ok(200, resendAnswer, { noChange: true }),
      ...all(ok(200, resendAnswer, { noChange: true })),
    },
  ),
  row(
    'GET /api/auth/google',
    same(() => ({ path: '/api/auth/google' })),
    {
      // Public navigation; this server has no OpenID provider (routes/oauth.test.ts runs the flow).
      'signed out': ok(302, oauthNotConfigured, { noChange: true }),
      ...all(ok(302, oauthNotConfigured, { noChange: true })),
    },
  ),
  row(
    'GET /api/auth/google/callback',
    same(() => ({ path: '/api/auth/google/callback?code=x&state=y' })),
    {
      'signed out': ok(302, oauthNotConfigured, { noChange: true }),
      ...all(ok(302, oauthNotConfigured, { noChange: true })),
    },
  ),

  // ----- friends -----
  row(
    'GET /api/friends',
    same(() => ({ path: '/api/friends' })),
    {
      stranger: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
      friend: ok(200, ({ res }) => expect(ids(res.body)).toContain(A())),
      owner: ok(200, ({ res }) => {
        expect(ids(res.body)).toEqual(
          expect.arrayContaining([idOf('friend'), w.extra.f2.id, w.extra.f3.id]),
        );
        expect(ids(res.body)).not.toContain(idOf('blocked'));
        expect(ids(res.body)).not.toContain(idOf('blocker'));
      }),
    },
  ),
  row(
    'GET /api/friends/pending',
    same(() => ({ path: '/api/friends/pending' })),
    {
      stranger: ok(200, ({ res }) => expect(JSON.stringify(res.body)).not.toContain(A())),
      friend: ok(200, ({ res }) => expect(JSON.stringify(res.body)).not.toContain(A())),
      owner: ok(200, ({ res }) => {
        expect(res.body.received.map((r: { requestId: string }) => r.requestId)).toContain(
          w.a.requestFromR,
        );
        expect(res.body.sent.map((r: { requestId: string }) => r.requestId)).toContain(
          w.a.requestToQ,
        );
      }),
    },
  ),
  row(
    'GET /api/friends/:friendId',
    split(
      (w) => ({ path: `/api/friends/${w.a.id}` }),
      () => ({ path: `/api/friends/${idOf('friend')}` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) => expect(res.body).toMatchObject({ id: A(), email: w.a.email })),
      owner: ok(200, ({ res }) => expect(res.body.id).toBe(idOf('friend'))),
    },
  ),
  row(
    'GET /api/friends/:friendId/stats',
    split(
      (w) => ({ path: `/api/friends/${w.a.id}/stats` }),
      () => ({ path: `/api/friends/${idOf('friend')}/stats` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) => expect(typeof res.body.daysConnected).toBe('number')),
      owner: ok(200, ({ res }) => expect(typeof res.body.daysConnected).toBe('number')),
    },
  ),
  ...(['POST /api/friends/request', 'POST /api/friends'] as const).map((route) =>
    row(
      route,
      split(
        (w) => ({ path: route.slice(5), body: { friendId: w.a.id, ...statusField(route) } }),
        (w) => ({ path: route.slice(5), body: { friendId: w.extra.z.id, ...statusField(route) } }),
      ),
      {
        // Anyone signed in may ask A (A's profile is public); the request is withdrawn again.
        stranger: ok(
          201,
          ({ res }) => expect(res.body).toMatchObject({ status: 'pending', friend: { id: A() } }),
          {
            after: withdraw,
          },
        ),
        blocked: notFound('User not found'),
        friend: refused(409, 'conflict', 'You are already friends'),
        owner: ok(201, ({ res }) => expect(res.body.status).toBe('pending'), { after: withdraw }),
      },
    ),
  ),
  row(
    'POST /api/friends/accept',
    same((w) => ({ path: '/api/friends/accept', body: { requestId: w.a.requestFromR } })),
    {
      stranger: notFound('Friend request not found'),
      friend: notFound('Friend request not found'),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ outcome: 'accepted', friend: { id: w.extra.r.id } }),
      ),
    },
  ),
  row(
    'POST /api/friends/reject',
    same((w) => ({ path: '/api/friends/reject', body: { requestId: w.a.requestToQ } })),
    {
      stranger: notFound('Friend request not found'),
      friend: notFound('Friend request not found'),
      owner: ok(200, ({ res }) => expect(res.body.outcome).toBe('withdrawn')),
    },
  ),

  // ----- invites: A's code -----
  row(
    'GET /api/invites/:code',
    same((w) => ({ path: `/api/invites/${w.a.inviteCode}` })),
    {
      stranger: ok(
        200,
        ({ res }) =>
          expect(res.body).toMatchObject({
            valid: true,
            user: { id: A() },
            alreadyFriends: false,
            isOwnInvite: false,
          }),
        { noChange: true },
      ),
      // A block either way: the code reads as unknown.
      blocked: ok(
        200,
        ({ res }) =>
          expect(res.body).toEqual({ valid: false, user: null, message: INVITE_INVALID_MESSAGE }),
        { noChange: true },
      ),
      friend: ok(
        200,
        ({ res }) => expect(res.body).toMatchObject({ valid: true, alreadyFriends: true }),
        {
          noChange: true,
        },
      ),
      owner: ok(
        200,
        ({ res }) => expect(res.body).toMatchObject({ valid: true, isOwnInvite: true }),
        {
          noChange: true,
        },
      ),
    },
  ),
  row(
    'POST /api/invites/:code/use',
    same((w) => ({ path: `/api/invites/${w.a.inviteCode}/use`, body: {} })),
    {
      // An invite link makes anyone signed in A's friend: that is what it is for.
      stranger: ok(
        200,
        ({ res }) =>
          expect(res.body).toMatchObject({
            success: true,
            alreadyFriends: false,
            friend: { id: A() },
          }),
        { after: undoFriendship },
      ),
      blocked: notFound(INVITE_INVALID_MESSAGE),
      friend: ok(200, ({ res }) => expect(res.body).toMatchObject({ alreadyFriends: true }), {
        noChange: true,
      }),
      owner: badRequest('This is your own invite link'),
    },
  ),

  // ----- admin numbers -----
  row(
    'GET /api/admin/metrics',
    same(() => ({ path: '/api/admin/metrics' })),
    {
      stranger: ADMIN_ONLY,
      admin: ok(200, async ({ res }) =>
        expect(res.body.totalUsers).toBe(await sqlCount('SELECT count(*) n FROM users')),
      ),
      friend: ADMIN_ONLY,
      owner: ADMIN_ONLY,
    },
  ),

  // ----- the caller's own profile: A's handle cannot be taken -----
  row(
    'GET /api/username/check/:handle',
    same((w) => ({ path: `/api/username/check/${w.a.handle}` })),
    {
      stranger: ok(
        200,
        ({ res }) => {
          expect(res.body.available).toBe(false);
          expect(res.body.suggestions.length).toBeGreaterThan(0);
        },
        { noChange: true },
      ),
      friend: ok(200, ({ res }) => expect(res.body.available).toBe(false), { noChange: true }),
      owner: ok(
        200,
        ({ res }) => expect(res.body).toMatchObject({ available: true, handle: w.a.handle }),
        {
          noChange: true,
        },
      ),
    },
  ),
  row(
    'POST /api/user/complete-onboarding',
    same((w) => ({ path: '/api/user/complete-onboarding', body: { handle: w.a.handle } })),
    {
      stranger: refused(409, 'handle_taken', 'Username not available'),
      friend: refused(409, 'handle_taken', 'Username not available'),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: A(), handle: w.a.handle, onboardingCompleted: true }),
      ),
    },
  ),
  row(
    'PATCH /api/user/onboarding',
    same(() => ({ path: '/api/user/onboarding', body: { step: 2 } })),
    {
      stranger: ok(200, selfWith({ onboardingStep: 2 }), { ownerUntouched: true }),
      friend: ok(200, selfWith({ onboardingStep: 2 }), { ownerUntouched: true }),
      owner: ok(200, selfWith({ onboardingStep: 2 })),
    },
  ),
  row(
    'PUT /api/profile/update',
    split(
      (w) => ({ path: '/api/profile/update', body: { handle: w.a.handle } }),
      () => ({
        path: '/api/profile/update',
        body: { tagline: 'Still me' },
      }),
    ),
    {
      stranger: refused(409, 'handle_taken', 'Username not available'),
      friend: refused(409, 'handle_taken', 'Username not available'),
      owner: ok(200, selfWith({ tagline: 'Still me', handle: '$handle' })),
    },
  ),
  row(
    'PUT /api/profile/photo',
    same(() => ({ path: '/api/profile/photo', file: { bytes: PHOTO, type: 'image/png' } })),
    {
      // Each caller changes their own photo only.
      stranger: ok(200, ownPhoto, { ownerUntouched: true }),
      // A friend's new photo reaches A's change feed (A's device shows it).
      friend: ok(200, ownPhoto),
      owner: ok(200, ownPhoto),
    },
  ),
  row(
    'PUT /api/privacy-settings',
    same(() => ({ path: '/api/privacy-settings', body: { profileVisibility: 'public' } })),
    {
      stranger: ok(200, selfWith({ profileVisibility: 'public' }), { ownerUntouched: true }),
      // A friend's change reaches A's change feed (A's device shows the friend's profile).
      friend: ok(200, selfWith({ profileVisibility: 'public' })),
      owner: ok(200, selfWith({ profileVisibility: 'public' })),
    },
  ),

  // ----- other people -----
  row(
    'GET /api/users/search',
    same((w) => ({ path: `/api/users/search?q=${w.a.lastName}` })),
    {
      stranger: ok(200, ({ res }) => {
        const a = res.body.find((p: { id: string }) => p.id === A());
        expect(a).toMatchObject({ relation: 'none' });
        expect(a).not.toHaveProperty('email');
      }),
      blocked: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
      friend: ok(200, ({ res }) =>
        expect(res.body.find((p: { id: string }) => p.id === A())).toMatchObject({
          relation: 'friends',
        }),
      ),
      owner: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
    },
  ),
  row(
    'GET /api/users/suggestions',
    same(() => ({ path: '/api/users/suggestions' })),
    {
      stranger: ok(200, ({ res }) => {
        expect(Array.isArray(res.body)).toBe(true);
        for (const p of res.body) expect(p).not.toHaveProperty('email');
      }),
      blocked: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
      friend: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
      owner: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(A())),
    },
  ),
  row(
    'GET /api/users/:id/profile',
    same((w) => ({ path: `/api/users/${w.a.id}/profile` })),
    {
      stranger: ok(200, ({ res }) => {
        expect(res.body).toMatchObject({ id: A(), full: false, relation: 'none' });
        for (const key of ['email', 'bio', 'handle', 'location', 'isAdmin'])
          expect(res.body).not.toHaveProperty(key);
      }),
      blocked: notFound('User not found'),
      friend: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({
          id: A(),
          full: true,
          relation: 'friends',
          email: w.a.email,
        }),
      ),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: A(), full: true, relation: 'self' }),
      ),
    },
  ),

  // ----- prompts: A's custom prompt is A's alone -----
  row(
    'GET /api/prompts/default',
    same(() => ({ path: '/api/prompts/default' })),
    {
      ...all(
        ok(200, ({ res }) => {
          expect(ids(res.body)).toContain(DEFAULT_PROMPT);
          expect(res.body.every((p: { isDefault: boolean }) => p.isDefault)).toBe(true);
        }),
      ),
    },
  ),
  row(
    'GET /api/prompts/user',
    same(() => ({ path: '/api/prompts/user' })),
    {
      stranger: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.promptId)),
      friend: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.promptId)),
      owner: ok(200, ({ res }) => {
        const mine = res.body.find((p: { id: string }) => p.id === w.a.promptId);
        expect(mine.assignments.map((x: { friendId: string }) => x.friendId)).toContain(
          idOf('friend'),
        );
      }),
    },
  ),
  row(
    'POST /api/prompts',
    split(
      (w) => ({ path: '/api/prompts', body: { id: w.a.promptId, text: 'Hijacked' } }),
      () => ({ path: '/api/prompts', body: { text: 'Another of mine' } }),
    ),
    {
      stranger: refused(409, 'conflict', 'This id is already used by something else'),
      friend: refused(409, 'conflict', 'This id is already used by something else'),
      owner: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ ownerId: A(), text: 'Another of mine' }),
      ),
    },
  ),
  row(
    'PUT /api/prompts/:id',
    split(
      (w) => ({ path: `/api/prompts/${w.a.promptId}`, body: { text: 'Hijacked', emoji: '😈' } }),
      (w) => ({
        path: `/api/prompts/${w.a.promptId}`,
        body: { text: `${MARKERS.ownerOnly.prompt} (edited)` },
      }),
    ),
    {
      stranger: notFound('Prompt not found'),
      friend: notFound('Prompt not found'),
      owner: ok(200, ({ res }) =>
        expect(res.body.text).toBe(`${MARKERS.ownerOnly.prompt} (edited)`),
      ),
    },
  ),
  row(
    'DELETE /api/prompts/:id',
    same(() => ({ path: `/api/prompts/${scratch.promptToDelete}` })),
    {
      stranger: notFound('Prompt not found'),
      friend: notFound('Prompt not found'),
      owner: ok(200, async ({ res }) => {
        expect(res.body.success).toBe(true);
        expect(
          await sqlCount('SELECT count(*) n FROM prompts WHERE id = ?', scratch.promptToDelete),
        ).toBe(0);
      }),
    },
    {
      setup: async (w) => {
        const r = await w.client('owner').post('/api/prompts', { text: 'To be deleted' });
        expect(r.status).toBe(201);
        scratch.promptToDelete = r.body.id;
      },
    },
  ),
  row(
    'POST /api/prompts/assign',
    split(
      (w) => ({ path: '/api/prompts/assign', body: { promptId: w.a.promptId, friendId: w.a.id } }),
      (w) => ({
        path: '/api/prompts/assign',
        body: { promptId: w.a.promptId, friendId: w.extra.f2.id },
      }),
    ),
    {
      stranger: notFound('Prompt not found'),
      friend: notFound('Prompt not found'),
      owner: ok(200, ({ res }) =>
        expect(res.body.assignments.map((x: { friendId: string }) => x.friendId)).toContain(
          w.extra.f2.id,
        ),
      ),
    },
  ),

  // ----- pings -----
  row(
    'POST /api/pings',
    split(
      (w) => ({ path: '/api/pings', body: { promptId: DEFAULT_PROMPT, receiverId: w.a.id } }),
      () => ({
        path: '/api/pings',
        body: { promptId: DEFAULT_PROMPT, receiverId: idOf('friend') },
      }),
    ),
    {
      stranger: ONLY_FRIENDS,
      friend: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ senderId: idOf('friend'), receiverId: A() }),
      ),
      owner: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ senderId: A(), receiverId: idOf('friend') }),
      ),
    },
  ),
  row(
    'POST /api/pings/group',
    split(
      (w) => ({
        path: '/api/pings/group',
        body: { promptId: DEFAULT_PROMPT, receiverIds: [w.a.id] },
      }),
      (w) => ({
        path: '/api/pings/group',
        body: { promptId: DEFAULT_PROMPT, receiverIds: [idOf('friend'), w.extra.f2.id] },
      }),
    ),
    {
      stranger: ONLY_FRIENDS,
      friend: ok(201, ({ res }) =>
        expect(res.body.pings.map((p: { receiverId: string }) => p.receiverId)).toEqual([A()]),
      ),
      owner: ok(201, ({ res }) => expect(res.body.pings).toHaveLength(2)),
    },
  ),
  row(
    'POST /api/pings/custom',
    split(
      (w) => ({ path: '/api/pings/custom', body: { receiverId: w.a.id, customText: 'Hello A' } }),
      () => ({
        path: '/api/pings/custom',
        body: { receiverId: idOf('friend'), customText: 'Hello F' },
      }),
    ),
    {
      stranger: ONLY_FRIENDS,
      friend: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ receiverId: A(), customText: 'Hello A' }),
      ),
      owner: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ senderId: A(), customText: 'Hello F' }),
      ),
    },
  ),
  row(
    'GET /api/pings/recent',
    same(() => ({ path: '/api/pings/recent' })),
    {
      stranger: ok(200, ({ res }) => expect(pingsWithA(res.body)).toEqual([])),
      // The history stays with both; nothing newer than the block.
      blocked: ok(200, ({ res, role }) => expect(pingsWithA(res.body)).toEqual([pingFor(w, role)])),
      friend: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.pingToFriend)),
      owner: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.pingFromFriend)),
    },
  ),
  row(
    'GET /api/pings/unread-count',
    same(() => ({ path: '/api/pings/unread-count' })),
    {
      ...all(
        ok(200, async ({ res, me }) =>
          expect(res.body).toEqual({
            count: await sqlCount(
              'SELECT count(*) n FROM pings WHERE receiver_id = ? AND is_read = 0',
              me,
            ),
          }),
        ),
      ),
    },
  ),
  row(
    'GET /api/pings/total-count',
    same(() => ({ path: '/api/pings/total-count' })),
    {
      ...all(
        ok(200, async ({ res, me }) =>
          expect(res.body).toEqual({
            count: await sqlCount(
              'SELECT count(*) n FROM pings WHERE sender_id = ? OR receiver_id = ?',
              me,
              me,
            ),
          }),
        ),
      ),
    },
  ),
  row(
    'GET /api/pings/reactions',
    same(() => ({ path: '/api/pings/reactions' })),
    {
      stranger: ok(200, async ({ res }) => expect(await reactionsOnPingsOfA(res.body)).toEqual([])),
      friend: ok(200, ({ res }) =>
        expect(res.body.map((r: { pingId: string }) => r.pingId)).toContain(w.a.pingToFriend),
      ),
      owner: ok(200, ({ res }) =>
        expect(
          res.body.find((r: { pingId: string }) => r.pingId === w.a.pingToFriend),
        ).toMatchObject({
          userId: idOf('friend'),
          reactionType: 'heart',
        }),
      ),
    },
  ),
  row(
    'GET /api/pings/with/:friendId',
    split(
      (w) => ({ path: `/api/pings/with/${w.a.id}` }),
      () => ({ path: `/api/pings/with/${idOf('friend')}` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) =>
        expect(ids(res.body)).toEqual(
          expect.arrayContaining([w.a.pingToFriend, w.a.pingFromFriend]),
        ),
      ),
      owner: ok(200, ({ res }) =>
        expect(ids(res.body)).toEqual(
          expect.arrayContaining([w.a.pingToFriend, w.a.pingFromFriend]),
        ),
      ),
    },
  ),
  row('PATCH /api/pings/:id/read', (w, role) => ({ path: `/api/pings/${pingFor(w, role)}/read` }), {
    stranger: PING_NOT_FOUND,
    // The history ping they received: they may mark it read, and A, who sent it, is not told
    // (docs/security.md, "Blocking": after a block a read mark stays with the reader).
    blocked: ok(200, async ({ res, role }) => {
      expect(res.body).toMatchObject({ id: pingFor(w, role), isRead: true });
      const asASees = (await pullAll(w.client('owner'))).changes.find(
        (c) => c.entity === 'ping' && c.id === pingFor(w, role),
      );
      expect(asASees?.data).toMatchObject({ isRead: false, readAt: null });
    }),
    // F sent it: only the receiver reads a ping.
    friend: PING_NOT_FOUND,
    owner: ok(200, ({ res }) =>
      expect(res.body).toMatchObject({ id: w.a.pingFromFriend, isRead: true }),
    ),
  }),
  row(
    'POST /api/pings/:pingId/reactions',
    (w, role) => ({
      path: `/api/pings/${pingFor(w, role)}/reactions`,
      body: { reactionType: 'wow' },
    }),
    {
      stranger: PING_NOT_FOUND,
      // Docs: reacting to a ping they exchanged before is 404, as for a stranger.
      blocked: PING_NOT_FOUND,
      friend: ok(201, ({ res }) =>
        expect(res.body.reactions).toContainEqual(
          expect.objectContaining({ userId: idOf('friend'), reactionType: 'wow' }),
        ),
      ),
      owner: ok(201, ({ res }) =>
        expect(res.body.reactions).toContainEqual(
          expect.objectContaining({ userId: A(), reactionType: 'wow' }),
        ),
      ),
    },
  ),
  row(
    'PATCH /api/pings/:pingId/bookmark',
    (w, role) => ({ path: `/api/pings/${pingFor(w, role)}/bookmark`, body: { bookmarked: true } }),
    {
      stranger: PING_NOT_FOUND,
      // Their own moment of the history: allowed; nothing A sees changes (bookmarks are per person).
      blocked: ok(200, ({ res, role }) =>
        expect(res.body).toMatchObject({ id: pingFor(w, role), isBookmarked: true }),
      ),
      friend: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: w.a.pingFromFriend, isBookmarked: true }),
      ),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: w.a.pingFromFriend, isBookmarked: true }),
      ),
    },
  ),
  row(
    'PATCH /api/pings/mark-all-read',
    same(() => ({ path: '/api/pings/mark-all-read' })),
    {
      stranger: ok(200, countAnswer, { ownerUntouched: true }),
      // Marks their own unread pings, the shared history included: the read-mark gap of the
      // row above (docs/security.md, "Authorization matrix").
      blocked: ok(200, countAnswer),
      friend: ok(200, countAnswer),
      owner: ok(200, countAnswer),
    },
  ),

  // ----- anchors -----
  row(
    'GET /api/profile/anchors',
    same(() => ({ path: '/api/profile/anchors' })),
    {
      stranger: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([])),
      friend: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([])),
      owner: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.anchorWithF3)),
    },
  ),
  row(
    'GET /api/profile/anchors/requests',
    same(() => ({ path: '/api/profile/anchors/requests' })),
    {
      stranger: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([])),
      friend: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([])),
      owner: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.anchorFromFriend)),
    },
  ),
  row(
    'GET /api/profile/anchors/requests/sent',
    same(() => ({ path: '/api/profile/anchors/requests/sent' })),
    {
      stranger: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([])),
      // F's own request to A, and nothing of A's with others.
      friend: ok(200, ({ res }) => expect(anchorsOfA(res.body)).toEqual([w.a.anchorFromFriend])),
      owner: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.anchorToF2)),
    },
  ),
  row(
    'PATCH /api/profile/anchors/:id/respond',
    same((w) => ({
      path: `/api/profile/anchors/${w.a.anchorFromFriend}/respond`,
      body: { response: 'decline' },
    })),
    {
      stranger: notFound('Anchor request not found'),
      friend: forbidden('Only the person who was asked can answer this anchor request'),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: w.a.anchorFromFriend, status: 'declined' }),
      ),
    },
  ),
  row(
    'POST /api/profile/anchors',
    split(
      (w) => ({ path: '/api/profile/anchors', body: { friendId: w.a.id, text: 'Anchor, A?' } }),
      () => ({
        path: '/api/profile/anchors',
        body: { friendId: idOf('friend'), text: 'Anchor, F?' },
      }),
    ),
    {
      stranger: forbidden('You can only create anchors with friends.'),
      friend: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ friendId: A(), status: 'pending' }),
      ),
      // F asked first (just above): asking back accepts F's request.
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ status: 'accepted', autoAccepted: true }),
      ),
    },
  ),

  // ----- moods -----
  row(
    'GET /api/moods/:friendId/latest',
    split(
      (w) => ({ path: `/api/moods/${w.a.id}/latest` }),
      () => ({ path: `/api/moods/${idOf('friend')}/latest` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: w.a.moodToFriend, userId: A() }),
      ),
      // F has shared no mood with A.
      owner: ok(200, ({ res }) => expect(res.body).toBeNull()),
    },
  ),
  row(
    'POST /api/moods',
    split(
      (w) => ({ path: '/api/moods', body: { friendId: w.a.id, mood: 'happy', emoji: '😊' } }),
      () => ({
        path: '/api/moods',
        body: { friendId: idOf('friend'), mood: 'chill', emoji: '😌' },
      }),
    ),
    {
      stranger: forbidden('You can only share a mood with a friend.'),
      friend: ok(201, ({ res }) => expect(res.body).toMatchObject({ friendId: A() })),
      owner: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ userId: A(), friendId: idOf('friend') }),
      ),
    },
  ),

  // ----- insights -----
  row(
    'GET /api/analytics/friendship/:friendId',
    split(
      (w) => ({ path: `/api/analytics/friendship/${w.a.id}` }),
      () => ({ path: `/api/analytics/friendship/${idOf('friend')}` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) => expect(res.body.friendId).toBe(A())),
      owner: ok(200, ({ res }) => {
        expect(res.body.friendId).toBe(idOf('friend'));
        expect(res.body.totalPingsExchanged).toBeGreaterThan(0);
      }),
    },
  ),
  row(
    'GET /api/analytics/pings',
    same(() => ({ path: '/api/analytics/pings' })),
    {
      ...all(
        ok(200, async ({ res, me }) =>
          expect(res.body).toMatchObject({
            totalPingsSent: await sqlCount('SELECT count(*) n FROM pings WHERE sender_id = ?', me),
            totalPingsReceived: await sqlCount(
              'SELECT count(*) n FROM pings WHERE receiver_id = ?',
              me,
            ),
          }),
        ),
      ),
    },
  ),
  row(
    'GET /api/profile/metrics',
    same(() => ({ path: '/api/profile/metrics' })),
    {
      ...all(ok(200, ({ res }) => expect(typeof res.body.pingsSent).toBe('number'))),
    },
  ),
  row(
    'GET /api/profile/moments',
    same(() => ({ path: '/api/profile/moments' })),
    {
      stranger: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.momentId)),
      friend: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.momentId)),
      owner: ok(200, ({ res }) => expect(ids(res.body)).toContain(w.a.momentId)),
    },
  ),
  row(
    'GET /api/profile/badges',
    same(() => ({ path: '/api/profile/badges' })),
    {
      ...all(ok(200, ({ res }) => expect(Array.isArray(res.body)).toBe(true))),
    },
  ),
  row(
    'GET /api/profile/collections',
    same(() => ({ path: '/api/profile/collections' })),
    {
      stranger: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.packId)),
      friend: ok(200, ({ res }) => expect(ids(res.body)).not.toContain(w.a.packId)),
      owner: ok(200, ({ res }) =>
        expect(res.body.find((p: { id: string }) => p.id === w.a.packId)).toMatchObject({
          isOwn: true,
        }),
      ),
    },
  ),
  row(
    'POST /api/profile/collections/:id/install',
    same((w) => ({ path: `/api/profile/collections/${w.a.packId}/install`, body: {} })),
    {
      stranger: notFound('Ping pack not found'),
      friend: notFound('Ping pack not found'),
      owner: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({ id: w.a.packId, installed: true }),
      ),
    },
  ),

  // ----- energy -----
  row(
    'GET /api/energy/all',
    same(() => ({ path: '/api/energy/all' })),
    {
      stranger: ok(200, ({ res }) => expect(friendIds(res.body)).not.toContain(A())),
      friend: ok(200, ({ res }) => expect(friendIds(res.body)).toContain(A())),
      owner: ok(200, ({ res }) => {
        expect(friendIds(res.body)).toContain(idOf('friend'));
        expect(friendIds(res.body)).not.toContain(idOf('blocked'));
      }),
    },
  ),
  row(
    'GET /api/energy/friendship/:id',
    split(
      (w) => ({ path: `/api/energy/friendship/${w.a.id}` }),
      () => ({ path: `/api/energy/friendship/${idOf('friend')}` }),
    ),
    {
      stranger: FRIEND_NOT_FOUND,
      friend: ok(200, ({ res }) => expect(res.body.friendId).toBe(A())),
      owner: ok(200, ({ res }) => expect(res.body.friendId).toBe(idOf('friend'))),
    },
  ),
  row(
    'POST /api/energy/update-all',
    same(() => ({ path: '/api/energy/update-all', body: {} })),
    {
      stranger: ok(200, ({ res }) => expect(friendIds(res.body)).not.toContain(A()), {
        ownerUntouched: true,
      }),
      friend: ok(200, ({ res }) => expect(friendIds(res.body)).toContain(A()), {
        ownerUntouched: true,
      }),
      owner: ok(200, ({ res }) => expect(friendIds(res.body)).toContain(idOf('friend'))),
    },
  ),

  // ----- sync -----
  row(
    'GET /api/sync/pull',
    same(() => ({ path: '/api/sync/pull' })),
    {
      stranger: ok(
        200,
        withOwnersSnapshotToken(({ res }) => expect(JSON.stringify(res.body)).not.toContain(A())),
      ),
      // The history pings stay; A's profile is gone from their device.
      blocked: ok(
        200,
        withOwnersSnapshotToken(({ res }) => {
          expect(changeOf(res.body, 'user', A())).toBeUndefined();
          expect(changeOf(res.body, 'friendship', undefined, A())).toBeUndefined();
        }),
      ),
      friend: ok(
        200,
        withOwnersSnapshotToken(({ res }) => {
          expect(changeOf(res.body, 'user', A())).toMatchObject({ op: 'upsert' });
          expect(changeOf(res.body, 'prompt', w.a.promptId)).toBeUndefined();
        }),
      ),
      owner: ok(200, ({ res }) => {
        expect(changeOf(res.body, 'prompt', w.a.promptId)).toMatchObject({ op: 'upsert' });
        expect(changeOf(res.body, 'ping', w.a.pingFromFriend)).toMatchObject({ op: 'upsert' });
      }),
    },
    {
      // A's snapshot continuation token: a position in A's snapshot, tried by the others too.
      setup: async (w) => {
        const first = await w.client('owner').get('/api/sync/pull?limit=1');
        expect(first.body.snapshot).toEqual(expect.any(String));
        scratch.ownerSnapshot = first.body.snapshot;
      },
    },
  ),
  row(
    'POST /api/sync/batch',
    split(
      (w) => batchOf('PUT', `/api/prompts/${w.a.promptId}`, { text: 'Hijacked through a batch' }),
      (w) =>
        batchOf('PUT', `/api/prompts/${w.a.promptId}`, {
          text: `${MARKERS.ownerOnly.prompt} (batch)`,
        }),
    ),
    {
      // Each entry runs as the caller: A's prompt is as unknown inside a batch as outside.
      stranger: ok(200, ({ res }) => expect(res.body.results[0]).toMatchObject({ status: 404 }), {
        noChange: true,
      }),
      friend: ok(200, ({ res }) => expect(res.body.results[0]).toMatchObject({ status: 404 }), {
        noChange: true,
      }),
      owner: ok(200, ({ res }) =>
        expect(res.body.results[0]).toMatchObject({
          status: 200,
          body: { text: `${MARKERS.ownerOnly.prompt} (batch)` },
        }),
      ),
    },
  ),

  // ----- Web Push -----
  row(
    'GET /api/push/vapid-public-key',
    same(() => ({ path: '/api/push/vapid-public-key' })),
    {
      'signed out': ok(200, vapidKey, { noChange: true }),
      ...all(ok(200, vapidKey, { noChange: true })),
    },
  ),
  row(
    'DELETE /api/push/subscribe',
    same((w) => ({ path: '/api/push/subscribe', body: { endpoint: w.a.pushEndpoint } })),
    {
      // Someone else's endpoint: the same 404 as an unknown one.
      stranger: notFound('Push subscription not found'),
      friend: notFound('Push subscription not found'),
      owner: ok(200, ({ res }) => expect(res.body).toEqual({ success: true }), {
        after: async ({ w }) => {
          const r = await w
            .client('owner')
            .post('/api/push/subscribe', { endpoint: w.a.pushEndpoint, keys: pushKeys() });
          expect(r.status).toBe(201);
        },
      }),
    },
  ),
  row(
    'POST /api/push/subscribe',
    same((w) => ({
      path: '/api/push/subscribe',
      body: { endpoint: w.a.pushEndpoint, keys: pushKeys() },
    })),
    {
      // docs/api.md: an endpoint changes hands only with its keys (the same browser
      // subscription); A's endpoint URL with other keys takes nothing (routes/push.test.ts has
      // the hand-over with the keys).
      stranger: refused(409, 'conflict', PUSH_ENDPOINT_TAKEN),
      friend: refused(409, 'conflict', PUSH_ENDPOINT_TAKEN),
      owner: ok(200, endpointNowCallers),
    },
  ),

  // ----- data export -----
  row(
    'GET /api/export',
    same(() => ({ path: '/api/export' })),
    {
      stranger: ok(200, ({ res, me }) => {
        expect(res.body.user.id).toBe(me);
        expect(res.text).not.toContain(A());
      }),
      blocked: ok(200, ({ res, me }) => {
        expect(res.body.user.id).toBe(me);
        expect(ids(res.body.friends)).not.toContain(A());
      }),
      friend: ok(200, ({ res }) => expect(ids(res.body.friends)).toContain(A())),
      owner: ok(200, ({ res }) => {
        expect(res.body.user.id).toBe(A());
        for (const marker of [
          MARKERS.ownerOnly.prompt,
          MARKERS.ownerOnly.moment,
          MARKERS.ownerOnly.push,
        ])
          expect(res.text).toContain(marker);
      }),
    },
  ),

  // ----- blocks and reports -----
  row(
    'GET /api/blocks',
    same(() => ({ path: '/api/blocks' })),
    {
      stranger: ok(200, ({ res }) => expect(res.body).toEqual([])),
      // B1 is never told A blocked them.
      blocked: ok(200, ({ res }) => expect(res.body).toEqual([])),
      blocker: ok(200, ({ res }) => expect(blockedIds(res.body)).toEqual([A()])),
      friend: ok(200, ({ res }) => expect(res.body).toEqual([])),
      owner: ok(200, ({ res }) => expect(blockedIds(res.body)).toEqual([idOf('blocked')])),
    },
  ),
  row(
    'POST /api/blocks',
    split(
      (w) => ({ path: '/api/blocks', body: { userId: w.a.id } }),
      (w) => ({
        path: '/api/blocks',
        body: { userId: w.extra.z.id },
      }),
    ),
    {
      // Anyone may block anyone who exists; each block is lifted again after its case.
      stranger: ok(
        201,
        blockOf(() => A()),
        { after: unblockA },
      ),
      // B1 may block A back: the answer says nothing about A's block.
      blocked: ok(
        201,
        blockOf(() => A()),
        { after: unblockA },
      ),
      // B2 already blocks A: the same block.
      blocker: ok(
        200,
        blockOf(() => A()),
        { noChange: true },
      ),
      friend: ok(
        201,
        async ({ res }) => {
          blockOf(() => A())({ res } as Call);
          // The block ended the friendship at once.
          expect(ids((await w.client('owner').get('/api/friends')).body)).not.toContain(
            idOf('friend'),
          );
        },
        {
          after: async (c) => {
            await unblockA(c);
            await makeFriends(w.people.friend, w.people.owner);
          },
        },
      ),
      owner: ok(
        201,
        blockOf(() => w.extra.z.id),
        {
          after: async ({ w }) => {
            expect((await w.client('owner').del(`/api/blocks/${w.extra.z.id}`)).status).toBe(200);
          },
        },
      ),
    },
  ),
  row(
    'DELETE /api/blocks/:userId',
    same((w) => ({ path: `/api/blocks/${w.people.blocked.id}` })),
    {
      // Only the caller's own block can be lifted: A's block of B1 stays whoever asks.
      stranger: ok(
        200,
        ({ res }) => expect(res.body).toEqual({ success: true, wasBlocked: false }),
        { noChange: true },
      ),
      friend: ok(200, ({ res }) => expect(res.body).toEqual({ success: true, wasBlocked: false }), {
        noChange: true,
      }),
      owner: ok(200, ({ res }) => expect(res.body).toEqual({ success: true, wasBlocked: true }), {
        after: async ({ w }) => {
          expect(
            (await w.client('owner').post('/api/blocks', { userId: w.people.blocked.id })).status,
          ).toBe(201);
        },
      }),
    },
  ),
  row(
    'DELETE /api/friends/:friendId',
    split(
      (w) => ({ path: `/api/friends/${w.a.id}` }),
      () => ({ path: `/api/friends/${scratch.exFriend}` }),
    ),
    {
      // Only a friend can unfriend A; to anyone else A is not a friend to remove.
      stranger: FRIEND_NOT_FOUND,
      friend: ok(
        200,
        async ({ res }) => {
          expect(res.body).toEqual({ success: true });
          expect(ids((await w.client('owner').get('/api/friends')).body)).not.toContain(
            idOf('friend'),
          );
        },
        { after: async () => makeFriends(w.people.friend, w.people.owner) },
      ),
      owner: ok(200, async ({ res }) => {
        expect(res.body).toEqual({ success: true });
        expect(ids((await w.client('owner').get('/api/friends')).body)).not.toContain(
          scratch.exFriend,
        );
      }),
    },
    {
      setup: async (w) => {
        const ex = await makeUser(w.server, { firstName: 'Ex', lastName: 'Friend' });
        await makeFriends(w.people.owner, ex);
        scratch.exFriend = ex.id;
      },
    },
  ),
  row(
    'DELETE /api/profile/anchors/:id',
    same(() => ({ path: `/api/profile/anchors/${scratch.anchorToWithdraw}` })),
    {
      // A's own request: only A (its asker) may take it back; to anyone else it is unknown.
      stranger: notFound('Anchor request not found'),
      friend: notFound('Anchor request not found'),
      owner: ok(200, async ({ res }) => {
        expect(res.body).toEqual({ success: true });
        expect(
          await sqlCount('SELECT count(*) n FROM anchors WHERE id = ?', scratch.anchorToWithdraw),
        ).toBe(0);
      }),
    },
    {
      setup: async (w) => {
        const pal = await makeUser(w.server, { firstName: 'Anchor', lastName: 'Pal' });
        await makeFriends(w.people.owner, pal);
        const asked = await w
          .client('owner')
          .post('/api/profile/anchors', { friendId: pal.id, text: 'Withdraw me' });
        expect(asked.status).toBe(201);
        scratch.anchorToWithdraw = asked.body.id;
      },
    },
  ),
  row(
    'POST /api/reports',
    split(
      (w) => ({ path: '/api/reports', body: { userId: w.a.id, reason: 'spam' } }),
      (w) => ({
        path: '/api/reports',
        body: { userId: w.people.blocked.id, reason: 'other' },
      }),
    ),
    {
      stranger: ok(201, ({ res }) =>
        expect(res.body).toMatchObject({ userId: A(), status: 'open' }),
      ),
      // A blocked B1: to B1, A does not exist.
      blocked: notFound('User not found'),
      // The blocker may report the person they blocked (and A may report B1).
      blocker: ok(201, ({ res }) => expect(res.body).toMatchObject({ userId: A() })),
      friend: ok(201, ({ res }) => expect(res.body).toMatchObject({ userId: A() })),
      owner: ok(201, ({ res }) => expect(res.body).toMatchObject({ userId: idOf('blocked') })),
    },
  ),
  row(
    'GET /api/admin/reports',
    same(() => ({ path: '/api/admin/reports?status=all' })),
    {
      stranger: ADMIN_ONLY,
      admin: ok(200, ({ res }) =>
        expect(res.body.find((r: { id: string }) => r.id === w.a.reportId)).toMatchObject({
          reporter: { id: A(), email: w.a.email },
          details: MARKERS.ownerOnly.report,
        }),
      ),
      friend: ADMIN_ONLY,
      owner: ADMIN_ONLY,
    },
    { reveals: { admin: ['report', 'email'] } },
  ),
  row(
    'PATCH /api/admin/reports/:id',
    same((w) => ({
      path: `/api/admin/reports/${w.a.reportId}`,
      body: { status: 'resolved', note: 'Handled' },
    })),
    {
      stranger: ADMIN_ONLY,
      admin: ok(200, ({ res }) =>
        expect(res.body).toMatchObject({
          id: w.a.reportId,
          status: 'resolved',
          resolvedBy: idOf('admin'),
        }),
      ),
      // A made the report; resolving it is still the admins' job.
      friend: ADMIN_ONLY,
      owner: ADMIN_ONLY,
    },
    { reveals: { admin: ['report', 'email'] } },
  ),

  // ----- the account's own security: last, they end sessions (each is signed in again) -----
  row(
    'POST /api/change-password',
    same(() => ({
      path: '/api/change-password',
      body: { currentPassword: OWNER_PASSWORD, newPassword: 'taken over 2' },
    })),
    {
      // Everyone changes only their own password; A's does not open anyone else's account.
      stranger: forbidden('That password is not correct'),
      friend: forbidden('That password is not correct'),
      owner: ok(
        200,
        async ({ res }) => {
          expect(res.body).toMatchObject({ success: true });
          await stillSignedIn('owner');
        },
        {
          after: async ({ w }) => {
            const back = await w.client('owner').post('/api/change-password', {
              currentPassword: 'taken over 2',
              newPassword: OWNER_PASSWORD,
            });
            expect(back.status, back.text).toBe(200);
          },
        },
      ),
    },
  ),
  row(
    'POST /api/logout-everywhere',
    same(() => ({ path: '/api/logout-everywhere' })),
    {
      // Everyone signs only themselves out everywhere; A stays signed in.
      stranger: ok(200, endsOnlyOwnSessions, { ownerUntouched: true, after: signBackIn }),
      friend: ok(200, endsOnlyOwnSessions, { ownerUntouched: true, after: signBackIn }),
      owner: ok(
        200,
        async ({ res }) => {
          expect(res.body.success).toBe(true);
          await signedOutNow('owner');
        },
        { after: signBackIn },
      ),
    },
  ),
  row(
    'POST /api/logout',
    same(() => ({ path: '/api/logout' })),
    {
      'signed out': ok(200, ({ res }) => expect(res.body).toEqual({ success: true }), {
        noChange: true,
      }),
      stranger: ok(200, endsOnlyOwnSessions, { noChange: true, after: signBackIn }),
      friend: ok(200, endsOnlyOwnSessions, { noChange: true, after: signBackIn }),
      owner: ok(200, async () => signedOutNow('owner'), { noChange: true, after: signBackIn }),
    },
  ),
  row(
    'DELETE /api/account',
    same(() => ({ path: '/api/account', body: { password: OWNER_PASSWORD } })),
    {
      // A's password deletes nobody but A, and only from A's own session.
      stranger: forbidden('That password is not correct'),
      friend: forbidden('That password is not correct'),
      owner: ok(200, async ({ res }) => {
        expect(res.body).toEqual({ success: true });
        expect(await sqlCount('SELECT count(*) n FROM users WHERE id = ?', A())).toBe(0);
        await signedOutNow('owner');
      }),
    },
  ),
];

// ---------- small helpers used by the table ----------

function newPerson() {
  scratch.newEmail = `authz-new-${randomUUID()}@example.test`;
  return {
    email: scratch.newEmail,
    password: 'a new person',
    firstName: 'New',
    lastName: 'Person',
  };
}
function statusField(route: string) {
  return route === 'POST /api/friends' ? { status: 'pending' } : {};
}
function resetAnswer({ res }: Call) {
  expect(res.body).toEqual({
    success: true,
    message: 'If an account exists for that email, a reset link is on its way.',
  });
}
function resendAnswer({ res }: Call) {
  expect(res.body).toEqual({
    success: true,
    message: 'If that account still needs verifying, a new link is on its way.',
  });
}
function oauthNotConfigured({ res }: Call) {
  expect(res.headers.get('location')).toBe(
    `/auth?error=${encodeURIComponent(OAUTH_MESSAGES.notConfigured)}`,
  );
}
function ownPhoto({ res, me }: Call) {
  expect(res.body.id).toBe(me);
  expect(res.body.profileImageUrl).toMatch(/^\/uploads\/[\w-]+\.\w+$/);
}

function selfWith(fields: Record<string, unknown>) {
  return ({ res, me }: Call) => {
    expect(res.body.id).toBe(me);
    for (const [k, v] of Object.entries(fields)) {
      if (v === '$handle') expect(res.body[k]).toBe(w.a.handle);
      else expect(res.body[k]).toEqual(v);
    }
  };
}
function countAnswer({ res }: Call) {
  expect(typeof res.body.count).toBe('number');
}
function vapidKey({ res }: Call) {
  expect(res.body).toEqual({ publicKey: w.server.config.vapid.publicKey });
}
function pingsWithA(list: { id: string; senderId: string; receiverId: string }[]) {
  return list.filter((p) => p.senderId === A() || p.receiverId === A()).map((p) => p.id);
}
async function reactionsOnPingsOfA(list: { pingId: string }[]) {
  const ofA = new Set(
    (
      await w.server.database.db
        .selectFrom('pings')
        .select('id')
        .where((eb) => eb.or([eb('senderId', '=', A()), eb('receiverId', '=', A())]))
        .execute()
    ).map((p) => p.id),
  );
  return list.filter((r) => ofA.has(r.pingId));
}
function anchorsOfA(list: { id: string; userId: string; friendId: string }[]) {
  return list.filter((a) => a.userId === A() || a.friendId === A()).map((a) => a.id);
}
function friendIds(list: { friendId: string }[]) {
  return list.map((e) => e.friendId);
}
function blockedIds(list: { userId: string }[]) {
  return list.map((b) => b.userId);
}
function blockOf(target: () => string) {
  return ({ res }: Call) =>
    expect(res.body).toMatchObject({ userId: target(), user: { id: target() } });
}
function changeOf(
  body: { changes: { entity: string; id: string; op: string; data?: unknown }[] },
  entity: string,
  id?: string,
  mentions?: string,
) {
  return body.changes.find(
    (c) =>
      c.entity === entity &&
      (id === undefined || c.id === id) &&
      (mentions === undefined || JSON.stringify(c).includes(mentions)),
  );
}
function batchOf(method: string, path: string, body: unknown): Req {
  return {
    path: '/api/sync/batch',
    body: { entries: [{ idempotencyKey: `authz-${randomUUID()}`, method, path, body }] },
  };
}
/** The check, then the same call with A's snapshot token: still the caller's own view only. */
function withOwnersSnapshotToken(check: (c: Call) => void) {
  return async (c: Call) => {
    check(c);
    const token = encodeURIComponent(scratch.ownerSnapshot!);
    const cont = await w.client(c.role).get(`/api/sync/pull?snapshot=${token}`);
    expect(cont.status, cont.text).toBe(200);
    expect(cont.body.reset).toBe(true);
    leaksChecked({}, c.role, cont.text);
    if (c.role === 'stranger' || c.role === 'admin') expect(cont.text).not.toContain(A());
  };
}
async function endpointNowCallers({ res, me }: Call) {
  expect(res.body.endpoint).toBe(w.a.pushEndpoint);
  const row = await w.server.database.db
    .selectFrom('pushSubscriptions')
    .select('userId')
    .where('endpoint', '=', w.a.pushEndpoint)
    .executeTakeFirstOrThrow();
  expect(row.userId).toBe(me);
}
async function endsOnlyOwnSessions({ res, role }: Call) {
  expect(res.body.success).toBe(true);
  await signedOutNow(role as SignedInRole);
  await stillSignedIn('owner');
}
async function signBackIn({ w, role }: Call) {
  await w.signInAgain(role as SignedInRole);
}

// ---------- running the table ----------

/** `/api/pings/:id/read` → a pattern the concrete path must match (so a row hits its route). */
function matchesRoute(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '[^/]+')}$`);
  return re.test(path.split('?')[0]!);
}

/** Callers with no part in anything of A's (the friend is a party to some of it). */
const OUTSIDERS = new Set<Role>(['stranger', 'blocked', 'blocker', 'admin']);

/** The same request with every id of A's things replaced by one nobody has. */
function twinOf(req: Req): Req | undefined {
  let text = JSON.stringify(req);
  const before = text;
  const mine = [
    ...Object.values(w.a).filter((v) => typeof v === 'string' && v.length >= 12),
    scratch.promptToDelete,
  ].filter((v): v is string => typeof v === 'string' && v !== w.a.password);
  for (const id of mine) {
    const replacement =
      id === w.a.inviteCode
        ? randomBytes(9).toString('base64url')
        : id === w.a.pushEndpoint
          ? `${w.pushUrl}/push/nobody-${randomUUID()}`
          : randomUUID();
    text = text.split(id).join(replacement);
  }
  return text === before ? undefined : (JSON.parse(text) as Req);
}

function leaksChecked(row: Pick<Row, 'reveals'> & { route?: string }, role: Role, text: string) {
  if (role === 'owner') return;
  // Neither side of a block is told about it, except on the block routes themselves.
  if ((role === 'blocked' || role === 'blocker') && !row.route?.includes('/api/blocks'))
    expect(text, `${role} was told about a block`).not.toMatch(/block/i);
  const allowed = new Set<string>(row.reveals?.[role] ?? []);
  for (const [name, marker] of Object.entries(MARKERS.ownerOnly)) {
    if (!allowed.has(name)) expect(text, `${name} of A's reached ${role}`).not.toContain(marker);
  }
  if (role === 'friend') return;
  for (const [name, marker] of Object.entries(MARKERS.friendsToo)) {
    if (!allowed.has(name)) expect(text, `${name} of A's reached ${role}`).not.toContain(marker);
  }
}

describe('the authorization matrix', () => {
  it('has exactly one row for every route the server answers', () => {
    const routes = listRoutes({
      db: w.server.database.db,
      config: w.server.config,
      mailer: w.server.mailer,
      events: w.server.events,
    }).map(routeKey);
    const rows = TABLE.map((r) => r.route);
    expect(new Set(rows).size, 'a route has two rows').toBe(rows.length);
    expect(
      rows.filter((r) => !routes.includes(r)),
      'rows for routes that do not exist',
    ).toEqual([]);
    expect(
      routes.filter((r) => !rows.includes(r)),
      'routes without a row',
    ).toEqual([]);
    expect(rows.length).toBe(routes.length);
  });
});

describe.each(TABLE.map((row) => [row.route, row] as const))('%s', (_route, row) => {
  const [method, pattern] = row.route.split(' ') as [string, string];

  beforeAll(async () => {
    await row.setup?.(w);
  });

  it.each(ROLES.map((role) => [role, row.who[role].status] as const))('%s → %i', async (role) => {
    const expected = row.who[role];
    const req = row.req(w, role);
    expect(matchesRoute(pattern, req.path), `${req.path} is not ${pattern}`).toBe(true);
    const client = w.client(role);
    const me = w.id(role);
    // Digests only where the case promises "nothing changed" (a refusal, a no-op, A untouched).
    const refusal = expected.status >= 400;
    const before = refusal || expected.noChange ? await databaseDigest(w.server) : undefined;
    const ownerBefore = expected.ownerUntouched ? await ownerDigest(w.server, w.a.id) : undefined;
    const body =
      req.body ?? (method === 'POST' || method === 'PUT' || method === 'PATCH' ? {} : undefined);
    const res = req.file
      ? await client.request(method, req.path, undefined, {
          raw: req.file.bytes,
          headers: { 'content-type': req.file.type },
        })
      : await client.request(method, req.path, body);
    const call: Call = { w, role, res, me };
    try {
      expect(res.status, res.text).toBe(expected.status);
      if (res.status >= 400) {
        expect(typeof res.body?.error, res.text).toBe('string');
        expect(typeof res.body?.code, res.text).toBe('string');
      }
      if (before) {
        expect(await databaseDigest(w.server), 'the database changed').toEqual(before);
      }
      if (ownerBefore) {
        expect(await ownerDigest(w.server, w.a.id), "A's rows changed").toEqual(ownerBefore);
      }
      await expected.check?.(call);
      leaksChecked(row, role, res.text + (res.headers.get('location') ?? ''));
      // Someone with no part in A's thing is refused exactly as for a thing that does not exist.
      const twin = OUTSIDERS.has(role) && (res.status === 403 || res.status === 404) && twinOf(req);
      if (twin) {
        const unknown = await client.request(method, twin.path, twin.body ?? body);
        expect(
          { status: unknown.status, body: unknown.body },
          `${role}: A's ids and unknown ids answered differently`,
        ).toEqual({ status: res.status, body: res.body });
        expect(await databaseDigest(w.server), 'the database changed').toEqual(before);
      }
    } finally {
      if (res.status === expected.status) await expected.after?.(call);
    }
  });
});
