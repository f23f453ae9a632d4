/**
 * A device that comes back after a long time away (docs/sync.md, "8. Guarantees", "Statements"):
 * its session has expired, the change log no longer reaches back to its cursor, and its outbox
 * still holds writes, one of which the server had already applied before the device went away
 * (the answer was lost). The server keeps idempotency records for as long as the account
 * exists (nothing prunes them), so that write replays instead of applying twice.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeFriends,
  makeUser,
  pullAll,
  startTestServer,
  type TestServer,
} from '../../test/harness';
import { startServer, type RunningServer } from '../server';
import { logBounds } from '../sync/pull';

let server: TestServer;
let restarted: RunningServer | undefined;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  if (!restarted) return server.stop();
  await restarted.close();
  rmSync(server.dir, { recursive: true, force: true });
});

const DAY_MS = 24 * 3600_000;
const HUG = '00000000-0000-7000-8000-000000000001';

describe('a device back after months away', () => {
  it('signs in again, gets a snapshot, and its waiting writes apply once each', async () => {
    const [ada, bo, cy] = [await makeUser(server), await makeUser(server), await makeUser(server)];
    await makeFriends(ada, bo);
    await makeFriends(ada, cy);
    const before = await pullAll(ada.client);
    expect(before.pages[0]!.reset).toBe(true);

    // The last thing the device did before going away: a ping the server applied, whose answer
    // never arrived; a second write stays in its outbox unsent.
    const delivered = { idempotencyKey: randomUUID(), method: 'POST', path: '/api/pings' };
    const deliveredBody = { id: randomUUID(), promptId: HUG, receiverId: bo.id };
    const first = await ada.client.post('/api/sync/batch', {
      entries: [{ ...delivered, body: deliveredBody }],
    });
    expect(first.status).toBe(200);
    expect(first.body.results[0].status).toBe(201);
    const unsent = {
      idempotencyKey: randomUUID(),
      method: 'POST',
      path: '/api/pings',
      body: { id: randomUUID(), promptId: HUG, receiverId: bo.id },
    };

    // While away: Cy blocks Ada (the friendship ends), and a hundred days pass. Every row of
    // that time is aged, Ada's session has long expired, and the server restarts: its start
    // runs the same maintenance as every 6 hours (the change log is pruned).
    expect((await cy.client.post('/api/blocks', { userId: ada.id })).status).toBe(201);
    let { db } = server.database;
    const longAgo = new Date(Date.now() - 100 * DAY_MS).toISOString();
    await db.updateTable('changes').set({ createdAt: longAgo }).execute();
    await db.updateTable('idempotencyKeys').set({ createdAt: longAgo }).execute();
    // On PostgreSQL, nodes record when housekeeping last ran (it runs once across nodes): that
    // was a hundred days ago too.
    await db
      .updateTable('serverSettings')
      .set({ value: String(Date.now() - 100 * DAY_MS) })
      .where('name', '=', 'housekeeping_ran_at')
      .execute();
    await db
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - DAY_MS })
      .where('userId', '=', ada.id)
      .execute();
    await server.close();
    restarted = await startServer({ ...server.config, port: server.port });
    db = restarted.database.db;
    // Connections kept alive to the stopped process are dead: let the first request find out.
    await answersAgain(server);
    const bounds = await logBounds(db, ada.id);
    expect(before.cursor).toBeLessThan(bounds.floor);

    // Back: the session is gone, so the outbox stops at a 401 and nothing is applied.
    const refused = await ada.client.post('/api/sync/batch', {
      entries: [{ ...delivered, body: deliveredBody }, unsent],
    });
    expect(refused.status).toBe(401);
    const signIn = await ada.client.post('/api/login', {
      email: ada.email,
      password: ada.password,
    });
    expect(signIn.status).toBe(200);

    // Signed in again: the same batch. The write applied months ago answers what it answered
    // then (its record outlived the change log); the unsent one applies now.
    const again = await ada.client.post('/api/sync/batch', {
      entries: [{ ...delivered, body: deliveredBody }, unsent],
    });
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual([
      { idempotencyKey: delivered.idempotencyKey, status: 201, body: first.body.results[0].body },
      expect.objectContaining({ idempotencyKey: unsent.idempotencyKey, status: 201 }),
    ]);
    const received = await bo.client.get('/api/pings/recent');
    expect(received.body.map((p: { id: string }) => p.id).sort()).toEqual(
      [deliveredBody.id, unsent.body.id].sort(),
    );

    // Her old cursor is below the floor: a snapshot, which no longer shows Cy.
    const back = await pullAll(ada.client, before.cursor);
    expect(back.pages[0]!.reset).toBe(true);
    const users = back.changes.filter((c) => c.entity === 'user').map((c) => c.id);
    expect(users.sort()).toEqual([ada.id, bo.id].sort());
    const pings = back.changes.filter((c) => c.entity === 'ping').map((c) => c.id);
    expect(pings.sort()).toEqual([deliveredBody.id, unsent.body.id].sort());
  });
});

async function answersAgain(s: TestServer): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await s.client().get('/api/health');
      return;
    } catch (err) {
      if (attempt > 20) throw err;
    }
  }
}
