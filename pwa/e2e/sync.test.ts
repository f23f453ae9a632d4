/**
 * The sync engine in a real Chromium against the real server: the pull fills Dexie, the outbox
 * drains through /api/sync/batch, /ws brings pings live.
 */
import { describe, expect, it } from 'vitest';
import { newPage } from './support/browser';
import { befriend, call, person, signInPage } from './support/people';
import { dexieRows } from './support/sync-support';

describe('sync engine', () => {
  it('pulls the signed-in person’s friends, prompts and pings into Dexie', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const sent = await call<{ id: string }>(bo, 'POST', '/api/pings', {
      promptId: '00000000-0000-7000-8000-000000000001',
      receiverId: ada.id,
    });
    expect(sent.status).toBe(201);

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/');
    await expect
      .poll(async () => (await dexieRows<{ id: string }>(page, 'users')).map((u) => u.id).sort())
      .toEqual([ada.id, bo.id].sort());
    await expect.poll(async () => (await dexieRows(page, 'pings')).length).toBe(1);
    expect((await dexieRows(page, 'prompts')).length).toBeGreaterThanOrEqual(4);
    const cursor = (await dexieRows<{ key: string; value: unknown }>(page, 'meta')).find(
      (m) => m.key === 'cursor',
    );
    expect(typeof cursor?.value).toBe('number');
  });
});
