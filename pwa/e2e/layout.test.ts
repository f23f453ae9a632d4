/**
 * Every screen and dialog at 320, 390, 768 and 1280 px wide (issue 15, items 5 and 13; with the
 * screens of part A: the inbox, prompt editing, unfriend, the anchor request's answer), with
 * people whose names and pings are as long as real ones get: nothing scrolls sideways, no text is
 * clipped without an ellipsis, every ellipsis has the full text in a label (support/layout.ts).
 * Each screen is opened at one of the widths in turn (a person opens the app at any size) and
 * checked there, then at each other width by resizing the window, as a rotated tablet or a
 * dragged window does: every width sees every screen and dialog, each screen is loaded once.
 * Plus the defects found by hand: the Home strips start at their first tile, the floating button
 * leaves the last text readable, a long toast stays on the screen and off the title.
 * Screenshots of every screen and dialog at 320 and 390 px land in e2e/artifacts/layout-*.png.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { E2E_LAYOUT_ADMIN_EMAIL } from './global-setup';
import { artifact, newPage } from './support/browser';
import { layoutProblems, textsUnder } from './support/layout';
import {
  askAnchor,
  befriend,
  call,
  customPing,
  inviteCodeOf,
  makeAcceptedAnchor,
  person,
  requestFriendship,
  sendPingByApi,
  signInPage,
  verifyByMail,
  type Person,
} from './support/people';

const WIDTHS = [320, 390, 768, 1280] as const;
const SHOT_WIDTHS = new Set<number>([320, 390]);
const HEIGHT = 800;

const LONG_PING =
  'Ping me when you finally finish that extraordinarily-long-hyphenated-reading-list and want to ' +
  'talk about every single chapter over chai on the balcony';

/** One long word: a name that no line is wide enough for. */
const WOLF = 'Wolfeschlegelsteinhausenbergerdorff';

let ada: Person;
let kat: Person;
let admin: Person;
let invite: string;

beforeAll(async () => {
  [ada, kat, admin] = await Promise.all([
    person('Adaline', 'Lovelace-Wolfeschlegel'),
    person('Katherine', 'Johnson-Goble'),
    person('Layout', 'Admin', { email: E2E_LAYOUT_ADMIN_EMAIL }),
  ]);
  const [cal, meg, grace, dot, wolf] = await Promise.all([
    person('Calloway', 'Richardson'),
    person('Margaret', 'Hamilton'),
    person('Grace', 'Brewster-Hopper'),
    person('Dorothy', 'Vaughan'),
    person(WOLF, 'Senior'),
  ]);
  await verifyByMail(E2E_LAYOUT_ADMIN_EMAIL);
  await Promise.all([
    befriend(ada, kat),
    befriend(ada, meg),
    befriend(ada, grace),
    befriend(ada, wolf),
  ]);
  await Promise.all([requestFriendship(cal, ada), requestFriendship(ada, dot)]);
  await makeAcceptedAnchor(ada, kat, {
    text: 'Ping me when you miss our long walks',
    emoji: '🌙',
    label: 'Chai buddy forever!!',
  });
  await askAnchor(meg, ada);
  await customPing(kat, ada, { customText: LONG_PING, customEmoji: '📚' });
  await sendPingByApi(meg, ada);
  await sendPingByApi(ada, grace);
  await call(kat, 'POST', '/api/moods', { friendId: ada.id, mood: 'melancholy', emoji: '🌧️' });
  await call(ada, 'POST', '/api/prompts', {
    text: 'Ping me when the kettle is on and you have a whole afternoon to talk',
    emoji: '🫖',
  });
  invite = await inviteCodeOf(kat);
}, 60_000);

/** Every problem of one test, so a run lists them all instead of stopping at the first. */
let found: string[] = [];
beforeEach(() => {
  found = [];
});
afterEach((ctx) => {
  if (ctx.task.result?.state !== 'fail') expect(found).toEqual([]);
});

/** The widths of one check: the one the page is at first, then the others. */
function widthsFrom(page: Page): number[] {
  const at = page.viewportSize()?.width ?? WIDTHS[0];
  return [at, ...WIDTHS.filter((w) => w !== at)];
}

