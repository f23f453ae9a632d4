/**
 * The guarantees of docs/sync.md §8 that only a real browser can break, each one
 * broken on purpose around the app: several tabs of one device (and, as a control, the same
 * without the Web Lock), a tab closed or killed (CDP Page.crash) between its Dexie write and its
 * send, a send whose answer is lost or never comes, a refused write in the middle of the queue,
 * a waiting write through pulls and a snapshot, /ws frames that never arrive, a push delivered
 * twice, a device offline for longer than the server keeps its change log, and someone else
 * signing in where a session expired. docs/sync.md section 8 names each test next to the
 * guarantee it proves.
 *
 * Between the browser and the server sits a proxy (support/guarantees-proxy.ts) that can pull
 * the cable, slow a batch, drop or hold its answer or answer 503 itself, mute /ws, and records
 * every POST /api/sync/batch (its entries' keys, the server's results, how many were in flight at
 * once) and every pull (whether it answered a snapshot).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { pruneChangeLog } from '../../sync-server/src/sync/pull';
import { startTestServer, type TestServer } from '../../sync-server/test/harness';
import { AuthPage } from './pages/auth-page';
import { PingsPage } from './pages/pings-page';
import {
  artifact,
  baseUrl,
  deliverPush,
  dexieRows,
  newPage,
  serviceWorkerRegistrationId,
  shownNotifications,
} from './support/browser';
import {
  befriend,
  call,
  eventually,
  person,
  removeFriendshipInDb,
  sendPingByApi,
  signInPage,
  type Person,
} from './support/people';
import { startGuaranteeProxy, type GuaranteeProxy } from './support/guarantees-proxy';

const HUG = 'Ping me when you need a hug';
const DAY_MS = 24 * 3600_000;

let proxy: GuaranteeProxy | undefined;
let ownServer: TestServer | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await ownServer?.stop();
  ownServer = undefined;
});

interface OutboxEntry {
  seq: number;
  idempotencyKey: string;
  /** A named mutation and its arguments (sync/local-write.ts). */
  name: string;
  args: { id?: string };
}
interface PingRow {
  id: string;
  pending?: boolean;
}

/** A page of `context` (a new one when absent) signed in as `who`, on Home with `friends` friends. */
async function home(
  who: Person,
  friends: number,
  baseURL: string,
  context?: BrowserContext,
): Promise<PingsPage> {
  let page: Page;
  if (context) {
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  } else {
    page = await newPage({ baseURL });
    await signInPage(page, who);
  }
  await page.goto('/');
  const pings = new PingsPage(page);
  await pings.tile(new RegExp(`${HUG}.*${friends} friends?$`)).waitFor();
  return pings;
}

/** The service worker is active and controls the page, so a new tab opens with the cable out. */
async function serviceWorkerControls(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/**
 * No Background Sync is due: every 'outbox' sync the page registered has fired (and, with this
 * controlled tab open, the service worker answered it by asking the tab), so none can fire
 * later with no tab open and have the worker send on its own.
 */
async function backgroundSyncSettled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync?: { getTags(): Promise<string[]> };
        };
        return registration.sync ? registration.sync.getTags() : [];
      }),
    )
    .toEqual([]);
}

const waiting = (page: Page, n: number) =>
  page.getByTestId('sync-status').filter({ hasText: `${n} waiting to send` });
const nothingWaiting = (page: Page) =>
  page.getByTestId('sync-status').filter({ hasNotText: 'waiting to send' });

async function outbox(page: Page): Promise<OutboxEntry[]> {
  return (await dexieRows<OutboxEntry>(page, 'outbox')).sort((a, b) => a.seq - b.seq);
}

/** The pings `who` received, as the server has them (ids, newest first). */
async function receivedIds(who: Person, base = baseUrl): Promise<string[]> {
  const res = await call<{ id: string }[]>(who, 'GET', '/api/pings/recent', undefined, base);
  return res.body.map((p) => p.id);
}

/** Pulls as `who` from `since` (none: a snapshot) to the end; answers the changes and cursor. */
async function pullAs(who: Person, since?: number, base = baseUrl) {
  const changes: { entity: string; id: string; op: string }[] = [];
  let snapshot: string | null = null;
  let cursor = since;
  for (;;) {
    const q = new URLSearchParams();
    if (snapshot) q.set('snapshot', snapshot);
    else if (cursor !== undefined) q.set('since', String(cursor));
    const res = await call<{
      cursor: number;
      hasMore: boolean;
      snapshot: string | null;
      changes: { entity: string; id: string; op: string }[];
    }>(who, 'GET', `/api/sync/pull?${q}`, undefined, base);
    expect(res.status).toBe(200);
    changes.push(...res.body.changes);
    cursor = res.body.cursor;
    snapshot = res.body.snapshot;
    if (!res.body.hasMore) return { changes, cursor };
  }
}

