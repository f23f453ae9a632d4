/**
 * The 'new version available' prompt (issue 15, item 14) with two real builds: this checkout's
 * app built once more under another version name (support/old-build.ts, pwaBuildNamed) is
 * served first and installed by its service worker; then the server serves pwa/dist. The
 * browser's update check finds the new worker, the app asks ('A new version is available'),
 * 'Reload' swaps and reloads, and Settings › App now shows the new version. The API is the run's
 * server throughout; only the app's files move (support/guarantees-proxy.ts, serveAppFrom).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../../sync-server/test/harness';
import { ProfilePage } from './pages/profile-page';
import { artifact, newPage } from './support/browser';
import { startGuaranteeProxy, type GuaranteeProxy } from './support/guarantees-proxy';
import { pwaBuildNamed } from './support/old-build';
import { call, person, signInPage } from './support/people';

const PREVIOUS = 'previous-e2e';
const CURRENT = (
  JSON.parse(
    readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

let proxy: GuaranteeProxy | undefined;
let previousApp: TestServer | undefined;
let previousDist: string;
// A whole `vite build`: up to minutes on a busy machine, so not inside the test's own time.
beforeAll(() => {
  previousDist = pwaBuildNamed(PREVIOUS);
}, 600_000);
afterAll(() => rmSync(previousDist, { recursive: true, force: true }));
afterEach(async () => {
  await proxy?.close();
  await previousApp?.stop();
  proxy = previousApp = undefined;
});

async function shownVersion(page: Page): Promise<string> {
  const profile = new ProfilePage(page);
  await profile.open();
  await profile.tab('Settings').click();
  const version = page.getByRole('region', { name: 'App' }).getByText(/^Version /);
  return (await version.textContent()) ?? '';
}

describe('a new version of the app', () => {
  it("is offered with 'A new version is available', and 'Reload' brings it", async () => {
    previousApp = await startTestServer({
      PWA_DIST: previousDist,
      SESSION_SECRET: inject('sessionSecret'),
    });
    proxy = await startGuaranteeProxy(inject('serverPort'));
    proxy.serveAppFrom(previousApp.port);

    const uma = await person('Uma');
    await call(uma, 'PUT', '/api/profile/update', { handle: `uma_${Date.now() % 1_000_000}` });
    const page = await newPage({ baseURL: proxy.url });
    await signInPage(page, uma, proxy.url);
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await shownVersion(page)).toBe(`Version ${PREVIOUS}`);

    // The next release is published; the browser checks its worker (on navigation, and now).
    proxy.serveAppFrom(undefined);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await prompt.waitFor({ timeout: 30_000 });
    // Nothing swapped under the person: still the previous app until they say so.
    expect(
      await page
        .getByRole('region', { name: 'App' })
        .getByText(/^Version /)
        .textContent(),
    ).toBe(`Version ${PREVIOUS}`);
    await page.screenshot({ path: artifact('update-prompt.png') });
    await Promise.all([
      page.waitForEvent('load', { timeout: 30_000 }),
      prompt.getByRole('button', { name: 'Reload' }).click(),
    ]);
    expect(await shownVersion(page)).toBe(`Version ${CURRENT}`);
    expect(await prompt.count()).toBe(0);
  });
});
