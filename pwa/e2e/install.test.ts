/**
 * Installing the app (issue 15, item 14): Chromium offers installation of the PWA served on
 * loopback (`beforeinstallprompt`), and Settings › App turns that offer into 'Install PingMe';
 * Safari on an iPhone has no such event, so Settings says how to add the app from the Share menu.
 * Chromium never offers installation in an incognito profile, which is what the run's shared
 * browser gives each test: the first test launches a Chromium of its own with a real profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfilePage } from './pages/profile-page';
import { artifact, baseUrl, newPage, PHONE } from './support/browser';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { call, person, signInPage, type Person } from './support/people';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 ' +
  '(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 ' +
  '(KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1';

async function someone(firstName: string): Promise<Person> {
  const who = await person(firstName);
  await call(who, 'PUT', '/api/profile/update', {
    handle: `${firstName.toLowerCase()}_${Date.now() % 1_000_000}`,
  });
  return who;
}

async function appSettings(page: Page) {
  const profile = new ProfilePage(page);
  await profile.open();
  await profile.tab('Settings').click();
  const app = page.getByRole('region', { name: 'App' });
  await app.getByText(/^Version /).waitFor();
  return app;
}

type Prompting = { prompt(): Promise<void> };
type PromptCount = Window & { installPrompts?: number };

let own: { context: BrowserContext; dir: string } | undefined;
afterEach(async () => {
  await own?.context.close();
  if (own) rmSync(own.dir, { recursive: true, force: true });
  own = undefined;
});

/** A page in a Chromium with a profile on disk (not incognito), as a person's browser is. */
async function pageInRealProfile(): Promise<Page> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-install-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL: baseUrl,
    viewport: PHONE,
  });
  own = { context, dir };
  // Counts calls of the browser's prompt(), which the app must make on the person's click.
  await context.addInitScript(() => {
    const proto = (window as unknown as { BeforeInstallPromptEvent?: { prototype: Prompting } })
      .BeforeInstallPromptEvent?.prototype;
    if (!proto) return;
    const prompt = proto.prompt;
    proto.prompt = function (this: Prompting) {
      const w = window as PromptCount;
      w.installPrompts = (w.installPrompts ?? 0) + 1;
      return prompt.call(this);
    };
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return page;
}

describe('installing the app', () => {
  it("Chromium's offer becomes 'Install PingMe' in Settings, which opens the browser's prompt", async () => {
    const page = await pageInRealProfile();
    await signInPage(page, await someone('Ivy'));
    await page.goto('/');
    // Chromium checks installability once the service worker controls fetches.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const app = await appSettings(page);
    const install = app.getByRole('button', { name: 'Install PingMe' });
    await install.waitFor({ timeout: 30_000 });
    await app.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('install-button.png') });
    await install.click();
    // The browser's own install dialog is open (headless Chromium leaves it unanswered).
    await expect.poll(() => page.evaluate(() => (window as PromptCount).installPrompts)).toBe(1);
  });

  it('Safari on an iPhone: how to add PingMe from the Share menu, no install button', async () => {
    const page = await newPage({ userAgent: IPHONE_SAFARI });
    await signInPage(page, await someone('Ines'));
    await page.goto('/');
    const app = await appSettings(page);
    await app.getByText(/tap Share, then Add to Home Screen/).waitFor();
    expect(await app.getByRole('button', { name: 'Install PingMe' }).count()).toBe(0);
    await app.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('install-ios.png') });
  });

  it('Chrome on an iPhone is not Safari: no Share-menu instructions', async () => {
    const page = await newPage({ userAgent: IPHONE_CHROME });
    await signInPage(page, await someone('Ivo'));
    await page.goto('/');
    const app = await appSettings(page);
    expect(await app.getByText(/Add to Home Screen/).count()).toBe(0);
  });
});