/** Kills the tab's renderer as a crash would: no unload, no pagehide, nothing flushed. */
async function crash(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  void cdp.send('Page.crash').catch(() => {});
  await crashed;
  await page.close().catch(() => {});
}

/** Sends the HUG prompt to `friend` from the page and answers the new outbox entry. */
async function sendHug(tab: PingsPage, friend: string): Promise<OutboxEntry> {
  const before = new Set((await outbox(tab.page)).map((e) => e.idempotencyKey));
  await tab.sendPrompt(new RegExp(HUG), [friend]);
  const added = (await outbox(tab.page)).filter((e) => !before.has(e.idempotencyKey));
  expect(added).toHaveLength(1);
  return added[0]!;
}

/** The network came back: what the browser fires when the cable is plugged in again. */
async function networkBack(...pages: Page[]): Promise<void> {
  await Promise.all(pages.map((p) => p.evaluate(() => window.dispatchEvent(new Event('online')))));
}

/** Keys of every batch the proxy saw, in the order sent. */
const keysSent = (p: GuaranteeProxy) => p.batches.flatMap((b) => b.keys);

describe('guarantee 9: one drainer per device across tabs', () => {
  it('two tabs write offline; both count every waiting write; one drainer sends each once, in the order made', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const { cursor: boCursor } = await pullAs(bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab1 = await home(ada, 1, proxy.url);
    const tab2 = await home(ada, 1, proxy.url, tab1.page.context());

    await proxy.cut();
    const first = await sendHug(tab1, 'Bo Tester');
    const second = await sendHug(tab2, 'Bo Tester');
    const third = await sendHug(tab1, 'Bo Tester');
    // One outbox per device: each tab counts the other's writes too.
    await waiting(tab1.page, 3).waitFor();
    await waiting(tab2.page, 3).waitFor();
    const made = [first, second, third];
    expect((await outbox(tab2.page)).map((e) => e.idempotencyKey)).toEqual(
      made.map((e) => e.idempotencyKey),
    );

    // Each batch is held until a second one is in flight too (2 s at most): a second drainer
    // would surely overlap the first.
    proxy.batchGate(2, 2000);
    await proxy.restore();
    await networkBack(tab1.page, tab2.page);
    await nothingWaiting(tab1.page).waitFor({ timeout: 30_000 });
    await nothingWaiting(tab2.page).waitFor();

    expect(proxy.maxBatchesInFlight).toBe(1);
    expect(keysSent(proxy)).toEqual(made.map((e) => e.idempotencyKey));
    // The server applied them once each, in the order the tabs made them.
    const pings = (await pullAs(bo, boCursor)).changes.filter((c) => c.entity === 'ping');
    expect(pings.map((c) => c.id)).toEqual(made.map((e) => e.args.id));
    expect((await receivedIds(bo)).sort()).toEqual(made.map((e) => e.args.id!).sort());
  });

  it('control: with the Web Lock taken away, two tabs drain at once and the check above sees it', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const page = await newPage({ baseURL: proxy.url });
    // The broken device: every lock request runs at once.
    await page.context().addInitScript(() => {
      Object.defineProperty(LockManager.prototype, 'request', {
        value(_name: string, a: unknown, b?: unknown) {
          const callback = (typeof a === 'function' ? a : b) as () => Promise<unknown>;
          return Promise.resolve().then(callback);
        },
      });
    });
    await signInPage(page, ada);
    await page.goto('/');
    const tab1 = new PingsPage(page);
    await tab1.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor();
    const tab2 = await home(ada, 1, proxy.url, page.context());

    await proxy.cut();
    await sendHug(tab1, 'Bo Tester');
    await sendHug(tab2, 'Bo Tester');
    await waiting(tab2.page, 2).waitFor();
    // Held until both tabs' batches are in flight, however slowly a tab gets to its own.
    proxy.batchGate(2, 15_000);
    await proxy.restore();
    await networkBack(tab1.page, tab2.page);
    await nothingWaiting(tab1.page).waitFor({ timeout: 30_000 });

    expect(proxy.maxBatchesInFlight).toBeGreaterThan(1);
    expect(keysSent(proxy).length).toBeGreaterThan(2);
    // Guarantee 2 still holds the line: the server applied each write once.
    expect(await receivedIds(bo)).toHaveLength(2);
  });

  it('a send that never answers is given up after a minute: the key goes again, and the pulls go on', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const page = await newPage({ baseURL: proxy.url });
    await page.clock.install();
    await signInPage(page, ada);
    await page.goto('/');
    const tab = new PingsPage(page);
    await tab.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor();

    // The batch reaches the server; its answer never comes, and the connection stays open.
    proxy.batchAnswers('hold');
    const entry = await sendHug(tab, 'Bo Tester');
    await eventually(
      async () => proxy!.batches.filter((b) => b.results).length,
      (n) => n === 1,
    );
    // Meanwhile Bo changes his tagline: only a pull brings that to Ada's device.
    const tagline = `Back in a minute ${Date.now()}`;
    expect((await call(bo, 'PUT', '/api/profile/update', { tagline })).status).toBe(200);

    proxy.batchAnswers('deliver');
    await page.clock.fastForward(61_000);
    await nothingWaiting(page).waitFor({ timeout: 30_000 });
    expect(keysSent(proxy)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
    expect(proxy.batches[1]!.results).toEqual([
      { idempotencyKey: entry.idempotencyKey, status: 201 },
    ]);
    await expect
      .poll(async () => {
        const users = await dexieRows<{ id: string; tagline: string | null }>(page, 'users');
        return users.find((u) => u.id === bo.id)?.tagline;
      })
      .toBe(tagline);
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
  });

  it('entries left by a closed tab are sent by the next tab, not by anyone meanwhile', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab1 = await home(ada, 1, proxy.url);
    const context = tab1.page.context();
    await serviceWorkerControls(tab1.page);

    await proxy.cut();
    const entry = await sendHug(tab1, 'Bo Tester');
    await waiting(tab1.page, 1).waitFor();
    await backgroundSyncSettled(tab1.page);
    await tab1.page.close();
    await proxy.restore();
    // No tab open, the network back: nobody sends it (the service worker answered its one
    // Background Sync event by asking the tab, which was open then).
    await new Promise((r) => setTimeout(r, 2000));
    expect(proxy.batches).toEqual([]);
    expect(await receivedIds(bo)).toEqual([]);

    const tab2 = await home(ada, 1, proxy.url, context);
    await nothingWaiting(tab2.page).waitFor({ timeout: 30_000 });
    await eventually(
      () => receivedIds(bo),
      (ids) => ids.length > 0,
    );
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
    expect(keysSent(proxy)).toEqual([entry.idempotencyKey]);
    // Sent by the page (its URL as Referer), not by the service worker's script.
    expect(proxy.batches[0]!.referer).toBe(`${proxy.url}/`);
  });
});

