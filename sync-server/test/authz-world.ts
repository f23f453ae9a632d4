/**
 * The world the authorization matrix (authorization-matrix.test.ts) runs in: one real server,
 * an owner (A) with real data of every kind, and one person for each other role, all made
 * through the API. Also: the mail sink (real SMTP on loopback) that catches A's tokens, a push
 * service stand-in on loopback, and the digests that prove a refusal changed nothing.
 */
import { createECDH, createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { sql, type RawBuilder } from 'kysely';
import {
  Client,
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type Res,
  type TestServer,
} from './harness';
import { startMailSink, tokenIn, VERIFY_SUBJECT, type MailSink } from './mail-sink';
import { tableNames, tableRows } from './db-inspect';

// The mail sink (real SMTP on loopback) and its helpers, for the matrix.
export { RESET_SUBJECT, VERIFY_SUBJECT, tokenIn, type MailSink } from './mail-sink';

/** Who calls. The order is the order each route is tried in: the owner last. */
export const ROLES = [
  'signed out',
  'stranger',
  'blocked',
  'blocker',
  'admin',
  'friend',
  'owner',
] as const;
export type Role = (typeof ROLES)[number];
export type SignedInRole = Exclude<Role, 'signed out'>;

/** A default prompt every server has (migration 003). */
export const DEFAULT_PROMPT = '00000000-0000-7000-8000-000000000001';
export const OWNER_PASSWORD = 'owner password 1';
export const OTHERS_PASSWORD = 'correct horse';
export const ADMIN_EMAIL = `authz-admin-${Date.now()}@example.test`;

const tag = randomBytes(4).toString('hex');

/**
 * Texts of A's data that must never appear in an answer to someone who may not see them.
 * `ownerOnly`: nobody but A (the admin sees the report's details, its route says so).
 * `friendsToo`: A and A's friends; everyone else must never see them.
 */
export const MARKERS = {
  ownerOnly: {
    prompt: `PMX-PROMPT-${tag}`,
    moment: `PMX-MOMENT-${tag}`,
    pack: `PMX-PACK-${tag}`,
    push: `/push/owner-${tag}`,
    report: `PMX-REPORT-${tag}`,
  },
  friendsToo: {
    email: `authz-owner-${tag}@example.test`,
    bio: `PMX-BIO-${tag}`,
    mood: `PMX-MOOD-${tag}`,
    customPing: `PMX-CUSTOM-${tag}`,
  },
} as const;
export type OwnerOnlyMarker = keyof typeof MARKERS.ownerOnly;
export type FriendMarker = keyof typeof MARKERS.friendsToo;

// ---------- a push service stand-in: accepts every push ----------

async function startPushService(): Promise<{ url: string; close(): Promise<void> }> {
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

/** A P-256 public point (65 bytes, 0x04 first) and a 16-byte secret, as a browser gives them. */
export function pushKeys() {
  const ecdh = createECDH('prime256v1');
  return {
    p256dh: ecdh.generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

// ---------- the world ----------

export interface World {
  server: TestServer;
  mail: MailSink;
  pushUrl: string;
  people: Record<SignedInRole, MadeUser>;
  /** Extra people (not roles): F2, F3 (A's other friends), R (asked A), Q (asked by A), Z. */
  extra: Record<'f2' | 'f3' | 'r' | 'q' | 'z', MadeUser>;
  a: {
    id: string;
    email: string;
    password: string;
    handle: string;
    lastName: string;
    inviteCode: string;
    /** A's custom prompt (private: only A sees its text). */
    promptId: string;
    /** A custom ping F sent A, and one A sent F (its text is the `customPing` marker). */
    pingFromFriend: string;
    pingToFriend: string;
    /** Pings A sent B1 and B2 while they were friends: their history. */
    pingToBlocked: string;
    pingToBlocker: string;
    /** F's pending anchor request to A; A's to F2 (pending); A↔F3 (accepted). */
    anchorFromFriend: string;
    anchorToF2: string;
    anchorWithF3: string;
    /** R asked A to be friends; A asked Q. */
    requestFromR: string;
    requestToQ: string;
    moodToFriend: string;
    momentId: string;
    packId: string;
    pushEndpoint: string;
    reportId: string;
    /** Tokens from A's mail: verification (from sign-up). */
    verifyToken: string;
  };
  /** The signed-in client of a role (a new, cookie-less client for 'signed out'). */
  client(role: Role): Client;
  id(role: Role): string | undefined;
  /** Signs the role in again on a new client (after a sign-out or a password change). */
  signInAgain(role: SignedInRole, password?: string): Promise<void>;
  mailsTo(address: string, subject: string): ParsedMail[];
  waitForMail(address: string, subject: string, count?: number): Promise<ParsedMail[]>;
  stop(): Promise<void>;
}

function must<T = any>(res: Res<T>, status: number | number[], what: string): T {
  const ok = Array.isArray(status) ? status.includes(res.status) : res.status === status;
  if (!ok) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
}

export async function buildWorld(): Promise<World> {
  const mail = await startMailSink();
  const push = await startPushService();
  const server = await startTestServer({
    ADMIN_EMAILS: ADMIN_EMAIL,
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    PUSH_ALLOW_HTTP_ENDPOINTS: 'true',
    PUSH_TIMEOUT_MS: '5000',
    // Every role tries A's password once or twice on purpose; A must still be able to sign in.
    LOGIN_FREE_FAILURES: '100000',
    LOGIN_ACCOUNT_FREE_FAILURES: '100000',
  });

  const mailsTo = mail.mailsTo;
  const waitForMail = (address: string, subject: string, count = 1) =>
    mail.waitForMail(address, subject, count, 15_000);

  const owner = await makeUser(server, {
    email: MARKERS.friendsToo.email,
    password: OWNER_PASSWORD,
    firstName: 'Olive',
    lastName: `Owner${tag}`,
  });
  const [friend, stranger, blocked, blocker, admin, f2, f3, r, q, z] = await Promise.all([
    makeUser(server, { firstName: 'Fern', lastName: 'Friend' }),
    makeUser(server, { firstName: 'Stan', lastName: 'Stranger' }),
    makeUser(server, { firstName: 'Bea', lastName: 'Bee' }),
    makeUser(server, { firstName: 'Bart', lastName: 'Bay' }),
    makeUser(server, { firstName: 'Ada', lastName: 'Admin', email: ADMIN_EMAIL }),
    makeUser(server, { firstName: 'Finn', lastName: 'Second' }),
    makeUser(server, { firstName: 'Flo', lastName: 'Third' }),
    makeUser(server, { firstName: 'Rae', lastName: 'Requester' }),
    makeUser(server, { firstName: 'Quin', lastName: 'Asked' }),
    makeUser(server, { firstName: 'Zed', lastName: 'Nobody' }),
  ]);
  // A listed address is no admin until it is verified (docs/security.md).
  if (admin.user.isAdmin) throw new Error('an unverified listed address became an admin');
  const people: Record<SignedInRole, MadeUser> = {
    stranger,
    blocked,
    blocker,
    admin,
    friend,
    owner,
  };
  const A = owner.client;

  // Each sign-up writes its verification token after answering: wait for every one (its mail
  // goes out after the token is stored), so no late write lands inside a case's digest.
  const everyone = [owner, friend, stranger, blocked, blocker, admin, f2, f3, r, q, z];
  await Promise.all(everyone.map((p) => waitForMail(p.email, VERIFY_SUBJECT)));
  // The admin opens the link in their verification mail: now the listed address counts.
  const adminMail = await waitForMail(admin.email, VERIFY_SUBJECT);
  must(
    await admin.client.get(`/api/verify-email?token=${tokenIn(adminMail[0]!, '/verify-email')}`),
    200,
    'admin verifies',
  );
  if (!must(await admin.client.get('/api/user'), 200, 'admin').isAdmin)
    throw new Error('the verified admin is not an admin');
  const verifyMail = await waitForMail(owner.email, VERIFY_SUBJECT);
  const verifyToken = tokenIn(verifyMail[0]!, '/verify-email');

  const handle = `owner_${tag}`;
  must(
    await A.put('/api/profile/update', { handle, bio: MARKERS.friendsToo.bio, tagline: 'Hi' }),
    200,
    'profile',
  );
  for (const other of [friend, f2, f3, blocked, blocker]) await makeFriends(owner, other);

  const prompt = must(
    await A.post('/api/prompts', { text: MARKERS.ownerOnly.prompt, emoji: '🔒' }),
    201,
    'prompt',
  );
  must(
    await A.post('/api/prompts/assign', { promptId: prompt.id, friendId: friend.id }),
    200,
    'assign',
  );

  const pingFromFriend = must(
    await friend.client.post('/api/pings/custom', { receiverId: owner.id, customText: 'Hey A' }),
    201,
    'ping F→A',
  ).id;
  const pingToFriend = must(
    await A.post('/api/pings/custom', {
      receiverId: friend.id,
      customText: MARKERS.friendsToo.customPing,
    }),
    201,
    'ping A→F',
  ).id;
  must(
    await friend.client.post(`/api/pings/${pingToFriend}/reactions`, { reactionType: 'heart' }),
    201,
    'reaction',
  );
  const pingToBlocked = must(
    await A.post('/api/pings', { promptId: DEFAULT_PROMPT, receiverId: blocked.id }),
    201,
    'ping A→B1',
  ).id;
  const pingToBlocker = must(
    await A.post('/api/pings', { promptId: DEFAULT_PROMPT, receiverId: blocker.id }),
    201,
    'ping A→B2',
  ).id;
  must(
    await A.patch(`/api/pings/${pingFromFriend}/bookmark`, {
      bookmarked: true,
      title: MARKERS.ownerOnly.moment,
    }),
    200,
    'bookmark',
  );
  const { id: momentId } = await server.database.db
    .selectFrom('moments')
    .select('id')
    .where('userId', '=', owner.id)
    .executeTakeFirstOrThrow();

  const moodToFriend = must(
    await A.post('/api/moods', {
      friendId: friend.id,
      mood: 'happy',
      emoji: '😊',
      note: MARKERS.friendsToo.mood,
    }),
    201,
    'mood',
  ).id;

  const anchorWithF3 = must(
    await A.post('/api/profile/anchors', { friendId: f3.id, text: 'Our anchor' }),
    201,
    'anchor A→F3',
  ).id;
  must(
    await f3.client.patch(`/api/profile/anchors/${anchorWithF3}/respond`, { response: 'accept' }),
    200,
    'anchor accept',
  );
  const anchorToF2 = must(
    await A.post('/api/profile/anchors', { friendId: f2.id, text: 'Anchor for F2?' }),
    201,
    'anchor A→F2',
  ).id;
  const anchorFromFriend = must(
    await friend.client.post('/api/profile/anchors', { friendId: owner.id, text: 'Anchor, A?' }),
    201,
    'anchor F→A',
  ).id;

  const requestFromR = must(
    await r.client.post('/api/friends/request', { friendId: owner.id }),
    201,
    'request R→A',
  ).requestId;
  const requestToQ = must(
    await A.post('/api/friends/request', { friendId: q.id }),
    201,
    'request A→Q',
  ).requestId;

  const pushEndpoint = `${push.url}${MARKERS.ownerOnly.push}`;
  must(
    await A.post('/api/push/subscribe', { endpoint: pushEndpoint, keys: pushKeys() }),
    201,
    'push',
  );

  // A pack of A's own (no route makes one: packs are seeded; an own pack is stored like this).
  const packId = randomUUID();
  await server.database.db
    .insertInto('packs')
    .values({
      id: packId,
      ownerId: owner.id,
      title: MARKERS.ownerOnly.pack,
      description: null,
      tags: '[]',
      prompts: JSON.stringify([{ text: `Pack prompt ${tag}`, emoji: '📦' }]),
      installCount: 0,
      createdAt: new Date().toISOString(),
    })
    .execute();

  must(await A.post('/api/energy/update-all'), 200, 'energy');
  must(await A.post('/api/blocks', { userId: blocked.id }), 201, 'A blocks B1');
  must(await blocker.client.post('/api/blocks', { userId: owner.id }), 201, 'B2 blocks A');
  const reportId = must(
    await A.post('/api/reports', {
      userId: blocked.id,
      reason: 'harassment',
      details: MARKERS.ownerOnly.report,
    }),
    201,
    'report',
  ).id;

  const self = must(await A.get('/api/user'), 200, 'user');

  const world: World = {
    server,
    mail,
    pushUrl: push.url,
    people,
    extra: { f2, f3, r, q, z },
    a: {
      id: owner.id,
      email: owner.email,
      password: OWNER_PASSWORD,
      handle,
      lastName: `Owner${tag}`,
      inviteCode: self.inviteCode,
      promptId: prompt.id,
      pingFromFriend,
      pingToFriend,
      pingToBlocked,
      pingToBlocker,
      anchorFromFriend,
      anchorToF2,
      anchorWithF3,
      requestFromR,
      requestToQ,
      moodToFriend,
      momentId,
      packId,
      pushEndpoint,
      reportId,
      verifyToken,
    },
    client: (role) => (role === 'signed out' ? server.client() : people[role].client),
    id: (role) => (role === 'signed out' ? undefined : people[role].id),
    async signInAgain(role, password) {
      const p = people[role];
      const client = server.client();
      must(
        await client.post('/api/login', { email: p.email, password: password ?? p.password }),
        200,
        `sign-in of ${role}`,
      );
      people[role] = { ...p, client };
    },
    mailsTo,
    waitForMail,
    async stop() {
      await server.stop();
      await mail.close();
      await push.close();
    },
  };
  return world;
}

// ---------- digests: proof that a refusal changed nothing ----------

/** Tables a refused request may write: sessions, throttles, idempotency records. */
const VOLATILE_TABLES = new Set(['sessions', 'rate_limits', 'idempotency_keys']);
/** Columns a request by the person writes whatever it does (last activity). */
const VOLATILE_COLUMNS: Record<string, string[]> = { users: ['last_active_at', 'updated_at'] };

const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

async function rowsOf(server: TestServer, table: string, where?: RawBuilder<unknown>) {
  const rows = await tableRows(server.database.db, table, where);
  const drop = VOLATILE_COLUMNS[table] ?? [];
  return rows
    .map((r) => {
      const copy = { ...r };
      for (const c of drop) delete copy[c];
      return JSON.stringify(copy);
    })
    .sort();
}

/** One hash per table of the whole database (volatile tables and columns left out). */
export async function databaseDigest(server: TestServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await tableNames(server.database.db)) {
    if (VOLATILE_TABLES.has(name)) continue;
    out[name] = hash(await rowsOf(server, name));
  }
  return out;
}

/**
 * Everything of the owner's: their row and every row naming them or their pings, and their
 * change feed. A call by someone else that may succeed for the caller (their own settings,
 * their own block list) must leave all of it as it was.
 */
export async function ownerDigest(server: TestServer, id: string): Promise<Record<string, string>> {
  const pings = sql`(SELECT id FROM pings WHERE sender_id = ${id} OR receiver_id = ${id})`;
  const parts: [string, RawBuilder<unknown>][] = [
    ['users', sql`WHERE id = ${id}`],
    ['friendships', sql`WHERE requester_id = ${id} OR addressee_id = ${id}`],
    ['prompts', sql`WHERE owner_id = ${id}`],
    ['prompt_assignments', sql`WHERE owner_id = ${id} OR friend_id = ${id}`],
    ['pings', sql`WHERE sender_id = ${id} OR receiver_id = ${id}`],
    ['reactions', sql`WHERE ping_id IN ${pings}`],
    ['moments', sql`WHERE user_id = ${id}`],
    ['anchors', sql`WHERE user_id = ${id} OR friend_id = ${id}`],
    ['moods', sql`WHERE user_id = ${id} OR friend_id = ${id}`],
    ['push_subscriptions', sql`WHERE user_id = ${id}`],
    ['energy_snapshots', sql`WHERE user_id = ${id}`],
    ['blocks', sql`WHERE blocker_id = ${id} OR blocked_id = ${id}`],
    ['reports', sql`WHERE reporter_id = ${id}`],
    ['packs', sql`WHERE owner_id = ${id}`],
    ['pack_installs', sql`WHERE user_id = ${id}`],
    ['tokens', sql`WHERE user_id = ${id}`],
    ['changes', sql`WHERE user_id = ${id}`],
    ['change_counters', sql`WHERE user_id = ${id}`],
  ];
  const out: Record<string, string> = {};
  for (const [table, where] of parts) out[table] = hash(await rowsOf(server, table, where));
  return out;
}
