/**
 * An update of the app under waiting writes (issue 12: writes are named mutations). A device runs
 * the build from before named mutations (its outbox holds REST calls), queues writes with it, and
 * then takes the new build the way a person does: the service worker finds the new version, the
 * app offers 'Reload', and the new app's Dexie upgrade (version 4, db/schema.ts) turns the waiting
 * rows into named mutations. Every write reaches the server exactly once, including writes the
 * server had already applied under the old build while their answers were lost: their keys
 * replay (same request hash), they are not refused as other requests under the same key.
 *
 * The app's files come through the proxy from a server serving the old build, then from the one
 * serving pwa/dist (support/guarantees-proxy.ts, serveAppFrom); the API is the same server
 * throughout. The old build is made from git (support/old-build.ts).
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../../sync-server/test/harness';
import { PingsPage } from './pages/pings-page';
import { dexieRows, newPage } from './support/browser';
import { startGuaranteeProxy, type GuaranteeProxy } from './support/guarantees-proxy';
import { pwaBuildOf } from './support/old-build';
import { befriend, call, eventually, person, sendPingByApi, signInPage } from './support/people';

/** The last commit whose PWA queued REST calls (`{method, path, body}`) in its outbox. */
const BEFORE_NAMED_MUTATIONS = 'd6ab9be';
const HUG = 'Ping me when you need a hug';

let proxy: GuaranteeProxy | undefined;
let oldApp: TestServer | undefined;
let oldDist: string;
// A whole `vite build` of the old commit (kept between runs under node_modules/.cache): minutes on
// a busy machine, so not inside the test's own time.
beforeAll(() => {
  oldDist = pwaBuildOf(BEFORE_NAMED_MUTATIONS);
}, 600_000);
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await oldApp?.stop();
  oldApp = undefined;
});

interface OldRow {
  seq: number;
  idempotencyKey: string;
  method?: string;
  path?: string;
  body?: { id?: string };
  name?: string;
  args?: Record<string, unknown>;
}

async function outbox(page: Page): Promise<OldRow[]> {
  return (await dexieRows<OldRow>(page, 'outbox')).sort((a, b) => a.seq - b.seq);
}

const waiting = (page: Page) =>
  page.getByTestId('sync-status').filter({ hasText: 'waiting to send' });
const nothingWaiting = (page: Page) =>
  page.getByTestId('sync-status').filter({ hasNotText: 'waiting to send' });

describe('an update with writes waiting', () => {
  it('writes queued by the build before named mutations go out once each after the update', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const fromBo = await sendPingByApi(bo, ada);
    // A deployment that serves the old build: the same sessions, another copy of the app.
    oldApp = await startTestServer({
      PWA_DIST: oldDist,
      SESSION_SECRET: inject('sessionSecret'),
    });
    proxy = await startGuaranteeProxy(inject('serverPort'));
    proxy.serveAppFrom(oldApp.port);

    // The old app, installed (its service worker controls the page).
    const page = await newPage({ baseURL: proxy.url });
    await signInPage(page, ada, proxy.url);
    await page.goto('/');
    const home = new PingsPage(page);
    await home.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // Online, but every answer is lost: the server applies Ada's reading and her reaction, and the
    // device keeps both waiting (as after a connection that dropped each time before the answer).
    proxy.batchAnswers('drop');
    const card = home.card('Ping from Bo');
    // Bo's card, shown for a second, is read; then she reacts.
    await card.scrollIntoViewIfNeeded();
    await eventually(
      async () => (await outbox(page)).length,
      (n) => n === 1,
    );
    await home.reaction(card, 'Love it!').click();
    await eventually(
      async () => (await outbox(page)).length,
      (n) => n === 2,
    );
    const applied = await outbox(page);
    await eventually(
      async () => new Set(proxy!.batches.filter((b) => b.results).flatMap((b) => b.keys)),
      (sent) => applied.every((e) => sent.has(e.idempotencyKey)),
    );
    // Then offline: a hug to Bo that the server never saw.
    await proxy.cut();
    await home.sendPrompt(new RegExp(HUG), ['Bo Tester']);
    await waiting(page).filter({ hasText: '3 waiting' }).waitFor();
    const queued = await outbox(page);
    // The old build's rows: REST calls.
    expect(queued.map((e) => [e.method, e.path?.replace(fromBo.id, ':id')])).toEqual([
      ['PATCH', '/api/pings/:id/read'],
      ['POST', '/api/pings/:id/reactions'],
      ['POST', '/api/pings'],
    ]);
    expect(proxy.batches.every((b) => b.shapes.every((s) => s === 'rest'))).toBe(true);
    const hug = queued[2]!.body!.id!;

    // The new build is published; the device is back, but no batch gets through yet.
    proxy.batchAnswers('unavailable');
    proxy.serveAppFrom(undefined);
    await proxy.restore();
    // The browser checks its service worker on navigation and now and then; this is that check.
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await prompt.waitFor({ timeout: 30_000 });
    await Promise.all([
      page.waitForEvent('load', { timeout: 30_000 }),
      prompt.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await home.tile(new RegExp(`${HUG}.*1 friend$`)).waitFor();

    // The new app's Dexie upgrade: the same entries, in the same order, now named mutations.
    const upgraded = await outbox(page);
    expect(upgraded.map((e) => e.idempotencyKey)).toEqual(queued.map((e) => e.idempotencyKey));
    expect(upgraded.map((e) => [e.name, e.method])).toEqual([
      ['ping.markRead', undefined],
      ['ping.react', undefined],
      ['ping.send', undefined],
    ]);

    const before = proxy.batches.length;
    proxy.batchAnswers('deliver');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await nothingWaiting(page).waitFor({ timeout: 30_000 });

    // Sent by the new build as named mutations, each answered 2xx: the two the server had applied
    // replayed from their records, the hug applied now.
    const after = proxy.batches.slice(before).filter((b) => b.status === 200);
    expect(after.flatMap((b) => b.shapes)).toEqual(['named', 'named', 'named']);
    const results = after.flatMap((b) => b.results ?? []);
    expect(results.map((r) => r.idempotencyKey)).toEqual(queued.map((e) => e.idempotencyKey));
    expect(results.every((r) => r.status >= 200 && r.status < 300)).toBe(true);
    // At the receiver: the hug once, Ada's reading and one reaction on Bo's ping.
    expect(
      (await call<{ id: string }[]>(bo, 'GET', '/api/pings/recent')).body.map((p) => p.id),
    ).toEqual([hug]);
    const adaGot = await call<{ id: string; isRead: boolean; reactions: { userId: string }[] }[]>(
      ada,
      'GET',
      '/api/pings/recent',
    );
    const boPing = adaGot.body.find((p) => p.id === fromBo.id)!;
    expect(boPing.isRead).toBe(true);
    expect(boPing.reactions.filter((r) => r.userId === ada.id)).toHaveLength(1);
    // Nothing was refused: the reaction and the hug still show on Ada's device.
    expect(await home.reaction(card, 'Love it!').getAttribute('aria-pressed')).toBe('true');
    await home.card('Ping to Bo').waitFor();
  });
});