describe('guarantees 1 and 2: a tab killed around its send', () => {
  it('a tab killed between the Dexie write and the send: the next tab shows the write and sends it once', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab1 = await home(ada, 1, proxy.url);
    const context = tab1.page.context();
    await serviceWorkerControls(tab1.page);

    await proxy.cut();
    const entry = await sendHug(tab1, 'Bo Tester');
    await tab1.card('Ping to Bo').getByTestId('ping-pending').waitFor();
    await crash(tab1.page);

    // Still offline: the shell comes from the service worker, the write from Dexie.
    const tab2 = await home(ada, 1, proxy.url, context);
    await tab2.card('Ping to Bo').getByTestId('ping-pending').waitFor();
    expect((await outbox(tab2.page)).map((e) => e.idempotencyKey)).toEqual([entry.idempotencyKey]);
    expect(await receivedIds(bo)).toEqual([]);

    await proxy.restore();
    await networkBack(tab2.page);
    await tab2
      .card('Ping to Bo')
      .getByTestId('ping-pending')
      .waitFor({ state: 'detached', timeout: 30_000 });
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
    expect(keysSent(proxy)).toEqual([entry.idempotencyKey]);
    expect(await tab2.recentActivity.getByRole('article').count()).toBe(1);
  });

  it('a tab killed after the server applied its send but before the answer came: the next tab re-sends the key and the server applies it once', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab1 = await home(ada, 1, proxy.url);
    const context = tab1.page.context();
    await serviceWorkerControls(tab1.page);

    // The batch reaches the server and is applied there; its answer never comes back.
    proxy.batchAnswers('hold');
    const entry = await sendHug(tab1, 'Bo Tester');
    await eventually(
      async () => proxy!.batches.filter((b) => b.results).length,
      (n) => n === 1,
    );
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
    await backgroundSyncSettled(tab1.page);
    await crash(tab1.page);

    proxy.batchAnswers('deliver');
    const tab2 = await home(ada, 1, proxy.url, context);
    await nothingWaiting(tab2.page).waitFor({ timeout: 30_000 });
    await tab2.card('Ping to Bo').getByTestId('ping-pending').waitFor({ state: 'detached' });

    // The same key twice: the first answer was lost with the tab, the second is the stored one.
    expect(keysSent(proxy)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
    const [lost, replayed] = proxy.batches;
    expect(lost!.delivered).toBe(false);
    expect(replayed!.delivered).toBe(true);
    expect(replayed!.results).toEqual(lost!.results);
    expect(replayed!.results).toEqual([{ idempotencyKey: entry.idempotencyKey, status: 201 }]);
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
    expect(await tab2.recentActivity.getByRole('article').count()).toBe(1);
  });

  it('the screen shows a write only once its outbox row has committed', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const tab = await home(ada, 1, baseUrl);
    // Another transaction holds the outbox: the write's own transaction cannot commit yet.
    await tab.page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('pingme');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const idb = open.result;
            const tx = idb.transaction('outbox', 'readwrite');
            const store = tx.objectStore('outbox');
            const w = window as unknown as { releaseOutbox?: boolean };
            const spin = () => {
              if (!w.releaseOutbox) store.count().onsuccess = spin;
            };
            spin();
            tx.oncomplete = () => idb.close();
            resolve();
          };
        }),
    );
    await tab.tile(new RegExp(HUG)).click();
    await tab.dialog.getByRole('checkbox', { name: 'Bo Tester' }).check();
    await tab.dialog.getByRole('button', { name: 'Send (1)' }).click();
    await tab.page.waitForTimeout(1500);
    expect(await tab.card('Ping to Bo').count()).toBe(0);
    expect(await tab.page.getByTestId('sync-status').textContent()).not.toContain('waiting');
    expect(await tab.dialog.isVisible()).toBe(true);

    await tab.page.evaluate(() => {
      (window as unknown as { releaseOutbox?: boolean }).releaseOutbox = true;
    });
    await tab.card('Ping to Bo').waitFor();
    await tab.dialog.waitFor({ state: 'detached' });
    await eventually(
      () => receivedIds(bo),
      (ids) => ids.length === 1,
    );
  });
});

