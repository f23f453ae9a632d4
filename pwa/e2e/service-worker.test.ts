/**
 * The service worker's own events, fired through the DevTools protocol: a Web Push shows a
 * notification (title, body, url; a payload that does not match the shared PushPayload, a plain
 * one), and Background Sync with tag 'outbox' wakes the open tab.
 */
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  baseUrl,
  deliverPush,
  newPage,
  serviceWorkerRegistrationId,
  shownNotifications,
} from './support/browser';

async function controlledPage(): Promise<{ page: Page; cdp: CDPSession; registrationId: string }> {
  const page = await newPage();
  await page.context().grantPermissions(['notifications'], { origin: baseUrl });
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // Controlled, so the worker's clients.matchAll finds this tab.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cdp = await page.context().newCDPSession(page);
  return { page, cdp, registrationId: await serviceWorkerRegistrationId(cdp) };
}

describe('service worker events', () => {
  it('shows a push as a notification with its title, body and url', async () => {
    const { page, cdp, registrationId } = await controlledPage();
    await deliverPush(
      cdp,
      registrationId,
      JSON.stringify({
        title: 'New Ping from Ada!',
        body: 'Ping me when you are free',
        url: '/pings',
        tag: 'ping_0190a000-0000-7000-8000-000000000001',
        pingId: '0190a000-0000-7000-8000-000000000001',
      }),
    );
    expect(await shownNotifications(page)).toEqual([
      {
        title: 'New Ping from Ada!',
        body: 'Ping me when you are free',
        tag: 'ping_0190a000-0000-7000-8000-000000000001',
        data: { url: '/pings' },
      },
    ]);
  });

  it('shows a plain notification for a push that does not match the shared PushPayload', async () => {
    const { page, cdp, registrationId } = await controlledPage();
    await deliverPush(
      cdp,
      registrationId,
      JSON.stringify({ title: 42, url: 'javascript:alert(1)' }),
    );
    expect(await shownNotifications(page)).toEqual([
      { title: 'PingMe', body: '', tag: '', data: { url: '/' } },
    ]);
  });

  it("answers Background Sync 'outbox' by asking the open tab to flush", async () => {
    const { page, cdp, registrationId } = await controlledPage();
    await page.evaluate(() => {
      const w = window as unknown as { swMessages: unknown[] };
      w.swMessages = [];
      navigator.serviceWorker.addEventListener('message', (e) => w.swMessages.push(e.data));
    });
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: baseUrl,
      registrationId,
      tag: 'outbox',
      lastChance: false,
    });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { swMessages: unknown[] }).swMessages))
      .toEqual([{ type: 'outbox-sync' }]);
  });
});
