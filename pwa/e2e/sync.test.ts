/**
 * The sync engine in a real Chromium against the real server: the pull fills Dexie, the outbox
 * drains through /api/sync/batch (exactly once, in few batches on a slow link, rolled back when
 * refused), /ws brings pings live. The network is cut and slowed by a proxy between the browser
 * and the server (Playwright's setOffline does not reach everything the page does).
 */
import { uuidv7 } from '@pingme/shared';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PingsPage } from './pages/pings-page';
import {
  artifact,
  baseUrl,
  dexieRows,
  newPage,
  serviceWorkerRegistrationId,
} from './support/browser';
import {
  befriend,
  call,
  person,
  removeFriendshipInDb,
  signInPage,
  type Person,
} from './support/people';
import { startProxy, type LoopbackProxy } from './support/proxy';

const HUG_ID = '00000000-0000-7000-8000-000000000001';
const HUG = 'Ping me when you need a hug';

let proxy: LoopbackProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** A page signed in as `who`, on Home, once the first pull brought `friends` friends. */
async function home(who: Person, friends: number, baseURL?: string): Promise<PingsPage> {
  const page = await newPage(baseURL ? { baseURL } : {});
  await signInPage(page, who);
  await page.goto('/');
  const pings = new PingsPage(page);
  await pings.tile(new RegExp(`${HUG}.*${friends} friends?$`)).waitFor();
  return pings;
}

const recentOf = (who: Person) =>
  call<{ id: string; senderId: string }[]>(who, 'GET', '/api/pings/recent').then((r) => r.body);
const syncStatus = (page: Page) => page.getByTestId('sync-status');