describe('guarantee 5: a rejection never blocks the queue', () => {
  it('a refused write between two others is rolled back and told once; the two others go out in order', async () => {
    const [ada, bo, cy] = await Promise.all([person('Ada'), person('Bo'), person('Cy')]);
    await befriend(ada, bo);
    await befriend(ada, cy);
    const { cursor: boCursor } = await pullAs(bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab = await home(ada, 2, proxy.url);
    // Every toast that opens, in order (one is on screen at a time).
    await tab.page.evaluate(() => {
      const w = window as unknown as { toasts: string[] };
      w.toasts = [];
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n instanceof HTMLElement && n.matches('.toast')) w.toasts.push(n.innerText);
      }).observe(document.body, { childList: true, subtree: true });
    });

    await proxy.cut();
    const first = await sendHug(tab, 'Bo Tester');
    const refused = await sendHug(tab, 'Cy Tester');
    const third = await sendHug(tab, 'Bo Tester');
    await waiting(tab.page, 3).waitFor();
    // Behind the app's back the friendship with Cy ends: the server will refuse that ping.
    await removeFriendshipInDb(ada.email, cy.email);

    await proxy.restore();
    await networkBack(tab.page);
    await nothingWaiting(tab.page).waitFor({ timeout: 30_000 });
    await tab.card('Ping to Cy').waitFor({ state: 'detached' });
    expect(await tab.card('Ping to Bo').count()).toBe(2);

    const results = proxy.batches.flatMap((b) => b.results ?? []);
    expect(results.map((r) => r.idempotencyKey)).toEqual(
      [first, refused, third].map((e) => e.idempotencyKey),
    );
    expect(results[0]!.status).toBe(201);
    expect(results[1]!.status).toBeGreaterThanOrEqual(400);
    expect([401, 408, 429]).not.toContain(results[1]!.status);
    expect(results[2]!.status).toBe(201);
    const pings = (await pullAs(bo, boCursor)).changes.filter((c) => c.entity === 'ping');
    expect(pings.map((c) => c.id)).toEqual([first.args.id, third.args.id]);
    expect(await receivedIds(cy)).toEqual([]);
    expect(await dexieRows<PingRow>(tab.page, 'pings')).toHaveLength(2);
    await tab.page.waitForTimeout(500);
    const told = await tab.page.evaluate(() => (window as unknown as { toasts: string[] }).toasts);
    expect(told.filter((t) => t.includes('Failed to send pings. Please try again.'))).toHaveLength(
      1,
    );
  });
});

