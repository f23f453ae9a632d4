/**
 * People for the sync and ping-flow tests, made through the real server's REST API: accounts,
 * sessions (cookie strings), friendships, and signing a browser page in by its cookie.
 */
import type { Page } from 'playwright-core';
import { baseUrl, registerByApi, uniqueEmail } from './browser';

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

export async function person(firstName: string, lastName = 'Tester'): Promise<Person> {
  const email = uniqueEmail(firstName.toLowerCase());
  const user = await registerByApi({ firstName, lastName, email });
  return {
    id: user.id,
    firstName,
    email,
    password: user.password,
    cookie: await login(email, user.password),
  };
}

/** A REST call as `who` (through `base`, e.g. a proxy, when given). */
export async function call<T = unknown>(
  who: Person,
  method: string,
  path: string,
  body?: unknown,
  base = baseUrl,
): Promise<{ status: number; body: T }> {
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
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** a asks, b accepts. */
export async function befriend(a: Person, b: Person): Promise<void> {
  const asked = await call<{ requestId: string }>(a, 'POST', '/api/friends/request', {
    friendId: b.id,
  });
  if (asked.status !== 201) throw new Error(`friend request failed: ${asked.status}`);
  const accepted = await call(b, 'POST', '/api/friends/accept', {
    requestId: asked.body.requestId,
  });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status}`);
}

/** Ends the friendship from b's side (the request id is the friendship row's id). */
export async function unfriend(a: Person, b: Person): Promise<void> {
  const friend = await call<{ friendshipId: string }>(a, 'GET', `/api/friends/${b.id}`);
  const res = await call(a, 'DELETE', `/api/friends/${friend.body.friendshipId}`);
  if (res.status >= 300) throw new Error(`unfriend failed: ${res.status}`);
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

/** Rows of a Dexie table in the page (the app's database `pingme`). */
export async function dexieRows<T = Record<string, unknown>>(
  page: Page,
  table: string,
): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('pingme');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains(name)) {
            idb.close();
            return resolve([]);
          }
          const req = idb.transaction(name, 'readonly').objectStore(name).getAll();
          req.onsuccess = () => {
            idb.close();
            resolve(req.result as T[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    table,
  );
}
