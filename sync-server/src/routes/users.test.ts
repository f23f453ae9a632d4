import { randomUUID } from 'node:crypto';
import { ProfileResponse, SuggestionResult, UserSearchResult } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';
import { pingRow } from '../../test/rows';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

let seq = 0;
/** A word no other test in this file uses, so searches see only their own people. */
const token = () => `Zq${Date.now().toString(36)}${(++seq).toString(36)}`.toLowerCase();
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

async function person(first: string, last = 'Test', more: Record<string, unknown> = {}) {
  const u = await makeUser(server, { firstName: first, lastName: last });
  if (Object.keys(more).length) {
    const res = await u.client.put('/api/profile/update', more);
    if (res.status !== 200) throw new Error(`profile update failed: ${res.text}`);
  }
  return u;
}
async function makePrivate(u: MadeUser) {
  const res = await u.client.put('/api/privacy-settings', { profileVisibility: 'private' });
  expect(res.status).toBe(200);
}
async function sendRequest(from: MadeUser, to: MadeUser): Promise<string> {
  const res = await from.client.post('/api/friends/request', { friendId: to.id });
  expect(res.status).toBeLessThan(300);
  return res.body.requestId as string;
}
async function insertPing(senderId: string, receiverId: string) {
  await server.database.db
    .insertInto('pings')
    .values({ ...pingRow(randomUUID(), senderId, receiverId), customText: 'hi' })
    .execute();
}
const search = async (u: MadeUser, q: string) => {
  const res = await u.client.get(`/api/users/search?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return res.body as UserSearchResult[];
};
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

const SUMMARY_KEYS = [
  'areFriends',
  'firstName',
  'friendsCount',
  'full',
  'id',
  'lastName',
  'pingsCount',
  'profileImageUrl',
  'relation',
  'requestId',
];

describe('GET /api/users/{id}/profile', () => {
  it('shows your own full profile', async () => {
    const a = await person('Self', 'Viewer', { bio: 'my bio', handle: token() });
    const res = await a.client.get(`/api/users/${a.id}/profile`);
    expect(res.status).toBe(200);
    expect(ProfileResponse.parse(res.body)).toBeTruthy();
    expect(res.body).toMatchObject({
      id: a.id,
      full: true,
      relation: 'self',
      areFriends: false,
      email: a.email,
      bio: 'my bio',
      isAdmin: false,
      friendsCount: 0,
      pingsCount: 0,
    });
  });

  it('gives a stranger only the summary: no e-mail, handle, bio, status, location or link', async () => {
    const a = await person('Ann', 'Secret', {
      handle: token(),
      bio: 'private bio',
      status: 'busy',
      location: 'London',
      personalLink: 'https://ann.test',
      tagline: 'hello',
    });
    const b = await person('Bob', 'Stranger');
    const res = await b.client.get(`/api/users/${a.id}/profile`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(SUMMARY_KEYS);
    expect(res.body).toMatchObject({
      id: a.id,
      firstName: 'Ann',
      lastName: 'Secret',
      full: false,
      areFriends: false,
      relation: 'none',
      requestId: null,
    });
    for (const leak of [a.email, 'private bio', 'busy', 'London', 'https://ann.test']) {
      expect(res.text).not.toContain(leak);
    }
  });

  it('shows a pending request and its id to both sides, still as a summary', async () => {
    const a = await person('Req', 'Sender');
    const b = await person('Req', 'Receiver', { bio: 'hidden' });
    const requestId = await sendRequest(a, b);
    const fromA = await a.client.get(`/api/users/${b.id}/profile`);
    expect(fromA.body).toMatchObject({ full: false, relation: 'request_sent', requestId });
    expect(fromA.body).not.toHaveProperty('bio');
    const fromB = await b.client.get(`/api/users/${a.id}/profile`);
    expect(fromB.body).toMatchObject({ full: false, relation: 'request_received', requestId });
  });

  it('shows the full profile only once they are friends', async () => {
    const handle = token();
    const a = await person('Full', 'Friend', { bio: 'for friends', handle });
    const b = await person('Other', 'Friend');
    const before = await b.client.get(`/api/users/${a.id}/profile`);
    expect(before.body.full).toBe(false);
    expect(before.body).not.toHaveProperty('email');
    await makeFriends(a, b);
    const after = await b.client.get(`/api/users/${a.id}/profile`);
    expect(after.status).toBe(200);
    expect(ProfileResponse.parse(after.body)).toBeTruthy();
    expect(after.body).toMatchObject({
      full: true,
      areFriends: true,
      relation: 'friends',
      email: a.email,
      bio: 'for friends',
      handle,
      friendsCount: 1,
    });
  });

  it('counts friends and pings sent plus received', async () => {
    const a = await person('Counted', 'Person');
    const f1 = await person('F', 'One');
    const f2 = await person('F', 'Two');
    await makeFriends(a, f1);
    await makeFriends(f2, a);
    await insertPing(a.id, f1.id);
    await insertPing(a.id, f2.id);
    await insertPing(f1.id, a.id);
    const res = await f2.client.get(`/api/users/${a.id}/profile`);
    expect(res.body).toMatchObject({ friendsCount: 2, pingsCount: 3 });
    const f1Profile = await f2.client.get(`/api/users/${f1.id}/profile`);
    // A stranger sees the counts too (spec section 6: name, avatar and counts).
    expect(f1Profile.body).toMatchObject({ full: false, friendsCount: 1, pingsCount: 2 });
  });

  it('gives the summary of a private profile to a non-friend and the full one to a friend', async () => {
    const a = await person('Priv', 'Ate', { bio: 'quiet' });
    const friend = await person('Priv', 'Friend');
    await makeFriends(a, friend);
    await makePrivate(a);
    const stranger = await person('Priv', 'Stranger');
    const s = await stranger.client.get(`/api/users/${a.id}/profile`);
    expect(Object.keys(s.body).sort()).toEqual(SUMMARY_KEYS);
    const f = await friend.client.get(`/api/users/${a.id}/profile`);
    expect(f.body).toMatchObject({ full: true, bio: 'quiet', profileVisibility: 'private' });
  });

  it("answers 404 'User not found' for an unknown id", async () => {
    const a = await person('Nf', 'Viewer');
    const res = await a.client.get(`/api/users/${randomUUID()}/profile`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'User not found', code: 'not_found' });
  });

  it.each(['not-a-uuid', '123', "1'%20OR%201=1"])(
    'answers 400 for the malformed id %j',
    async (id) => {
      const a = await person('Bad', 'Id');
      const res = await a.client.get(`/api/users/${id}/profile`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Must be a valid id');
    },
  );

  it('is 401 when signed out', async () => {
    const a = await person('Anon', 'Target');
    const res = await server.client().get(`/api/users/${a.id}/profile`);
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('GET /api/users/search', () => {
  it('finds public people by first name, last name, "first last" and handle, any case', async () => {
    const t = token();
    const me = await person('Seeker', 'One');
    const ada = await person(cap(t), 'Lovelace', { handle: `${t}_h` });
    const other = await person('Grace', `${cap(t)}son`);
    expect(ids(await search(me, t.toUpperCase())).sort()).toEqual([ada.id, other.id].sort());
    expect(ids(await search(me, `${t} love`))).toEqual([ada.id]);
    expect(ids(await search(me, `grace ${t}`))).toEqual([other.id]);
    expect(ids(await search(me, `@${t}_H`))).toEqual([ada.id]);
    const [row] = await search(me, `${t} lovelace`);
    expect(UserSearchResult.parse(row)).toBeTruthy();
    expect(row).toEqual({
      id: ada.id,
      firstName: cap(t),
      lastName: 'Lovelace',
      profileImageUrl: null,
      handle: `${t}_h`,
      tagline: null,
      relation: 'none',
      requestId: null,
    });
  });

  it('finds by e-mail only for the exact whole address', async () => {
    const t = token();
    const me = await person('Mail', 'Seeker');
    const target = await makeUser(server, {
      email: `${t}@mail.example.test`,
      firstName: 'Mailed',
      lastName: 'Person',
    });
    expect(ids(await search(me, `${t}@mail.example.test`))).toEqual([target.id]);
    expect(ids(await search(me, `${t.toUpperCase()}@MAIL.example.test`))).toEqual([target.id]);
    expect(await search(me, `${t}@mail`)).toEqual([]);
    expect(await search(me, 'mail.example.test')).toEqual([]);
    expect(await search(me, t)).toEqual([]);
  });

  it('never shows private profiles to non-friends, by name, handle or e-mail', async () => {
    const t = token();
    const me = await person('Looking', 'Around');
    const hidden = await person(cap(t), 'Hidden', { handle: `${t}_x` });
    await makePrivate(hidden);
    const shown = await person(cap(t), 'Shown');
    expect(ids(await search(me, t))).toEqual([shown.id]);
    expect(await search(me, `${t}_x`)).toEqual([]);
    expect(await search(me, hidden.email)).toEqual([]);
  });

  it('still finds a private person for their friends', async () => {
    const t = token();
    const hidden = await person(cap(t), 'Friendly');
    const friend = await person('Their', 'Friend');
    await makeFriends(friend, hidden);
    await makePrivate(hidden);
    const rows = await search(friend, t);
    expect(ids(rows)).toEqual([hidden.id]);
    expect(rows[0]).toMatchObject({ relation: 'friends', requestId: null });
  });

  it('never finds yourself', async () => {
    const t = token();
    const me = await person(cap(t), 'Myself', { handle: `${t}_me` });
    expect(await search(me, t)).toEqual([]);
    expect(await search(me, me.email)).toEqual([]);
  });

  it('reports the relation and the request id of each result', async () => {
    const t = token();
    const me = await person('Rel', 'Me');
    const sentTo = await person(cap(t), 'Sent');
    const receivedFrom = await person(cap(t), 'Received');
    const friend = await person(cap(t), 'Friend');
    const nobody = await person(cap(t), 'Nobody');
    const sentId = await sendRequest(me, sentTo);
    const receivedId = await sendRequest(receivedFrom, me);
    await makeFriends(me, friend);
    const byId = new Map((await search(me, t)).map((r) => [r.id, r]));
    expect(byId.size).toBe(4);
    expect(byId.get(sentTo.id)).toMatchObject({ relation: 'request_sent', requestId: sentId });
    expect(byId.get(receivedFrom.id)).toMatchObject({
      relation: 'request_received',
      requestId: receivedId,
    });
    expect(byId.get(friend.id)).toMatchObject({ relation: 'friends', requestId: null });
    expect(byId.get(nobody.id)).toMatchObject({ relation: 'none', requestId: null });
  });

  it('puts exact handle and name matches before partial ones', async () => {
    const t = token();
    const me = await person('Order', 'Me');
    const partial = await person(`A${t}z`, 'Partial');
    const prefix = await person(`${cap(t)}abc`, 'Prefix');
    const exactName = await person(cap(t), 'Exact');
    const exactHandle = await person('Zed', 'Handle', { handle: t });
    expect(ids(await search(me, t))).toEqual([exactHandle.id, exactName.id, prefix.id, partial.id]);
  });

  it('treats % and _ in the query as plain characters', async () => {
    const t = token();
    const me = await person('Wild', 'Card');
    const plain = await person(`${cap(t)}ab`, 'Plain');
    const literal = await person(`${cap(t)}%b`, 'Literal');
    expect(ids(await search(me, `${t}%b`))).toEqual([literal.id]);
    expect(ids(await search(me, `${t}_b`))).toEqual([]);
    expect(ids(await search(me, `${t}a`))).toEqual([plain.id]);
    expect(await search(me, '%%')).toEqual([]);
    expect(await search(me, '__')).toEqual([]);
  });

  it('answers at most 20 people', async () => {
    const t = token();
    const me = await person('Many', 'Seeker');
    for (let i = 0; i < 22; i++) await person(cap(t), `Crowd${i}`);
    expect(await search(me, t)).toHaveLength(20);
  });

  it.each([
    ['', 'Type at least 2 characters to search'],
    ['?q=a', 'Type at least 2 characters to search'],
    ['?q=%20%20a%20', 'Type at least 2 characters to search'],
    [`?q=${'x'.repeat(101)}`, 'Search text must be at most 100 characters'],
    ['?q=ab&q=cd', 'Type at least 2 characters to search'],
  ])('refuses the query %j with "%s"', async (qs, message) => {
    const me = await person('Bad', 'Query');
    const res = await me.client.get(`/api/users/search${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('is 401 when signed out', async () => {
    const res = await server.client().get('/api/users/search?q=anyone');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/users/suggestions', () => {
  it('suggests friends of friends by mutual count, then the newest public accounts', async () => {
    const me = await person('Sugg', 'Me');
    const f1 = await person('Sugg', 'FriendOne');
    const f2 = await person('Sugg', 'FriendTwo');
    await makeFriends(me, f1);
    await makeFriends(f2, me);
    const twoMutual = await person('Sugg', 'TwoMutual');
    const oneMutual = await person('Sugg', 'OneMutual');
    const privateFof = await person('Sugg', 'PrivateFof');
    const pendingFof = await person('Sugg', 'PendingFof');
    await makeFriends(f1, twoMutual);
    await makeFriends(twoMutual, f2);
    await makeFriends(f1, oneMutual);
    await makeFriends(f1, privateFof);
    await makePrivate(privateFof);
    await makeFriends(f2, pendingFof);
    await sendRequest(pendingFof, me);
    const lonelyPrivate = await person('Sugg', 'LonelyPrivate');
    await makePrivate(lonelyPrivate);
    // Plenty of newer strangers, so the list fills up to 10.
    const strangers: MadeUser[] = [];
    for (let i = 0; i < 10; i++) strangers.push(await person('Sugg', `Stranger${i}`));

    const res = await me.client.get('/api/users/suggestions');
    expect(res.status).toBe(200);
    const rows = res.body as SuggestionResult[];
    for (const r of rows) expect(SuggestionResult.parse(r)).toBeTruthy();
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ id: twoMutual.id, mutualFriends: 2, relation: 'none' });
    expect(rows[1]).toMatchObject({ id: oneMutual.id, mutualFriends: 1 });
    // Then the newest accounts first.
    expect(ids(rows.slice(2))).toEqual(
      strangers
        .slice(-8)
        .reverse()
        .map((s) => s.id),
    );
    expect(rows.slice(2).every((r) => r.mutualFriends === 0)).toBe(true);
    const shown = ids(rows);
    for (const excluded of [me, f1, f2, privateFof, pendingFof, lonelyPrivate]) {
      expect(shown).not.toContain(excluded.id);
    }
    expect(JSON.stringify(rows)).not.toContain('@');
  });

  it('leaves out someone you have a pending request with', async () => {
    const me = await person('Sugg2', 'Me');
    const newest = await person('Sugg2', 'Newest');
    const first = await me.client.get('/api/users/suggestions');
    expect(first.body[0].id).toBe(newest.id);
    await sendRequest(me, newest);
    const after = await me.client.get('/api/users/suggestions');
    expect(ids(after.body)).not.toContain(newest.id);
  });

  it('is 401 when signed out', async () => {
    const res = await server.client().get('/api/users/suggestions');
    expect(res.status).toBe(401);
  });
});