describe('guarantee 7: read-your-writes', () => {
  it('a waiting write stays on screen through pulls and a snapshot’s sweep, until the server has it', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab = await home(ada, 1, proxy.url);
    const page = tab.page;

    // The server refuses batches for now (503, transient); pulls still get through.
    proxy.batchAnswers('unavailable');
    const entry = await sendHug(tab, 'Bo Tester');
    const pending = tab.card('Ping to Bo').getByTestId('ping-pending');
    await pending.waitFor();
    const pullsBefore = proxy.pulls.length;
    const tagline = `Pulled while waiting ${Date.now()}`;
    expect((await call(bo, 'PUT', '/api/profile/update', { tagline })).status).toBe(200);
    const boTagline = async () =>
      (await dexieRows<{ id: string; tagline: string | null }>(page, 'users')).find(
        (u) => u.id === bo.id,
      )?.tagline;
    await expect.poll(boTagline).toBe(tagline);
    expect(proxy.pulls.length).toBeGreaterThan(pullsBefore);
    expect(await pending.count()).toBe(1);

    // A cursor this server never issued: the next pull is a snapshot, whose sweep deletes every
    // row it did not mention, except those of waiting writes. Written under the pull's lock, so
    // no pull under way saves its own cursor over it.
    await page.evaluate(() =>
      navigator.locks.request(
        'pingme-pull',
        () =>
          new Promise<void>((resolve, reject) => {
            const open = indexedDB.open('pingme');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const tx = open.result.transaction('meta', 'readwrite');
              tx.objectStore('meta').put({ key: 'cursor', value: 1e12 });
              tx.oncomplete = () => {
                open.result.close();
                resolve();
              };
              tx.onerror = () => reject(tx.error);
            };
          }),
      ),
    );
    const cursor = async () =>
      (await dexieRows<{ key: string; value: unknown }>(page, 'meta')).find(
        (m) => m.key === 'cursor',
      )?.value;
    const snapshotsBefore = proxy.pulls.filter((p) => p.reset).length;
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect
      .poll(() => proxy!.pulls.filter((p) => p.reset).length)
      .toBeGreaterThan(snapshotsBefore);
    // The snapshot's last page saves its cursor in the same transaction as the sweep.
    await expect.poll(cursor).not.toBe(1e12);
    expect(await pending.count()).toBe(1);
    expect((await dexieRows<PingRow>(page, 'pings')).map((p) => p.id)).toEqual([entry.args.id]);
    expect(await receivedIds(bo)).toEqual([]);

    proxy.batchAnswers('deliver');
    await networkBack(page);
    await pending.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
    expect(await tab.card('Ping to Bo').count()).toBe(1);
  });
});

describe('guarantee 6: a lost /ws message is recovered by the next pull', () => {
  it('on becoming visible, on the slow timer while open, and on reconnect', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const page = await newPage({ baseURL: proxy.url });
    // The page's timers run on a clock the test can move: the slow pull timer is 60 s.
    await page.clock.install();
    await signInPage(page, ada);
    // Her profile: no received ping is shown there, so no mark-read write (and its pull) follows.
    await page.goto('/profile');
    await page.locator('.sync-status--live').waitFor({ state: 'attached' });
    const pingIds = async () => (await dexieRows<PingRow>(page, 'pings')).map((p) => p.id);
    /** Bo pings Ada while /ws is muted: the frame is lost, the ping is not on the device. */
    const lostPing = async () => {
      // The device is quiet: no pull under way, none started for a second, so none brings the
      // ping by chance (the start and the socket's first 'authenticated' each pull).
      for (;;) {
        const started = proxy!.pullsStarted;
        await page.waitForTimeout(1000);
        if (proxy!.pullsInFlight === 0 && proxy!.pullsStarted === started) break;
      }
      proxy!.muteSockets(true);
      const { id } = await sendPingByApi(bo, ada);
      await page.waitForTimeout(1500);
      expect(await pingIds()).not.toContain(id);
      return id;
    };

    const whenVisible = await lostPing();
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect.poll(pingIds).toContain(whenVisible);

    const onTimer = await lostPing();
    await page.clock.fastForward(60_000);
    await expect.poll(pingIds).toContain(onTimer);

    const onReconnect = await lostPing();
    const sockets = proxy.socketsOpened;
    proxy.muteSockets(false);
    proxy.dropSockets();
    await expect.poll(pingIds, { timeout: 15_000 }).toContain(onReconnect);
    expect(proxy.socketsOpened).toBeGreaterThan(sockets);
    expect((await pingIds()).sort()).toEqual([whenVisible, onTimer, onReconnect].sort());
  });
});

