import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFriends, makeUser, startTestServer, type TestServer } from '../../test/harness';
import { updateUser } from '../db/users';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const db = () => server.database.db;
const INVALID = 'This invitation is no longer valid or has expired.';

async function rowsBetween(a: string, b: string) {
  return db()
    .selectFrom('friendships')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('requesterId', '=', a), eb('addresseeId', '=', b)]),
        eb.and([eb('requesterId', '=', b), eb('addresseeId', '=', a)]),
      ]),
    )
    .execute();
}

describe('GET /api/invites/{code}', () => {
  it("answers the inviter's name and avatar for a valid code", async () => {
    const owner = await makeUser(server, { firstName: 'Olga', lastName: 'Owner' });
    const guest = await makeUser(server);
    const res = await guest.client.get(`/api/invites/${owner.user.inviteCode}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      user: { id: owner.id, firstName: 'Olga', lastName: 'Owner', profileImageUrl: null },
      alreadyFriends: false,
      isOwnInvite: false,
    });
  });

  it('says so when they are already friends, and when the code is your own', async () => {
    const a = await makeUser(server);
    const b = await makeUser(server);
    await makeFriends(a, b);
    const res = await b.client.get(`/api/invites/${a.user.inviteCode}`);
    expect(res.body).toMatchObject({ valid: true, alreadyFriends: true, isOwnInvite: false });
    const own = await a.client.get(`/api/invites/${a.user.inviteCode}`);
    expect(own.body).toMatchObject({
      valid: true,
      user: { id: a.id },
      alreadyFriends: false,
      isOwnInvite: true,
    });
  });

  it('an unknown code is 200 with valid:false and the screen message', async () => {
    const a = await makeUser(server);
    const res = await a.client.get('/api/invites/no-such-code');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, user: null, message: INVALID });
  });

  it('a code longer than any real one is 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.get(`/api/invites/${'x'.repeat(65)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('This invite link is missing or invalid.');
  });

  it('needs a session (401)', async () => {
    const owner = await makeUser(server);
    const res = await server.client().get(`/api/invites/${owner.user.inviteCode}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
  });
});

describe('POST /api/invites/{code}/use', () => {
  it('makes the two friends at once, records the change for both, and is idempotent', async () => {
    const owner = await makeUser(server, { firstName: 'Ines' });
    const guest = await makeUser(server);
    const res = await guest.client.post(`/api/invites/${owner.user.inviteCode}/use`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      alreadyFriends: false,
      friend: { id: owner.id, firstName: 'Ines', lastName: 'Test', profileImageUrl: null },
    });
    const rows = await rowsBetween(owner.id, guest.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requesterId: owner.id,
      addresseeId: guest.id,
      status: 'accepted',
    });
    expect(rows[0]!.acceptedAt).not.toBeNull();
    const changes = await db()
      .selectFrom('changes')
      .select(['userId', 'op'])
      .where('entity', '=', 'friendship')
      .where('entityId', '=', rows[0]!.id)
      .execute();
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        { userId: owner.id, op: 'upsert' },
        { userId: guest.id, op: 'upsert' },
      ]),
    );
    expect((await owner.client.get(`/api/friends/${guest.id}`)).status).toBe(200);
    expect((await guest.client.get(`/api/friends/${owner.id}`)).status).toBe(200);

    // Using it again changes nothing and says they already are friends.
    const again = await guest.client.post(`/api/invites/${owner.user.inviteCode}/use`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, alreadyFriends: true });
    expect(await rowsBetween(owner.id, guest.id)).toHaveLength(1);
  });

  it('a private profile: not requestable by id, joinable by its invite code', async () => {
    const priv = await makeUser(server, { firstName: 'Priya' });
    await updateUser(db(), priv.id, { profileVisibility: 'private' });
    const guest = await makeUser(server);

    const byId = await guest.client.post('/api/friends/request', { friendId: priv.id });
    expect(byId.status).toBe(404);
    expect(byId.body.error).toBe('User not found');

    const check = await guest.client.get(`/api/invites/${priv.user.inviteCode}`);
    expect(check.body).toMatchObject({ valid: true, user: { id: priv.id, firstName: 'Priya' } });
    const use = await guest.client.post(`/api/invites/${priv.user.inviteCode}/use`);
    expect(use.status).toBe(200);
    expect(use.body).toMatchObject({ alreadyFriends: false, friend: { id: priv.id } });
    const friends = await guest.client.get('/api/friends');
    expect(friends.body.map((f: { id: string }) => f.id)).toEqual([priv.id]);
    expect(friends.body[0].profileVisibility).toBe('private');
  });

  it.each(['guest asked the owner', 'owner asked the guest'])(
    'accepts a pending request when %s (one row, same id)',
    async (direction) => {
      const owner = await makeUser(server);
      const guest = await makeUser(server);
      const [from, to] = direction.startsWith('guest') ? [guest, owner] : [owner, guest];
      const req = await from.client.post('/api/friends/request', { friendId: to.id });
      expect(req.status).toBe(201);
      const use = await guest.client.post(`/api/invites/${owner.user.inviteCode}/use`);
      expect(use.status).toBe(200);
      expect(use.body.alreadyFriends).toBe(false);
      const rows = await rowsBetween(owner.id, guest.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: req.body.requestId, status: 'accepted' });
      expect((await owner.client.get('/api/friends/pending')).body).toEqual({
        sent: [],
        received: [],
      });
    },
  );

  it('your own code is 400', async () => {
    const a = await makeUser(server);
    const res = await a.client.post(`/api/invites/${a.user.inviteCode}/use`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('This is your own invite link');
    expect(await rowsBetween(a.id, a.id)).toHaveLength(0);
  });

  it('an unknown code is 404 with the screen message', async () => {
    const a = await makeUser(server);
    const res = await a.client.post('/api/invites/unknown-code/use');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: INVALID, code: 'not_found' });
  });

  it('takes no body fields: an empty object is fine, anything else is 400', async () => {
    const owner = await makeUser(server);
    const guest = await makeUser(server);
    const path = `/api/invites/${owner.user.inviteCode}/use`;
    const bad = await guest.client.post(path, { friendId: owner.id });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown field: friendId');
    expect(await rowsBetween(owner.id, guest.id)).toHaveLength(0);
    const none = await guest.client.request('POST', path);
    expect(none.status).toBe(200);
    expect(none.body.alreadyFriends).toBe(false);
    expect((await guest.client.post(path, {})).body.alreadyFriends).toBe(true);
  });

  it('replays an Idempotency-Key with the first answer', async () => {
    const owner = await makeUser(server);
    const guest = await makeUser(server);
    const headers = { 'Idempotency-Key': randomUUID() };
    const path = `/api/invites/${owner.user.inviteCode}/use`;
    const first = await guest.client.post(path, undefined, { headers });
    const second = await guest.client.post(path, undefined, { headers });
    expect(first.body.alreadyFriends).toBe(false);
    // Without the key this would say alreadyFriends: true; the replay answers the first reply.
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('needs a session (401) and creates nothing', async () => {
    const owner = await makeUser(server);
    const res = await server.client().post(`/api/invites/${owner.user.inviteCode}/use`);
    expect(res.status).toBe(401);
    expect(res.body.error).toContain('Unauthorized');
    const rows = await db()
      .selectFrom('friendships')
      .selectAll()
      .where((eb) => eb.or([eb('requesterId', '=', owner.id), eb('addresseeId', '=', owner.id)]))
      .execute();
    expect(rows).toHaveLength(0);
  });
});
