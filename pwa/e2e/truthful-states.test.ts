/**
 * Issue 15, items 10 and 11, in a real Chromium against the real server behind a loopback proxy
 * that a test cuts or silences: the sync status says Offline within a few seconds of the server
 * going away (the socket closes, or it stops answering the heartbeat), and a ping sent offline
 * says it is saved and waiting ('Waiting to send') until the server has it, then 'Sent'.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ActivityPage } from './pages/activity-page';
import { HomePage } from './pages/home-page';
import { PingsPage } from './pages/pings-page';
import { artifact, newPage } from './support/browser';
import { startLoopbackProxy, type ProxyCore } from './support/loopback-proxy';
import { befriend, person, receivedPings, signInPage, type Person } from './support/people';
import { startProxy } from './support/proxy';

const HUG = /Ping me when you need a hug.*1 friend/;

let proxy: ProxyCore | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const syncStatus = (page: Page) => page.getByTestId('sync-status');

async function homeThrough(who: Person, base: string): Promise<PingsPage> {
  const page = await newPage({ baseURL: base });
  await signInPage(page, who, base);
  await page.goto('/');
  const pings = new PingsPage(page);
  await pings.tile(HUG).waitFor();
  // Live: the socket is authenticated.
  await page.locator('.sync-status--live').waitFor();
  return pings;
}

describe('states that tell the truth', () => {
  it('a cut network shows Offline within seconds; an offline send is saved, Waiting to send, then Sent', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const cable = await startProxy(inject('serverPort'));
    proxy = cable;
    const sender = await homeThrough(ada, cable.url);
    const home = new HomePage(sender.page);
    // The activity screen's code is on the device before the cable goes.
    await home.goTo('Activity');
    await new ActivityPage(sender.page).title.waitFor();
    await home.goTo('Home');
    await sender.tile(HUG).waitFor();

    await cable.cut();
    // Nothing was sent yet: the closed socket alone says the server is gone.
    await syncStatus(sender.page).filter({ hasText: 'Offline' }).waitFor({ timeout: 8_000 });

    await sender.sendPrompt(HUG, ['Bo Tester']);
    await sender.toast.filter({ hasText: "Saved, will send when you're back online" }).waitFor();
    expect(await sender.toast.filter({ hasText: 'Pings sent!' }).count()).toBe(0);
    const card = sender.card('Ping to Bo');
    await card.getByTestId('ping-pending').filter({ hasText: 'Waiting to send' }).waitFor();
    await sender.page.screenshot({ path: artifact('offline-send-saved.png') });

    await home.goTo('Activity');
    const activity = new ActivityPage(sender.page);
    const status = activity.list
      .getByRole('listitem')
      .filter({ hasText: 'You pinged Bo' })
      .getByTestId('activity-status');
    await status.filter({ hasText: 'Waiting to send' }).waitFor();
    await sender.page.screenshot({ path: artifact('offline-activity-waiting.png') });
    expect(await receivedPings(bo)).toEqual([]);

    await cable.restore();
    await status.filter({ hasText: /^Sent$/ }).waitFor({ timeout: 40_000 });
    expect(await receivedPings(bo)).toHaveLength(1);
    await syncStatus(sender.page).filter({ hasText: 'Online' }).waitFor();
  });

  it('a socket that stops answering the heartbeat shows Offline within seconds', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    let silent = false;
    proxy = await startLoopbackProxy(inject('serverPort'), { toClient: () => !silent });
    const { page } = await homeThrough(ada, proxy.url);
    await syncStatus(page).filter({ hasText: 'Online' }).waitFor();

    // The server's end of the socket goes quiet with no close on the wire (a dead server, a
    // network that drops packets): only the missing answers to the heartbeat tell.
    silent = true;
    await syncStatus(page).filter({ hasText: 'Offline' }).waitFor({ timeout: 12_000 });
    await page.screenshot({ path: artifact('heartbeat-offline.png') });

    silent = false;
    await page.locator('.sync-status--live').waitFor({ timeout: 40_000 });
    await syncStatus(page).filter({ hasText: 'Online' }).waitFor();
  });
});