describe('guarantee 10: a push is a hint', () => {
  it('a push delivered twice shows one notification and changes no data', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const tab = await home(ada, 1, baseUrl);
    const page = tab.page;
    await page.context().grantPermissions(['notifications'], { origin: baseUrl });
    await serviceWorkerControls(page);
    const cdp = await page.context().newCDPSession(page);
    const registrationId = await serviceWorkerRegistrationId(cdp);

    const { id } = await sendPingByApi(bo, ada);
    await tab.card('Ping from Bo').waitFor();
    const before = await dexieRows(page, 'pings');
    // The server's payload for this ping (docs/sync.md, Web Push step 5), delivered twice.
    const payload = JSON.stringify({
      title: 'New Ping from Bo!',
      body: 'Ping you when I need a hug',
      url: '/',
      tag: `ping_${id}`,
      pingId: id,
    });
    for (let i = 0; i < 2; i++) await deliverPush(cdp, registrationId, payload);
    expect((await shownNotifications(page)).map((n) => n.tag)).toEqual([`ping_${id}`]);
    await page.waitForTimeout(500);
    expect(await dexieRows(page, 'pings')).toEqual(before);
    expect(await tab.recentActivity.getByRole('article').count()).toBe(1);
  });
});

describe('a device offline for longer than the change log keeps', () => {
  it('signs in again, gets a snapshot, and its waiting writes apply once', async () => {
    // A server of its own: pruning the change log moves the floor for everyone on it.
    ownServer = await startTestServer(
      { PWA_DIST: pwaDist() },
      { mailer: { delivers: false, send: async () => {} } },
    );
    const base = ownServer.url;
    const [ada, bo, cy] = [
      await personOn(base, 'Ada'),
      await personOn(base, 'Bo'),
      await personOn(base, 'Cy'),
    ];
    await befriendOn(base, ada, bo);
    await befriendOn(base, ada, cy);
    proxy = await startGuaranteeProxy(ownServer.port);
    const page = await newPage({ baseURL: proxy.url });
    await signInPage(page, ada, base);
    await page.goto('/');
    const tab = new PingsPage(page);
    await tab.tile(new RegExp(`${HUG}.*2 friends$`)).waitFor();
    await expect.poll(async () => (await dexieRows(page, 'users')).length).toBe(3);

    await proxy.cut();
    const entry = await sendHug(tab, 'Bo Tester');
    await waiting(page, 1).waitFor();

    // Meanwhile, on the server: Cy blocks Ada (the friendship ends), Bo pings Ada, months pass: the change
    // log is pruned past Ada's cursor and her session has expired.
    expect((await call(cy, 'POST', '/api/blocks', { userId: ada.id }, base)).status).toBe(201);
    const fromBo = await call<{ id: string }>(
      bo,
      'POST',
      '/api/pings',
      { promptId: '00000000-0000-7000-8000-000000000001', receiverId: ada.id },
      base,
    );
    expect(fromBo.status).toBe(201);
    const pruned = await pruneChangeLog(
      ownServer.database.db,
      ownServer.config.syncRetentionMs,
      Date.now() + ownServer.config.syncRetentionMs + DAY_MS,
    );
    expect(Number(pruned)).toBeGreaterThan(0);
    await ownServer.database.db
      .updateTable('sessions')
      .set({ expiresAt: Date.now() - DAY_MS })
      .where('userId', '=', ada.id)
      .execute();

    await proxy.restore();
    await networkBack(page);
    // The session check or the batch (401) notices first: nothing is rolled back, nothing is
    // applied, and the person is asked to sign in.
    const auth = new AuthPage(page);
    await auth.loginTab.waitFor({ timeout: 30_000 });
    await expect.poll(() => proxy!.batches.every((b) => b.status !== undefined)).toBe(true);
    expect(proxy.batches.filter((b) => b.status !== 401)).toEqual([]);
    expect(await receivedIds(bo, base)).toEqual([]);
    expect((await outbox(page)).map((e) => e.idempotencyKey)).toEqual([entry.idempotencyKey]);
    const pullsBefore = proxy.pulls.length;
    await auth.signIn(ada.email, ada.password);
    await tab.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor({ timeout: 30_000 });
    await nothingWaiting(page).waitFor({ timeout: 30_000 });

    await expect.poll(() => receivedIds(bo, base)).toEqual([entry.args.id]);
    // The snapshot's sweep removed Cy, kept the sent ping and brought Bo's.
    await expect
      .poll(async () => (await dexieRows<{ id: string }>(page, 'users')).map((u) => u.id).sort())
      .toEqual([ada.id, bo.id].sort());
    await expect
      .poll(async () => (await dexieRows<PingRow>(page, 'pings')).map((p) => p.id).sort())
      .toEqual([entry.args.id!, fromBo.body.id].sort());
    expect((await dexieRows<PingRow>(page, 'pings')).some((p) => p.pending)).toBe(false);
    // Her cursor was below the floor: the first pull after signing in answered a snapshot.
    // (A 401 from before the sign-in may still land after `pullsBefore` was read.)
    const after = proxy.pulls.slice(pullsBefore).filter((p) => p.status === 200);
    expect(after[0]).toMatchObject({ status: 200, reset: true });
    expect(after[0]!.query).toMatch(/^since=\d+/);
    // The one write was never applied before (at most refused with 401), then applied once.
    const delivered = proxy.batches.filter((b) => b.status === 200);
    expect(delivered.flatMap((b) => b.results)).toEqual([
      { idempotencyKey: entry.idempotencyKey, status: 201 },
    ]);
  });
});

