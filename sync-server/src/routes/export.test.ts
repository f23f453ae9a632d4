import { DataExport } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

async function promptPing(from: MadeUser, to: MadeUser): Promise<string> {
  const prompts = await from.client.get('/api/prompts/default');
  const res = await from.client.post('/api/pings', {
    promptId: prompts.body[0].id,
    receiverId: to.id,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('GET /api/export', () => {
  it('downloads everything the caller owns or received, and nothing of a stranger’s', async () => {
    const a = await makeUser(server, { firstName: 'Ann' });
    const b = await makeUser(server, { firstName: 'Bob' });
    const c = await makeUser(server, { firstName: 'Cy' });
    const d = await makeUser(server, { firstName: 'Dee' });
    const e = await makeUser(server, { firstName: 'Eve' });
    await makeFriends(a, b);
    await makeFriends(c, d);
    expect((await e.client.post('/api/friends/request', { friendId: a.id })).status).toBe(201);

    const sent = await promptPing(a, b);
    const received = await promptPing(b, a);
    expect(
      (await a.client.post(`/api/pings/${received}/reactions`, { reactionType: 'wow' })).status,
    ).toBe(201);
    const custom = await a.client.post('/api/prompts', { text: 'Ping me when you are free' });
    expect(custom.status).toBe(201);
    expect(
      (await a.client.post('/api/prompts/assign', { promptId: custom.body.id, friendId: b.id }))
        .status,
    ).toBe(200);
    const shared = await a.client.post('/api/moods', { friendId: b.id, mood: 'cozy', emoji: '🧸' });
    const got = await b.client.post('/api/moods', { friendId: a.id, mood: 'happy', emoji: '😊' });
    expect([shared.status, got.status]).toEqual([201, 201]);
    const anchor = await a.client.post('/api/profile/anchors', {
      friendId: b.id,
      text: 'Ping me when you land',
    });
    expect(anchor.status).toBe(201);
    expect(
      (await a.client.patch(`/api/pings/${received}/bookmark`, { title: 'Sweet' })).status,
    ).toBe(200);
    expect(
      (
        await a.client.put('/api/profile/update', {
          quietHoursStart: '22:00',
          quietHoursEnd: '07:00',
        })
      ).status,
    ).toBe(200);
    // The stranger's own activity.
    await promptPing(c, d);
    await promptPing(d, c);

    const res = await a.client.get('/api/export');
    expect(res.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="pingme-export-${day}.json"`,
    );
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const data = DataExport.parse(res.body);

    expect(data.exportVersion).toBe(1);
    expect(data.user).toMatchObject({ id: a.id, email: a.email, firstName: 'Ann' });
    expect(data.settings).toMatchObject({ quietHoursStart: '22:00', quietHoursEnd: '07:00' });
    expect(data.friends.map((f) => f.id)).toEqual([b.id]);
    expect(data.friendRequests.received.map((r) => r.otherUserId)).toEqual([e.id]);
    expect(data.friendRequests.sent).toEqual([]);
    expect(data.pings.sent.map((p) => p.id)).toEqual([sent]);
    expect(data.pings.received.map((p) => p.id)).toEqual([received]);
    expect(data.reactions).toMatchObject([{ pingId: received, userId: a.id, reactionType: 'wow' }]);
    const mine = data.prompts.find((p) => p.id === custom.body.id);
    expect(mine?.assignments.map((x) => x.friendId)).toEqual([b.id]);
    expect(data.prompts.some((p) => p.isDefault)).toBe(true);
    expect(data.moods.shared.map((m) => m.id)).toEqual([shared.body.id]);
    expect(data.moods.received.map((m) => m.id)).toEqual([got.body.id]);
    expect(data.anchors.map((x) => x.id)).toEqual([anchor.body.id]);
    expect(data.moments).toMatchObject([{ pingId: received, title: 'Sweet' }]);

    // No trace of the stranger: not their id, not their e-mail, nothing they exchanged.
    expect(res.text).not.toContain(c.id);
    expect(res.text).not.toContain(d.id);
    expect(res.text).not.toContain(c.email);
  });

  it('needs a session', async () => {
    const res = await server.client().get('/api/export');
    expect(res.status).toBe(401);
  });
});
