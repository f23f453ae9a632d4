/**
 * Home's notifications card (issue 15, item 15): offered only while the browser would still ask
 * (permission 'default'), gone once notifications are allowed or blocked, and gone for good after
 * 'Not now'. Settings keeps the switch in every case. Chromium's permission for the page's origin
 * is set per browser context (granted, or denied: CDP's grant rejects every permission it does
 * not name).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ProfilePage } from './pages/profile-page';
import { artifact, baseUrl } from './support/browser';
import { call, pageAs, person, type Person } from './support/people';

const OFFER = 'Get a notification when a friend pings you, even when PingMe is closed.';

/** A person past setup with a handle: their profile shows its tabs, Settings among them. */
async function someone(firstName: string): Promise<Person> {
  const who = await person(firstName);
  const handle = `${firstName.toLowerCase()}_${Date.now() % 1_000_000}`;
  await call(who, 'PUT', '/api/profile/update', { handle });
  return who;
}

async function homeSettled(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('region', { name: 'Recent Activity' }).waitFor();
  // The card's state comes from the service worker's registration: wait for it to be known.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForTimeout(300);
}

async function settingsToggle(page: Page) {
  const profile = new ProfilePage(page);
  await profile.open();
  await profile.tab('Settings').click();
  return page.getByRole('region', { name: 'Notifications' }).getByTestId('notifications-toggle');
}

describe('the notifications card on Home', () => {
  it("is offered while the browser would ask; 'Not now' hides it for good, Settings keeps it", async () => {
    const page = await pageAs(await someone('Nora'));
    await homeSettled(page);
    const card = page.getByTestId('notifications-toggle');
    await card.getByText(OFFER).waitFor();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('notifications-card.png') });
    await card.getByRole('button', { name: 'Not now' }).click();
    await card.waitFor({ state: 'detached' });
    await homeSettled(page);
    expect(await card.count()).toBe(0);
    await page.reload();
    await homeSettled(page);
    expect(await card.count()).toBe(0);
    const inSettings = await settingsToggle(page);
    await inSettings.getByRole('button', { name: 'Turn on notifications' }).waitFor();
  });

  it('is not shown once notifications are allowed', async () => {
    const page = await pageAs(await someone('Gina'));
    await page.context().grantPermissions(['notifications'], { origin: baseUrl });
    await page.goto('/');
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    await homeSettled(page);
    expect(await page.getByTestId('notifications-toggle').count()).toBe(0);
    await page.screenshot({ path: artifact('notifications-card-granted.png') });
    // Settings still has the switch (this device has no subscription yet).
    const inSettings = await settingsToggle(page);
    await inSettings.getByRole('button', { name: 'Turn on notifications' }).waitFor();
  });

  it('is not shown once notifications are blocked; Settings says how to allow them', async () => {
    const page = await pageAs(await someone('Dena'));
    // Grants one other permission and, with it, denies notifications for the origin.
    await page.context().grantPermissions(['geolocation'], { origin: baseUrl });
    await page.goto('/');
    expect(await page.evaluate(() => Notification.permission)).toBe('denied');
    await homeSettled(page);
    expect(await page.getByTestId('notifications-toggle').count()).toBe(0);
    const inSettings = await settingsToggle(page);
    await inSettings.getByText(/Notifications are blocked for PingMe/).waitFor();
  });
});