/** Resizes the window (when it is not that wide already) and waits for the layout to follow. */
async function resize(page: Page, width: number): Promise<void> {
  if (page.viewportSize()?.width === width) return;
  await page.setViewportSize({ width, height: HEIGHT });
  // Two frames: the resize is laid out and painted; then any transition it started ends.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Checks what is on the screen at every width, starting with the one it was opened at, and
 * leaves the window at that one.
 */
async function check(page: Page, what: string): Promise<void> {
  // Fonts and lazy chunks settle, and transitions (dialogs fade in) end.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  const widths = widthsFrom(page);
  for (const width of widths) {
    await resize(page, width);
    const problems = await layoutProblems(page);
    if (SHOT_WIDTHS.has(width))
      await page.screenshot({
        path: artifact(`layout-${width}-${what.replace(/[^a-z0-9]+/gi, '-')}.png`),
      });
    found.push(...problems.map((p) => `${what} at ${width} px: ${p}`));
  }
  await resize(page, widths[0]!);
}

/** The width the next screen opens at: each in turn. */
let opened = 0;
function nextWidth(): number {
  return WIDTHS[opened++ % WIDTHS.length]!;
}

async function signedInPage(who: Person): Promise<Page> {
  const page = await newPage({ viewport: { width: nextWidth(), height: HEIGHT } });
  await signInPage(page, who);
  return page;
}

/** Opens `path` at the next width and waits for its title. */
async function screen(page: Page, path: string, title: string | RegExp): Promise<void> {
  await resize(page, nextWidth());
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: title }).first().waitFor();
}

async function dialog(page: Page, open: () => Promise<void>, what: string) {
  await open();
  const shown = page.getByRole('dialog').last();
  await shown.waitFor();
  await check(page, what);
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'hidden' });
}

it('every signed-out screen and dialog fits at every width', async () => {
  const page = await newPage({ viewport: { width: nextWidth(), height: HEIGHT } });
  await screen(page, '/', 'PingMe');
  await check(page, 'landing');
  await screen(page, '/auth', /PingMe|Welcome/);
  await check(page, 'auth');
  await dialog(
    page,
    () => page.getByRole('button', { name: /Forgot your password/ }).click(),
    'forgot-password',
  );
  await resize(page, nextWidth());
  await page.goto('/reset-password?token=abc&welcome=true');
  await page.getByRole('heading', { name: 'Set Your Password' }).waitFor();
  await check(page, 'reset-password');
  await resize(page, nextWidth());
  await page.goto('/verify-email');
  await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
  await check(page, 'verify-email');
  await resize(page, nextWidth());
  await page.goto('/no/such/page');
  await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  await check(page, 'not-found');
});

