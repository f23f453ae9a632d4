/**
 * What the Lighthouse work (bench/pwa-lighthouse.ts, docs/performance.md "Lighthouse") relies on,
 * checked in the real browser against the real server: the build's text files travel compressed,
 * the session check is one request that leaves with the page (index.html preloads it) and
 * answers a visitor without an error, and a visitor's landing page fetches the toast viewport, the sync host and workbox-window only after
 * its first frame.
 */
import { describe, expect, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { HomePage } from './pages/home-page';
import { LandingPage } from './pages/landing-page';
import { ProfilePage } from './pages/profile-page';
import { artifact, newPage } from './support/browser';
import { befriend, person, requestFriendship, signInPage } from './support/people';

/** What the server answers a request it failed on (sync-server/src/errors.ts, 'internal'). */
const SERVER_ERROR = {
  status: 500,
  contentType: 'application/json',
  body: JSON.stringify({
    error: 'Something went wrong on our side. Please try again.',
    code: 'internal',
  }),
};

describe('first load', () => {
  it('sends the app shell compressed: index.html, the scripts and the stylesheet', async () => {
    const page = await newPage();
    // Path → the encoding it came with and its length on the wire (koa-send sets Content-Length).
    const encodings = new Map<string, string>();
    const sizes = new Map<string, number>();
    page.on('response', async (res) => {
      const path = new URL(res.url()).pathname;
      if (path !== '/' && !/^\/assets\/.+\.(js|css)$/.test(path)) return;
      // A chunk still arriving when the test is over and its page closed has no headers to
      // read any more: it was not one the test looked at, and is not an error of the app.
      const headers = await res.allHeaders().catch(() => undefined);
      if (!headers) return;
      sizes.set(path, Number(headers['content-length'] ?? Number.NaN));
      encodings.set(path, headers['content-encoding'] ?? 'identity');
    });
    await page.goto('/');
    await page.getByText('One tap. Real emotion. Stay connected.').waitFor();
    const entry = await page.locator('script[type="module"][src]').first().getAttribute('src');
    const css = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
    // The chunks fetched after the first frame are checked too: wait for the sync host's.
    await expect
      .poll(() => [...encodings.keys()].some((p) => /\/SyncHost-.+\.js$/.test(p)), {
        timeout: 10_000,
      })
      .toBe(true);
    for (const path of ['/', entry!, css!]) {
      expect(['br', 'gzip'], `${path} is sent compressed`).toContain(encodings.get(path));
    }
    // Every script but the tiny ones (under 1 KB the build keeps no compressed copy).
    const plain = [...encodings].filter(([p, e]) => e === 'identity' && !(sizes.get(p)! < 1024));
    expect(plain).toEqual([]);
  });

  it('asks the server who this is once, before the scripts ran, and shows the landing page', async () => {
    const page = await newPage();
    // Requests as they leave and scripts as they arrive, in the order the browser saw them.
    const events: string[] = [];
    page.on('request', (req) => events.push(`request ${new URL(req.url()).pathname}`));
    page.on('requestfinished', (req) => events.push(`arrived ${new URL(req.url()).pathname}`));
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Connecting' }).waitFor();
    expect(events.filter((e) => e === 'request /api/session')).toHaveLength(1);
    // The check left with the page (index.html preloads it), before the entry script had even
    // arrived, let alone run.
    const entryArrived = events.findIndex((e) => /^arrived \/assets\/index-.+\.js$/.test(e));
    expect(entryArrived).toBeGreaterThan(0);
    expect(events.indexOf('request /api/session')).toBeLessThan(entryArrived);
    // The sync host and workbox-window come after the first frame, and the worker registers.
    await expect
      .poll(() => events.some((e) => /^request \/assets\/SyncHost-.+\.js$/.test(e)), {
        timeout: 10_000,
      })
      .toBe(true);
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then(Boolean)), {
        timeout: 15_000,
      })
      .toBe(true);
  });

  it("a visitor's landing page logs no error: the session check answers 200, no 4xx at all", async () => {
    const page = await newPage();
    const errors: string[] = [];
    const failures: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('response', (res) => {
      if (res.status() >= 400) failures.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });
    const session = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session');
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Connecting' }).waitFor();
    const answer = await session;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ user: null });
    // The chunks after the first frame and the service worker's registration are in too.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then(Boolean)), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(failures).toEqual([]);
    expect(errors).toEqual([]);
    // Asking created no session: the browser holds no cookie of this server.
    expect(await page.context().cookies()).toEqual([]);
  });

  it('a signed-in start takes the preloaded session answer: one request, Home shows', async () => {
    const who = await person('Preload', 'Tester');
    const page = await newPage();
    await signInPage(page, who);
    let checks = 0;
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/session') checks += 1;
    });
    await page.goto('/');
    await new HomePage(page).name.filter({ hasText: 'Preload Tester' }).waitFor();
    expect(checks).toBe(1);
  });

  it("a new device shows the person's header, the banner and a polite loading state until the first sync, and nothing moves when Home arrives", async () => {
    const who = await person('Newdevice', 'Tester');
    const friend = await person('Fenna', 'Tester');
    const asker = await person('Askia', 'Tester');
    await befriend(who, friend);
    await requestFriendship(asker, who);
    const page = await newPage();
    await signInPage(page, who);
    // Every layout shift of the page, from its start (Lighthouse's CLS counts the same entries).
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.shifts.push((e as unknown as { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // Hold the first pull until the loading state has been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sync/pull**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    const status = page.getByRole('status').filter({ hasText: 'Loading your pings…' });
    await status.waitFor();
    expect(await page.locator('[aria-busy="true"]').filter({ has: status }).count()).toBe(1);
    // Who this is comes with the session: the header is there, its counters not yet known, and
    // its tour waits for the sections it shows.
    const heading = page.getByRole('heading', { level: 1, name: 'Newdevice Tester' });
    expect(await heading.count()).toBe(1);
    const counters = page.getByRole('list', { name: 'Your numbers' });
    expect(await counters.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByTestId('counter-pings').textContent()).toBe('– pings');
    expect(
      await page.getByRole('button', { name: 'Help: show the guided tour' }).isDisabled(),
    ).toBe(true);
    // The banner is there already, from the server's answer, not the snapshot still held.
    const banner = page.getByRole('complementary', { name: 'Friend requests' });
    expect(await banner.count()).toBe(1);
    expect(await banner.textContent()).toContain('You have 1 friend request!');
    // Not the empty Home (its 'Connect with Friends' card; the default tagline says 'Ready to
    // connect with friends!'): nothing that the snapshot would replace.
    expect(await page.getByText('Connect with Friends', { exact: true }).count()).toBe(0);
    await page.screenshot({ path: artifact('home-first-sync.png') });
    // The header's element is marked, to see that the same one is still there afterwards.
    await heading.evaluate((el) => el.setAttribute('data-before-sync', 'yes'));
    const headerTop = await heading.evaluate((el) => el.getBoundingClientRect().top);
    release();
    await page.getByText('Fenna').first().waitFor({ timeout: 15_000 });
    expect(await status.count()).toBe(0);
    expect(await heading.getAttribute('data-before-sync')).toBe('yes');
    expect(await heading.evaluate((el) => el.getBoundingClientRect().top)).toBe(headerTop);
    expect(await page.getByTestId('counter-friends').textContent()).toBe('1 friend');
    expect(await counters.getAttribute('aria-busy')).toBeNull();
    expect(
      await page.getByRole('button', { name: 'Help: show the guided tour' }).isDisabled(),
    ).toBe(false);
    expect(await banner.count()).toBe(1);
    // The counters' text changes in place ('–' to '1', 'friends' to 'friend', centred): Chrome
    // counts that as a few hundred-thousandths. A header, banner or section that moved would be
    // hundreds of times more (a shift's score is the share of the screen moved times how far).
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((a, b) => a + b, 0)).toBeLessThan(0.001);
    await page.screenshot({ path: artifact('home-after-first-sync.png') });
  });

  it('a new device whose first pull fails says so and tries again by itself until Home comes', async () => {
    const who = await person('Failing', 'Pull');
    const friend = await person('Filipa', 'Pull');
    await befriend(who, friend);
    const page = await newPage();
    await signInPage(page, who);
    let failing = true;
    let pulls = 0;
    await page.route('**/api/sync/pull**', async (route) => {
      pulls += 1;
      if (!failing) return route.continue();
      await route.fulfill(SERVER_ERROR);
    });
    await page.goto('/');
    const status = page
      .getByRole('status')
      .filter({ hasText: 'Your pings could not be loaded yet. Trying again…' });
    await status.waitFor();
    // The server is reachable: this is not the offline state, and no empty Home either.
    expect(await page.getByTestId('sync-status').textContent()).toContain('Online');
    expect(await page.getByText('Connect with Friends', { exact: true }).count()).toBe(0);
    // It tries again by itself, backing off from a second, not a minute later.
    await expect.poll(() => pulls, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: artifact('home-first-pull-failed.png') });
    expect(await page.getByRole('button', { name: 'Try again' }).isEnabled()).toBe(true);
    // The sync details say it too (a device with data shows no loading state, only this).
    await page.getByTestId('sync-status').getByRole('button').click();
    await page.getByTestId('sync-pull-failed').waitFor();
    await page.screenshot({ path: artifact('sync-details-pull-failed.png') });
    // The server answers again: the next automatic try brings Home (what 'Try again' does at once
    // is src/components/home/HomeLoading.test.tsx's).
    failing = false;
    await page.getByText('Filipa').first().waitFor({ timeout: 15_000 });
    expect(await status.count()).toBe(0);
    expect(await page.getByTestId('counter-friends').textContent()).toBe('1 friend');
    expect(await page.getByTestId('sync-pull-failed').count()).toBe(0);
  });

  it('someone signing in on the page after a failed first pull gets their own loading state, not that failure', async () => {
    const first = await person('Firstfails', 'Tester');
    const second = await person('Secondwaits', 'Tester');
    const page = await newPage();
    let mode: 'fail' | 'hold' = 'fail';
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sync/pull**', async (route) => {
      if (mode === 'hold') {
        await held;
        return route.continue();
      }
      await route.fulfill(SERVER_ERROR);
    });
    const auth = new AuthPage(page);
    await auth.open();
    await auth.signIn(first.email, first.password);
    await page.getByText('Your pings could not be loaded yet. Trying again…').waitFor();
    // Signed out and the next person signed in on the same page: no reload in between.
    const home = new HomePage(page);
    await home.goTo('Profile');
    await new ProfilePage(page).signOut();
    const landing = new LandingPage(page);
    await landing.startConnecting.waitFor();
    mode = 'hold';
    await landing.startConnectingNow();
    await auth.loginTab.click();
    await auth.signIn(second.email, second.password);
    await page.getByRole('heading', { level: 1, name: 'Secondwaits Tester' }).waitFor();
    const status = page.locator('.home-loading [role="status"]');
    await status.waitFor();
    expect(await status.textContent()).toBe('Loading your pings…');
    release();
    await expect.poll(() => status.count(), { timeout: 15_000 }).toBe(0);
  });

  it('a device that has synced once never shows the loading state again, even when the pull hangs', async () => {
    const who = await person('Synced', 'Tester');
    const friend = await person('Faye', 'Tester');
    await befriend(who, friend);
    const page = await newPage();
    await signInPage(page, who);
    await page.goto('/');
    await page.getByText('Faye').first().waitFor({ timeout: 15_000 });
    // The next start cannot reach the pull at all: Home shows what the device holds.
    await page.route('**/api/sync/pull**', () => undefined);
    const seen: string[] = [];
    await page.exposeFunction('sawLoading', (text: string) => seen.push(text));
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const el = document.querySelector('.home-loading');
        if (el)
          (window as unknown as { sawLoading(t: string): void }).sawLoading(el.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Synced Tester' }).waitFor();
    await page.getByText('Faye').first().waitFor();
    expect(seen).toEqual([]);
  });
});
