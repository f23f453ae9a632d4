/**
 * People for the profile, analytics and admin browser tests, made through the real server's REST
 * API: accounts past the setup, their session cookie, friendships, pings, and a phone-size page
 * signed in by that cookie (so a test spends its time on the screen it tests).
 */
import type { Page } from 'playwright-core';
import { baseUrl, newPage, registerByApi, uniqueEmail } from './browser';

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

/** A new person past the onboarding setup, signed in. */
export async function person(
  firstName: string,
  lastName = 'Tester',
  email = uniqueEmail(firstName.toLowerCase()),
): Promise<Person> {
  const user = await registerByApi({ firstName, lastName, email });
  return {
    id: user.id,
    firstName,
    email,
    password: user.password,
    cookie: await login(email, user.password),
  };
}

/** A REST call as `who`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
export async function call<T = any>(
  who: Person,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T; headers: Headers }> {
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
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** a asks, b accepts. */
export async function befriend(a: Person, b: Person): Promise<void> {
  const asked = await call(a, 'POST', '/api/friends/request', { friendId: b.id });
  if (asked.status !== 201) throw new Error(`friend request failed: ${asked.status}`);
  const accepted = await call(b, 'POST', '/api/friends/accept', {
    requestId: asked.body.requestId,
  });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status}`);
}

/** The default prompt number n (01 … 0e, migration 003). */
export function defaultPromptId(n = 1): string {
  return `00000000-0000-7000-8000-0000000000${n.toString(16).padStart(2, '0')}`;
}

/** a pings b with a default prompt; answers the status (201, or 429 over b's daily limit). */
export async function ping(a: Person, b: Person, promptNo = 1): Promise<number> {
  const res = await call(a, 'POST', '/api/pings', {
    promptId: defaultPromptId(promptNo),
    receiverId: b.id,
  });
  return res.status;
}

/** The person's own record as the server has it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SelfUser JSON
export async function selfOf(who: Person): Promise<Record<string, any>> {
  return (await call(who, 'GET', '/api/user')).body;
}

/** Puts the person's session cookie into the page's browser context. */
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

/** A new phone-size page signed in as `who`. */
export async function pageAs(who: Person): Promise<Page> {
  const page = await newPage();
  await signInPage(page, who);
  return page;
}

/** Waits until the outbox is empty: the sync status shows nothing waiting to send. */
export async function outboxEmpty(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.sync-status__waiting'));
}
