/**
 * People for the browser tests, made through the run's real server and its REST API: accounts
 * (past the onboarding setup unless asked otherwise), their session cookie, REST calls as them,
 * friendships, anchors, pings, their own record, and a browser page signed in by that cookie (so
 * a test spends its time on the screen it tests).
 */
import type { Page } from 'playwright-core';
import { baseUrl, linkFromMail, newPage, registerByApi, uniqueEmail } from './browser';

export interface Person {
  id: string;
  firstName: string;
  email: string;
  password: string;
  /** The session cookie header (`pingme.sid=…; pingme.sid.sig=…`). */
  cookie: string;
}

export async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

let lastNames = 0;
/** A last name nobody else in this run has, so searches find exactly one person. */
export function uniqueLastName(): string {
  lastNames += 1;
  const letters = (Date.now() * 100 + lastNames)
    .toString(26)
    .replace(/\d/g, (d) => String.fromCharCode(103 + Number(d)));
  return `Q${letters}`;
}

/** A person with a unique last name (see uniqueLastName). */
export async function named(firstName: string): Promise<Person & { lastName: string }> {
  const lastName = uniqueLastName();
  return { ...(await person(firstName, lastName)), lastName };
}

/**
 * A registered, signed-in person (a unique e-mail unless `email` is given); `setupDone: false`
 * leaves the onboarding setup in their way.
 */
export async function person(
  firstName: string,
  lastName = 'Tester',
  opts: { email?: string; setupDone?: boolean } = {},
): Promise<Person> {
  const email = opts.email ?? uniqueEmail(firstName.toLowerCase());
  const user = await registerByApi({ firstName, lastName, email, setupDone: opts.setupDone });
  return {
    id: user.id,
    firstName,
    email,
    password: user.password,
    cookie: await login(email, user.password),
  };
}

/**
 * Opens the link in the person's sign-up mail (the verification the server sent by SMTP), as the
 * owner of the address does; a listed address (ADMIN_EMAILS) is an admin from then on.
 */
export async function verifyByMail(email: string): Promise<void> {
  const link = new URL(await linkFromMail(email, /Verify your PingMe e-mail/));
  const res = await fetch(`${baseUrl}/api/verify-email${link.search}`);
  if (res.status !== 200) throw new Error(`verification failed: ${res.status} ${await res.text()}`);
}

/**
 * A REST call as `who` (through `base`, e.g. a proxy, when given); an answer that is not JSON
 * comes back as its text.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
export async function call<T = any>(
  who: Person,
  method: string,
  path: string,
  body?: unknown,
  base = baseUrl,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: who.cookie,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

async function ok<T>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Puts the person's session cookie into the page's context for `origin` (default: the server). */
export async function signInPage(page: Page, who: Person, origin = baseUrl): Promise<void> {
  const url = new URL(origin);
  await page.context().addCookies(
    who.cookie.split('; ').map((pair) => {
      const i = pair.indexOf('=');
      return {
        name: pair.slice(0, i),
        value: pair.slice(i + 1),
        domain: url.hostname,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax' as const,
      };
    }),
  );
}

/** A new phone-size page signed in as `who`, opened at `path` when given. */
export async function pageAs(who: Person, path?: string): Promise<Page> {
  const page = await newPage();
  await signInPage(page, who);
  if (path !== undefined) await page.goto(path);
  return page;
}

/** a asks, b accepts (an ask that the server answers as already accepted needs no accept). */
export async function befriend(a: Person, b: Person): Promise<void> {
  const asked = await ok(
    call<{ requestId: string; status: string }>(a, 'POST', '/api/friends/request', {
      friendId: b.id,
    }),
    'friend request',
  );
  if (asked.status === 'accepted') return;
  await ok(call(b, 'POST', '/api/friends/accept', { requestId: asked.requestId }), 'accept');
}

/** `from` asks `to` to be friends and leaves it pending. */
export async function requestFriendship(from: Person, to: Person): Promise<void> {
  await ok(call(from, 'POST', '/api/friends/request', { friendId: to.id }), 'friend request');
}

/**
 * Ends a friendship behind the app's back, in the test server's SQLite file (no route, so no
 * change row): the server then refuses pings between the two, while the devices still list
 * each other. The file is found among the test servers' temporary DATA_DIRs by the person's e-mail.
 */
