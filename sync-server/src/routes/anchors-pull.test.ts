/**
 * Asking back for an anchor accepts the friend's request instead of creating the one asked for
 * (auto-accept). The asker's device already shows its request under the id it proposed; the
 * pull must tell it that id is gone, or its optimistic row stays pending for ever (found by
 * pwa/src/sync/convergence.fault.test.ts).
 */
import { uuidv7, type PullResponse } from '@pingme/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type MadeUser,
  type TestServer,
} from '../../test/harness';

let server: TestServer;
let ann: MadeUser;
let ben: MadeUser;

beforeAll(async () => {
  server = await startTestServer();
  ann = await makeUser(server, { firstName: 'Ann' });
  ben = await makeUser(server, { firstName: 'Ben' });
  await makeFriends(ann, ben);
});
afterAll(() => server.stop());

const anchorBody = (id: string, friendId: string) => ({
  id,
  friendId,
  text: 'Call me when you land',
  emoji: '⚓',
  color: '#e35120',
});

describe('POST /api/profile/anchors: asking back', () => {
  it('accepts the friend’s request and sends the asker a tombstone for the id it proposed', async () => {
    const theirs = uuidv7();
    const asked = await ann.client.post('/api/profile/anchors', anchorBody(theirs, ben.id));
    expect(asked.status).toBe(201);
    const before = await pullAll(ben.client);
    const annBefore = await pullAll(ann.client);

    const proposed = uuidv7();
    const back = await ben.client.post('/api/profile/anchors', anchorBody(proposed, ann.id), {
      headers: { 'Idempotency-Key': uuidv7() },
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id: theirs, status: 'accepted', autoAccepted: true });

    const after = await ben.client.get<PullResponse>(`/api/sync/pull?since=${before.cursor}`);
    expect(after.status).toBe(200);
    const anchors = after.body.changes.filter((c) => c.entity === 'anchor');
    expect(anchors).toContainEqual(
      expect.objectContaining({
        id: theirs,
        op: 'upsert',
        data: expect.objectContaining({ status: 'accepted' }),
      }),
    );
    expect(anchors).toContainEqual({ entity: 'anchor', id: proposed, op: 'delete', data: null });
    // Ann never heard of that id: only the asker's log names it.
    const annAfter = await ann.client.get<PullResponse>(`/api/sync/pull?since=${annBefore.cursor}`);
    expect(annAfter.body.changes.map((c) => c.id)).not.toContain(proposed);
    // A fresh snapshot of either has the accepted anchor only.
    for (const who of [ann, ben]) {
      const snap = await pullAll(who.client);
      const ids = snap.changes.filter((c) => c.entity === 'anchor').map((c) => c.id);
      expect(ids).toEqual([theirs]);
    }
  });
});