describe('another person signs in where a session expired', () => {
  it('sends none of the first person’s waiting writes as the second, and shows none of their data', async () => {
    const [ada, bo, cy] = await Promise.all([person('Ada'), person('Bo'), person('Cy')]);
    await befriend(ada, bo);
    await befriend(cy, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab = await home(ada, 1, proxy.url);
    const page = tab.page;
    await proxy.cut();
    await sendHug(tab, 'Bo Tester');
    await waiting(page, 1).waitFor();
    // Ada's session ends elsewhere (it expired, or she signed out everywhere).
    expect((await call(ada, 'POST', '/api/logout')).status).toBe(200);

    await proxy.restore();
    await networkBack(page);
    const auth = new AuthPage(page);
    await auth.loginTab.waitFor({ timeout: 30_000 });
    await auth.signIn(cy.email, cy.password);
    await tab.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor({ timeout: 30_000 });
    await nothingWaiting(page).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await dexieRows<{ id: string }>(page, 'users')).map((u) => u.id).sort())
      .toEqual([bo.id, cy.id].sort());

    // Bo got nothing in Cy's name that Cy never sent.
    expect(await receivedIds(bo)).toEqual([]);
    expect(await dexieRows(page, 'pings')).toEqual([]);
  });
});

/** A registered person past the setup, signed in, on `base`. */
describe('a session ended elsewhere while the tab is open', () => {
  it('the socket notices first: the spec’s toast and the sign-in page, never a silent landing', async () => {
    // A server of its own, whose heartbeat closes a dead session's socket within half a second.
    ownServer = await startTestServer(
      { PWA_DIST: pwaDist(), WS_HEARTBEAT_MS: '300' },
      { mailer: { delivers: false, send: async () => {} } },
    );
    const base = ownServer.url;
    const [ada, bo] = [await personOn(base, 'Ada'), await personOn(base, 'Bo')];
    await befriendOn(base, ada, bo);
    const page = await newPage({ baseURL: base });
    await signInPage(page, ada, base);
    const tab = await home(ada, 1, base, page.context());
    await page.close();

    // Ada signs out on another device; this tab makes no request of its own meanwhile.
    expect((await call(ada, 'POST', '/api/logout', undefined, base)).status).toBe(200);
    // The toast is on screen for the 500 ms before the sign-in page loads: looked for on every
    // frame, not at a locator's polling interval, which could step over it.
    await tab.page.waitForFunction(
      () =>
        [...document.querySelectorAll('.toast')].some((t) =>
          t.textContent?.includes('You are logged out. Logging in again...'),
        ),
      undefined,
      { timeout: 15_000, polling: 'raf' },
    );
    // What the person sees meanwhile (best effort: the sign-in page may already be loading).
    await tab.page.screenshot({ path: artifact('session-ended.png') }).catch(() => undefined);
    await new AuthPage(tab.page).loginTab.waitFor({ timeout: 15_000 });
    expect(new URL(tab.page.url()).pathname).toBe('/auth');
  });
});