export async function removeFriendshipInDb(aEmail: string, bEmail: string): Promise<void> {
  const { readdirSync, existsSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { default: Database } = await import('better-sqlite3');
  for (const dir of readdirSync(os.tmpdir()).filter((d) => d.startsWith('pingme-test-'))) {
    const file = path.join(os.tmpdir(), dir, 'pingme.sqlite');
    if (!existsSync(file)) continue;
    const sqlite = new Database(file, { fileMustExist: true, timeout: 5000 });
    try {
      const ids = sqlite
        .prepare('SELECT id FROM users WHERE email IN (?, ?)')
        .all(aEmail, bEmail) as { id: string }[];
      if (ids.length !== 2) continue;
      const [a, b] = ids.map((r) => r.id);
      const removed = sqlite
        .prepare(
          `DELETE FROM friendships WHERE (requester_id = ? AND addressee_id = ?)
             OR (requester_id = ? AND addressee_id = ?)`,
        )
        .run(a, b, b, a);
      if (removed.changes !== 1)
        throw new Error(`expected one friendship, removed ${removed.changes}`);
      return;
    } finally {
      sqlite.close();
    }
  }
  throw new Error('the test server’s database was not found');
}

/** An accepted anchor: `from` asks, `to` accepts. */
export async function makeAcceptedAnchor(
  from: Person,
  to: Person,
  fields: { text: string; emoji?: string; color?: string; label?: string },
): Promise<{ id: string }> {
  const anchor = await ok(
    call<{ id: string; status: string }>(from, 'POST', '/api/profile/anchors', {
      friendId: to.id,
      ...fields,
    }),
    'anchor',
  );
  if (anchor.status !== 'accepted')
    await ok(
      call(to, 'PATCH', `/api/profile/anchors/${anchor.id}/respond`, { response: 'accept' }),
      'anchor accept',
    );
  return anchor;
}

/** `from` asks `to` for an anchor and leaves it pending. */
export async function askAnchor(from: Person, to: Person, text = 'Ping me when you miss me') {
  const res = await call<{ id: string; status: string }>(from, 'POST', '/api/profile/anchors', {
    friendId: to.id,
    text,
    emoji: '⚓',
  });
  if (res.status !== 201) throw new Error(`anchor request failed: ${res.status}`);
  return res.body;
}

/** The default prompt number n (01 … 0e, migration 003). */
export function defaultPromptId(n = 1): string {
  return `00000000-0000-7000-8000-0000000000${n.toString(16).padStart(2, '0')}`;
}

export const DEFAULT_PROMPT_IDS = { hug: defaultPromptId(1), proud: defaultPromptId(2) } as const;

/** `from` pings `to` with a prompt; answers the new ping, or fails. */
export async function sendPingByApi(
  from: Person,
  to: Person,
  promptId: string = DEFAULT_PROMPT_IDS.hug,
) {
  return ok(
    call<{ id: string }>(from, 'POST', '/api/pings', { promptId, receiverId: to.id }),
    'ping',
  );
}

/** `from` sends `to` a custom ping (`body`: its text, emoji, …); answers the new ping, or fails. */
export async function customPing(from: Person, to: Person, body: Record<string, unknown>) {
  const res = await call<{ id: string }>(from, 'POST', '/api/pings/custom', {
    receiverId: to.id,
    ...body,
  });
  if (res.status !== 201) throw new Error(`custom ping failed: ${res.status}`);
  return res.body;
}

/** a pings b with a default prompt; answers the status (201, or 429 over b's daily limit). */
export async function ping(a: Person, b: Person, promptNo = 1): Promise<number> {
  const res = await call(a, 'POST', '/api/pings', {
    promptId: defaultPromptId(promptNo),
    receiverId: b.id,
  });
  return res.status;
}

export interface PingJson {
  id: string;
  kind: string;
  senderId: string;
  anchorId: string | null;
  customText: string | null;
  customEmoji: string | null;
  prompt: { id: string | null; text: string; emoji: string } | null;
  isRead: boolean;
}

/** The pings the person received, newest first. */
export async function receivedPings(who: Person): Promise<PingJson[]> {
  return ok(call<PingJson[]>(who, 'GET', '/api/pings/recent'), 'recent pings');
}

/** The person's own record as the server has it (GET /api/user, the SelfUser JSON). */
export interface SelfJson {
  handle: string | null;
  bio: string | null;
  location: string | null;
  profileImageUrl: string | null;
  onboardingCompleted: boolean;
  onboardingStep: number | null;
  [field: string]: unknown;
}

export async function selfRecord(who: Person): Promise<SelfJson> {
  return ok(call<SelfJson>(who, 'GET', '/api/user'), 'user');
}

export async function inviteCodeOf(who: Person): Promise<string> {
  return (await call<{ inviteCode: string }>(who, 'GET', '/api/user')).body.inviteCode;
}

export async function completeSetupByApi(who: Person, handle: string): Promise<void> {
  await ok(call(who, 'POST', '/api/user/complete-onboarding', { handle }), 'setup');
}

/** Polls until `check` passes (the outbox and the pull are asynchronous). */
export async function eventually<T>(
  probe: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
