/**
 * REST helpers for the Home, setup, Library and navigation tests, through the run's real server:
 * people with a session cookie, friendships, anchors, pings, the person's own record, and signing
 * a browser page in with a cookie.
 */
import type { Page } from 'playwright-core';
import { baseUrl, registerByApi, uniqueEmail } from './browser';

export interface Person {
  id: string;
  firstName: string;
  email: string;
  password: string;
  /** The session cookie header. */
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

/** A registered, signed-in person; `setupDone: false` leaves the onboarding setup in their way. */
export async function person(
  firstName: string,
  lastName = 'Tester',
  opts: { setupDone?: boolean } = {},
): Promise<Person> {
  const email = uniqueEmail(firstName.toLowerCase());
  const user = await registerByApi({ firstName, lastName, email, setupDone: opts.setupDone });
  return {
    id: user.id,
    firstName,
    email,
    password: user.password,
    cookie: await login(email, user.password),
  };
}

/** A REST call as `who`. */
export async function call<T = unknown>(
  who: Person,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      cookie: who.cookie,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Signs the page's context in as `who` (their session cookie). */
export async function signInPage(page: Page, who: Person): Promise<void> {
  const url = new URL(baseUrl);
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

async function ok<T>(res: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const DEFAULT_PROMPT_IDS = {
  hug: '00000000-0000-7000-8000-000000000001',
  proud: '00000000-0000-7000-8000-000000000002',
} as const;

/** a asks, b accepts. */
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

export interface SelfJson {
  handle: string | null;
  bio: string | null;
  location: string | null;
  profileImageUrl: string | null;
  onboardingCompleted: boolean;
  onboardingStep: number | null;
}

export async function selfRecord(who: Person): Promise<SelfJson> {
  return ok(call<SelfJson>(who, 'GET', '/api/user'), 'user');
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
