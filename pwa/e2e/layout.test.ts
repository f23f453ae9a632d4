/**
 * Every screen and dialog at 320, 390, 768 and 1280 px wide (issue 15, items 5 and 13; with the
 * screens of part A: the inbox, prompt editing, unfriend, the anchor request's answer), with
 * people whose names and pings are as long as real ones get: nothing scrolls sideways, no text is
 * clipped without an ellipsis, every ellipsis has the full text in a label (support/layout.ts).
 * Plus the defects found by hand: the Home strips start at their first tile, the floating button
 * leaves the last text readable, a long toast stays on the screen and off the title.
 * Screenshots of every screen and dialog at 320 and 390 px land in e2e/artifacts/layout-*.png.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

async function check(page: Page, width: number, what: string): Promise<void> {
  // Fonts and lazy chunks settle, and transitions (dialogs fade in) end.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(350);
  const problems = await layoutProblems(page);
  if (SHOT_WIDTHS.has(width))
    await page.screenshot({
      path: artifact(`layout-${width}-${what.replace(/[^a-z0-9]+/gi, '-')}.png`),
    });
  found.push(...problems.map((p) => `${what} at ${width} px: ${p}`));
}

async function signedInPage(who: Person, width: number): Promise<Page> {
  const page = await newPage({ viewport: { width, height: 800 } });
  await signInPage(page, who);
  return page;
}

async function screen(page: Page, path: string, title: string | RegExp): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: title }).first().waitFor();
}

async function dialog(page: Page, width: number, open: () => Promise<void>, what: string) {
  await open();
  const shown = page.getByRole('dialog').last();
  await shown.waitFor();
  await check(page, width, what);
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'hidden' });
}

describe.each(WIDTHS)('at %i px wide', (width) => {
  it('every signed-out screen and dialog fits', async () => {
    const page = await newPage({ viewport: { width, height: 800 } });
    await screen(page, '/', 'PingMe');
    await check(page, width, 'landing');
    await screen(page, '/auth', /PingMe|Welcome/);
    await check(page, width, 'auth');
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: /Forgot your password/ }).click(),
      'forgot-password',
    );
    await page.goto('/reset-password?token=abc&welcome=true');
    await page.getByRole('heading', { name: 'Set Your Password' }).waitFor();
    await check(page, width, 'reset-password');
    await page.goto('/verify-email');
    await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
    await check(page, width, 'verify-email');
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await check(page, width, 'not-found');
  });

  it('every signed-in screen and its dialogs fit', { timeout: 180_000 }, async () => {
    const page = await signedInPage(ada, width);
    await screen(page, '/', 'Adaline Lovelace-Wolfeschlegel');
    await page
      .getByRole('region', { name: 'Recent Activity' })
      .getByRole('article')
      .first()
      .waitFor();
    // The last card of Home appears once the service worker answers: wait for it.
    await page.getByTestId('notifications-toggle').waitFor();
    await check(page, width, 'home');
    // The strips start at their first tile.
    for (const strip of ['.anchor-strip', '.friend-strip'])
      expect(await page.locator(strip).evaluate((el) => el.scrollLeft), strip).toBe(0);
    // Scrolled to the end, the floating button lies over no text.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
    if (SHOT_WIDTHS.has(width))
      await page.screenshot({ path: artifact(`layout-${width}-home-end.png`) });
    expect(await textsUnder(page.locator('a.fab'))).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: 'Add Anchor' }).click(),
      'home-anchor',
    );
    // A prompt's send dialog, and the Custom Ping dialog.
    for (const [tile, what] of [
      [/need a hug/, 'home-send-prompt'],
      [/Custom Ping/, 'home-custom-ping'],
    ] as const) {
      const yourPings = page.getByRole('region', { name: 'Your Pings' });
      await dialog(page, width, () => yourPings.getByRole('button', { name: tile }).click(), what);
    }
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: /Help: show the guided tour/ }).click(),
      'home-tour',
    );
    await dialog(
      page,
      width,
      () =>
        page
          .getByRole('region', { name: 'Anchor Pings' })
          .getByRole('button', { name: /Anchor request from Margaret/ })
          .click(),
      'home-anchor-request',
    );

    await screen(page, '/inbox', 'Inbox');
    await page.getByRole('list', { name: 'Received pings' }).getByRole('article').first().waitFor();
    await check(page, width, 'inbox');

    await screen(page, '/pings', 'Ping Library');
    await check(page, width, 'library');
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: '+ New Prompt' }).click(),
      'library-new',
    );
    const own = page.getByRole('listitem').filter({ hasText: 'kettle is on' });
    await dialog(
      page,
      width,
      () => own.getByRole('button', { name: /^Send/ }).click(),
      'library-send',
    );
    await dialog(
      page,
      width,
      () => own.getByRole('button', { name: /^Assign/ }).click(),
      'library-assign',
    );
    await dialog(
      page,
      width,
      () => own.getByRole('button', { name: /^Delete/ }).click(),
      'library-delete',
    );
    await dialog(
      page,
      width,
      () => own.getByRole('button', { name: /^Edit/ }).click(),
      'library-edit',
    );

    await screen(page, '/friends', 'Friends');
    await page
      .getByRole('region', { name: /^Friend Requests/ })
      .getByRole('listitem')
      .filter({ hasText: 'Calloway' })
      .first()
      .waitFor();
    await check(page, width, 'friends');
    const katRow = page
      .getByRole('region', { name: /^Your Friends/ })
      .getByRole('listitem')
      .filter({ hasText: 'Katherine' });
    await dialog(
      page,
      width,
      () => katRow.getByRole('button', { name: /^Mood/ }).click(),
      'friends-mood',
    );
    await dialog(
      page,
      width,
      () => katRow.getByRole('button', { name: /^Surprise/ }).click(),
      'friends-surprise',
    );
    await dialog(
      page,
      width,
      () => katRow.getByRole('button', { name: /^Insights/ }).click(),
      'friends-insights',
    );
    // A toast with a long word stays on the screen and off the title.
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
    await check(page, width, 'friends-toast');
    expect(await textsUnder(shared)).not.toContain('Friends');
    expect(await textsUnder(shared)).not.toContain('PingMe');

    await screen(page, '/friends-search', 'Find Friends');
    await check(page, width, 'friends-search');
    await screen(page, `/friend/${kat.id}`, /Katherine/);
    await check(page, width, 'friend');
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: 'Unfriend', exact: true }).click(),
      'friend-unfriend',
    );
    await screen(page, `/ping-friend/${kat.id}`, 'Send a Ping');
    await check(page, width, 'ping-friend');
    await screen(page, '/activity', 'Activity');
    await check(page, width, 'activity');
    await screen(page, '/notifications', 'Notifications');
    await check(page, width, 'notifications');
    await screen(page, '/analytics', 'Analytics');
    await check(page, width, 'analytics');
    await screen(page, '/profile', 'Profile');
    await check(page, width, 'profile');
    await screen(page, `/profile/${kat.id}`, 'Profile');
    await check(page, width, 'profile-friend');
    await dialog(
      page,
      width,
      () => page.getByRole('button', { name: 'Report', exact: true }).click(),
      'profile-report',
    );
    await screen(page, '/privacy-settings', 'Privacy Settings');
    await check(page, width, 'privacy');
    await page.goto(`/invite/${invite}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await check(page, width, 'invite');
  });

  it('the admin dashboard fits', async () => {
    const page = await signedInPage(admin, width);
    await screen(page, '/admin', 'Admin Dashboard');
    await page.getByRole('region', { name: 'Overview' }).waitFor();
    await check(page, width, 'admin');
  });
});
