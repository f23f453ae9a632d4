/** Helpers of the friends and activity browser tests: unique names, pings and anchors by API. */
import type { Page } from 'playwright-core';
import { call, person, signInPage, type Person } from './people';
import { newPage } from './browser';

export const HUG_PROMPT = '00000000-0000-7000-8000-000000000001';
export const PROUD_PROMPT = '00000000-0000-7000-8000-000000000002';
export const MISS_PROMPT = '00000000-0000-7000-8000-000000000003';

let n = 0;
/** A last name nobody else in this run has, so searches find exactly one person. */
export function uniqueLastName(): string {
  n += 1;
  const letters = (Date.now() * 100 + n)
    .toString(26)
    .replace(/\d/g, (d) => String.fromCharCode(103 + Number(d)));
  return `Q${letters}`;
}

export async function named(firstName: string): Promise<Person & { lastName: string }> {
  const lastName = uniqueLastName();
  return { ...(await person(firstName, lastName)), lastName };
}

/** A page signed in as `who`, opened at `path`. */
export async function pageAs(who: Person, path = '/'): Promise<Page> {
  const page = await newPage();
  await signInPage(page, who);
  await page.goto(path);
  return page;
}

export async function ping(from: Person, to: Person, promptId = HUG_PROMPT) {
  const res = await call<{ id: string }>(from, 'POST', '/api/pings', {
    promptId,
    receiverId: to.id,
  });
  if (res.status !== 201) throw new Error(`ping failed: ${res.status}`);
  return res.body;
}

export async function customPing(from: Person, to: Person, body: Record<string, unknown>) {
  const res = await call<{ id: string }>(from, 'POST', '/api/pings/custom', {
    receiverId: to.id,
    ...body,
  });
  if (res.status !== 201) throw new Error(`custom ping failed: ${res.status}`);
  return res.body;
}

export async function askAnchor(from: Person, to: Person, text = 'Ping me when you miss me') {
  const res = await call<{ id: string; status: string }>(from, 'POST', '/api/profile/anchors', {
    friendId: to.id,
    text,
    emoji: '⚓',
  });
  if (res.status !== 201) throw new Error(`anchor request failed: ${res.status}`);
  return res.body;
}

export async function inviteCodeOf(who: Person): Promise<string> {
  return (await call<{ inviteCode: string }>(who, 'GET', '/api/user')).body.inviteCode;
}