it('every signed-in screen and its dialogs fit at every width', { timeout: 180_000 }, async () => {
  const page = await signedInPage(ada);
  await screen(page, '/', 'Adaline Lovelace-Wolfeschlegel');
  await page
    .getByRole('region', { name: 'Recent Activity' })
    .getByRole('article')
    .first()
    .waitFor();
  // The last card of Home appears once the service worker answers: wait for it.
  await page.getByTestId('notifications-toggle').waitFor();
  await check(page, 'home');
  for (const width of widthsFrom(page)) {
    await resize(page, width);
    // The strips start at their first tile.
    for (const strip of ['.anchor-strip', '.friend-strip'])
      expect(
        await page.locator(strip).evaluate((el) => el.scrollLeft),
        `${strip} at ${width} px`,
      ).toBe(0);
    // Scrolled to the end, the floating button lies over no text.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
    if (SHOT_WIDTHS.has(width))
      await page.screenshot({ path: artifact(`layout-${width}-home-end.png`) });
    expect(await textsUnder(page.locator('a.fab')), `at ${width} px`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  await resize(page, widthsFrom(page)[0]!);
  await dialog(page, () => page.getByRole('button', { name: 'Add Anchor' }).click(), 'home-anchor');
  // A prompt's send dialog, and the Custom Ping dialog.
  for (const [tile, what] of [
    [/need a hug/, 'home-send-prompt'],
    [/Custom Ping/, 'home-custom-ping'],
  ] as const) {
    const yourPings = page.getByRole('region', { name: 'Your Pings' });
    await dialog(page, () => yourPings.getByRole('button', { name: tile }).click(), what);
  }
  await dialog(
    page,
    () => page.getByRole('button', { name: /Help: show the guided tour/ }).click(),
    'home-tour',
  );
  await dialog(
    page,
    () =>
      page
        .getByRole('region', { name: 'Anchor Pings' })
        .getByRole('button', { name: /Anchor request from Margaret/ })
        .click(),
    'home-anchor-request',
  );

  await screen(page, '/inbox', 'Inbox');
  await page.getByRole('list', { name: 'Received pings' }).getByRole('article').first().waitFor();
  await check(page, 'inbox');

  await screen(page, '/pings', 'Ping Library');
  await check(page, 'library');
  await dialog(
    page,
    () => page.getByRole('button', { name: '+ New Prompt' }).click(),
    'library-new',
  );
  const own = page.getByRole('listitem').filter({ hasText: 'kettle is on' });
  await dialog(page, () => own.getByRole('button', { name: /^Send/ }).click(), 'library-send');
  await dialog(page, () => own.getByRole('button', { name: /^Assign/ }).click(), 'library-assign');
  await dialog(page, () => own.getByRole('button', { name: /^Delete/ }).click(), 'library-delete');
  await dialog(page, () => own.getByRole('button', { name: /^Edit/ }).click(), 'library-edit');

  await screen(page, '/friends', 'Friends');
  await page
    .getByRole('region', { name: /^Friend Requests/ })
    .getByRole('listitem')
    .filter({ hasText: 'Calloway' })
    .first()
    .waitFor();
  await check(page, 'friends');
  const katRow = page
    .getByRole('region', { name: /^Your Friends/ })
    .getByRole('listitem')
    .filter({ hasText: 'Katherine' });
  await dialog(page, () => katRow.getByRole('button', { name: /^Mood/ }).click(), 'friends-mood');
  await dialog(
    page,
    () => katRow.getByRole('button', { name: /^Surprise/ }).click(),
    'friends-surprise',
  );
  await dialog(
    page,
    () => katRow.getByRole('button', { name: /^Insights/ }).click(),
    'friends-insights',
  );
  // A toast with a long word stays on the screen and off the title, at every width.
  const wolfRow = page
    .getByRole('region', { name: /^Your Friends/ })
    .getByRole('listitem')
    .filter({ hasText: WOLF });
  await wolfRow.getByRole('button', { name: /^Mood/ }).click();
  const moods = page.getByRole('dialog', { name: 'Share your mood' });
  await moods.locator('label').filter({ hasText: 'Cozy' }).click();
  await moods.getByRole('button', { name: 'Share Mood' }).click();
  const shared = page.locator('.toast').filter({ hasText: WOLF });
  await shared.waitFor();
  for (const width of widthsFrom(page)) {
    await resize(page, width);
    const under = await textsUnder(shared);
    expect(under, `at ${width} px`).not.toContain('Friends');
    expect(under, `at ${width} px`).not.toContain('PingMe');
  }
  await resize(page, widthsFrom(page)[0]!);
  await check(page, 'friends-toast');

  await screen(page, '/friends-search', 'Find Friends');
  await check(page, 'friends-search');
  await screen(page, `/friend/${kat.id}`, /Katherine/);
  await check(page, 'friend');
  await dialog(
    page,
    () => page.getByRole('button', { name: 'Unfriend', exact: true }).click(),
    'friend-unfriend',
  );
  await screen(page, `/ping-friend/${kat.id}`, 'Send a Ping');
  await check(page, 'ping-friend');
  await screen(page, '/activity', 'Activity');
  await check(page, 'activity');
  await screen(page, '/notifications', 'Notifications');
  await check(page, 'notifications');
  await screen(page, '/analytics', 'Analytics');
  await check(page, 'analytics');
  await screen(page, '/profile', 'Profile');
  await check(page, 'profile');
  await screen(page, `/profile/${kat.id}`, 'Profile');
  await check(page, 'profile-friend');
  await dialog(
    page,
    () => page.getByRole('button', { name: 'Report', exact: true }).click(),
    'profile-report',
  );
  await screen(page, '/privacy-settings', 'Privacy Settings');
  await check(page, 'privacy');
  await resize(page, nextWidth());
  await page.goto(`/invite/${invite}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await check(page, 'invite');
});

it('the admin dashboard fits at every width', async () => {
  const page = await signedInPage(admin);
  await screen(page, '/admin', 'Admin Dashboard');
  await page.getByRole('region', { name: 'Overview' }).waitFor();
  await check(page, 'admin');
});