/** The built PWA the shared server serves (a private build with E2E_PWA_DIST). */
function pwaDist(): string {
  return process.env.E2E_PWA_DIST
    ? path.resolve(process.env.E2E_PWA_DIST)
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
}

async function personOn(base: string, firstName: string): Promise<Person> {
  const email = `${firstName.toLowerCase()}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const password = 'correct horse';
  const res = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ firstName, lastName: 'Tester', email, password }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status}`);
  const { id } = (await res.json()) as { id: string };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const who: Person = { id, firstName, email, password, cookie };
  const done = await call(who, 'PATCH', '/api/user/onboarding', { completed: true }, base);
  if (done.status !== 200) throw new Error(`setup skip failed: ${done.status}`);
  return who;
}

async function befriendOn(base: string, a: Person, b: Person): Promise<void> {
  const asked = await call<{ requestId: string; status: string }>(
    a,
    'POST',
    '/api/friends/request',
    { friendId: b.id },
    base,
  );
  if (asked.body.status === 'accepted') return;
  const accepted = await call(
    b,
    'POST',
    '/api/friends/accept',
    { requestId: asked.body.requestId },
    base,
  );
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status}`);
}

describe('a poor connection (issue 12)', () => {
  it('200 writes queued offline go out over a 400 ms round trip once each, in the order made', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    expect((await call(bo, 'PUT', '/api/profile/update', { rateLimitPerDay: 1000 })).status).toBe(
      200,
    );
    const { cursor: boCursor } = await pullAs(bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const tab = await home(ada, 1, proxy.url);

    await proxy.cut();
    // 200 taps on Surprise Me (a default prompt to the one friend), each waiting for its write.
    const made = await tab.page.evaluate(async (n) => {
      const button = [...document.querySelectorAll('button')].find((b) =>
        b.textContent?.includes('Surprise Me'),
      )!;
      const marks = () => performance.getEntriesByName('pingme:local-write').length;
      for (let i = 0; i < n; i++) {
        const before = marks();
        button.click();
        while (marks() === before || button.disabled) await new Promise((r) => setTimeout(r, 0));
      }
      return marks();
    }, 200);
    expect(made).toBeGreaterThanOrEqual(200);
    await waiting(tab.page, 200).waitFor();
    const queued = await outbox(tab.page);

    // The link comes back slow: each batch waits 400 ms at the proxy.
    proxy.batchDelay(400);
    await proxy.restore();
    await networkBack(tab.page);
    await nothingWaiting(tab.page).waitFor({ timeout: 60_000 });

    expect(keysSent(proxy)).toEqual(queued.map((e) => e.idempotencyKey));
    expect(proxy.batches.every((b) => (b.results ?? []).every((r) => r.status === 201))).toBe(true);
    expect(proxy.maxBatchesInFlight).toBe(1);
    const pings = (await pullAs(bo, boCursor)).changes.filter((c) => c.entity === 'ping');
    expect(pings.map((c) => c.id)).toEqual(queued.map((e) => e.args.id));
  });

  it('a connection back without an online event is noticed within two seconds of the app’s time, whatever the backoff', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    proxy = await startGuaranteeProxy(inject('serverPort'));
    const page = await newPage({ baseURL: proxy.url });
    await page.clock.install();
    await signInPage(page, ada, proxy.url);
    await page.goto('/');
    const tab = new PingsPage(page);
    await tab.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor();

    await proxy.cut();
    const entry = await sendHug(tab, 'Bo Tester');
    // A long outage: every retry fails and the backoff grows towards its 60 s cap.
    for (let i = 0; i < 8; i++) await page.clock.fastForward(61_000);
    expect(await receivedIds(bo)).toEqual([]);

    // From here the app's timers run only as the test moves its clock. The network comes back,
    // and the browser says nothing: two seconds of the app's time.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 200));
    await proxy.restore();
    await page.clock.runFor(1800);
    await eventually(
      () => receivedIds(bo),
      (ids) => ids.length > 0,
    );
    await expect.poll(async () => (await outbox(page)).length).toBe(0);
    expect(await receivedIds(bo)).toEqual([entry.args.id]);
  });
});