describe('sync engine', () => {
  it('pulls the signed-in person’s friends, prompts and pings into Dexie', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const sent = await call<{ id: string }>(bo, 'POST', '/api/pings', {
      promptId: HUG_ID,
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

  it('(a) a ping sent offline shows at once as pending and reaches the friend once when the network returns', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startProxy(inject('serverPort'));
    const sender = await home(ada, 1, proxy.url);

    await proxy.cut();
    await sender.sendPrompt(new RegExp(HUG), ['Bo Tester']);
    const card = sender.card('Ping to Bo');
    await card.getByTestId('ping-pending').filter({ hasText: 'Waiting to send' }).waitFor();
    await syncStatus(sender.page).filter({ hasText: '1 waiting to send' }).waitFor();
    // A few failed attempts while the cable is out; the details say what waits and why.
    await sender.page.waitForTimeout(2500);
    await syncStatus(sender.page).getByRole('button').click();
    await sender.page
      .getByTestId('sync-waiting')
      .filter({ hasText: '1 change is waiting' })
      .waitFor();
    await card.scrollIntoViewIfNeeded();
    await sender.page.screenshot({ path: artifact('sync-offline-pending.png') });
    await sender.page.keyboard.press('Escape');
    expect(await recentOf(bo)).toEqual([]);

    await proxy.restore();
    // No 'online' event here: the retry backoff, the socket's reconnect or the 15 s
    // reachability probe brings it back, so allow two probes.
    await card.getByTestId('ping-pending').waitFor({ state: 'detached', timeout: 40_000 });
    await syncStatus(sender.page).filter({ hasNotText: 'waiting to send' }).waitFor();
    const received = await recentOf(bo);
    expect(received).toHaveLength(1);
    expect(received[0]!.senderId).toBe(ada.id);
    // The card now is the server's row (same id), still shown once.
    expect(await sender.recentActivity.getByRole('article').count()).toBe(1);
    expect(await card.getAttribute('data-ping-id')).toBe(received[0]!.id);
  });

  it('(b) a ping from a friend appears within seconds over /ws, with the banner, without a reload', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const [sender, receiver] = await Promise.all([home(ada, 1), home(bo, 1)]);
    await receiver.page.evaluate(() => ((window as unknown as { stay: number }).stay = 1));

    await sender.sendPrompt(new RegExp(HUG), ['Bo Tester']);
    // Well inside the 60 s slow pull, so it came over /ws (no wall-clock assertion: a loaded
    // machine may take a few seconds more).
    await receiver.banner.filter({ hasText: 'New Ping from Ada!' }).waitFor({ timeout: 20_000 });
    await receiver.banner.filter({ hasText: 'Ping you when I need a hug' }).waitFor();
    await receiver.card('Ping from Ada').waitFor({ timeout: 20_000 });
    expect(await receiver.page.evaluate(() => (window as unknown as { stay?: number }).stay)).toBe(
      1,
    );
    // The banner hides after 4 s.
    await receiver.banner.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('(c) a refused write is rolled back with the spec’s error toast', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const sender = await home(ada, 1);
    await removeFriendshipInDb(ada.email, bo.email);

    await sender.sendPrompt(new RegExp(HUG), ['Bo Tester']);
    await sender.toast.filter({ hasText: 'Error' }).waitFor();
    await sender.toast.filter({ hasText: 'Failed to send pings. Please try again.' }).waitFor();
    await sender.recentActivity.getByText('No pings yet').waitFor();
    expect(await dexieRows(sender.page, 'pings')).toEqual([]);
    expect(await dexieRows(sender.page, 'outbox')).toEqual([]);
    expect(await recentOf(bo)).toEqual([]);
  });

  it('(d) on a slow link, 150 queued writes drain in a few batches and arrive once each', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const limit = await call(bo, 'PUT', '/api/profile/update', { rateLimitPerDay: 1000 });
    expect(limit.status).toBe(200);
    proxy = await startProxy(inject('serverPort'));
    const sender = await home(ada, 1, proxy.url);
    proxy.setDelay(200, 400);

    // 150 writes land in the outbox in one transaction, as 150 quick taps offline would.
    const entries = Array.from({ length: 150 }, () => {
      const id = uuidv7();
      return {
        id,
        name: 'ping.send',
        args: { id: uuidv7(), promptId: HUG_ID, receiverId: bo.id },
        idempotencyKey: id,
        createdAt: new Date().toISOString(),
        attempts: 0,
        status: 'pending',
        effects: [],
      };
    });
    const before = proxy.count('POST', '/api/sync/batch');
    await addOutboxRows(sender.page, entries);
    await sender.page.evaluate(() => window.dispatchEvent(new Event('online')));

    await expect
      .poll(async () => (await dexieRows(sender.page, 'outbox')).length, { timeout: 30_000 })
      .toBe(0);
    const batches = proxy.count('POST', '/api/sync/batch') - before;
    // 150 entries, at most 100 per batch: 2 requests instead of 150 round trips.
    expect(batches).toBe(2);
    const total = await call<{ count: number }>(bo, 'GET', '/api/pings/total-count');
    expect(total.body.count).toBe(150);
    await syncStatus(sender.page).filter({ hasNotText: 'waiting to send' }).waitFor();
  });

  it('(e) Background Sync drains the outbox from the service worker when no tab is open', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const sender = await home(ada, 1);
    await sender.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const pingId = uuidv7();
    const key = uuidv7();
    await addOutboxRows(sender.page, [
      {
        id: key,
        name: 'ping.send',
        args: { id: pingId, promptId: HUG_ID, receiverId: bo.id },
        idempotencyKey: key,
        createdAt: new Date().toISOString(),
        attempts: 0,
        status: 'pending',
        effects: [],
      },
    ]);

    // Another page of the same profile, not one of the app's windows, fires the sync event.
    const context = sender.page.context();
    const other = await context.newPage();
    const cdp = await context.newCDPSession(other);
    const registrationId = await serviceWorkerRegistrationId(cdp);
    // Nothing asked the open tab to flush: the entry still waits.
    await sender.page.waitForTimeout(1000);
    expect(await recentOf(bo)).toEqual([]);
    await sender.page.close();
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: baseUrl,
      registrationId,
      tag: 'outbox',
      lastChance: false,
    });

    await expect
      .poll(async () => (await recentOf(bo)).map((p) => p.id), { timeout: 10_000 })
      .toEqual([pingId]);
    const again = await context.newPage();
    await again.goto('/');
    expect(await dexieRows(again, 'outbox')).toEqual([]);
  });
});

/** Puts rows into the app's outbox in one transaction, as the app's own writes would be. */
async function addOutboxRows(page: Page, rows: unknown[]): Promise<void> {
  await page.evaluate(
    (entries) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('pingme');
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          for (const row of entries) tx.objectStore('outbox').add(row);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
    rows,
  );
}
