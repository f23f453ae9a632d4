/**
 * The onboarding setup (spec sections 2, 4, 5, 6): a new account must finish it before using the
 * app; 4 steps, the username check, photo and bio, location, friend suggestions, completion,
 * then Home with the guided tour.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { HomePage } from './pages/home-page';
import { SetupPage } from './pages/setup-page';
import { TourPage } from './pages/tour-page';
import { seriousA11yProblems } from './support/axe';
import { artifact, newPage, uniqueEmail, watchPhotoTraffic } from './support/browser';
import {
  call,
  completeSetupByApi,
  eventually,
  login,
  person,
  selfRecord,
  signInPage,
} from './support/people';

/** A 4x4 PNG, enough for the photo pipeline to decode and re-encode. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGM4EaABRwzEcQASUhQBFGG4BQAAAABJRU5ErkJggg==',
  'base64',
);

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const newcomer = (firstName: string) => person(firstName, 'Newcomer', { setupDone: false });

async function expectNoA11yProblems(page: Page) {
  expect(await seriousA11yProblems(page)).toEqual([]);
}

describe('onboarding setup', () => {
  it('signs up, walks the 4 steps (a taken name, a suggestion, photo, bio, location, a friend), completes, then takes the tour', async () => {
    const takenHandle = `taken_${unique()}`;
    const holder = await person('Holder');
    await completeSetupByApi(holder, takenHandle);
    const suggested = await person('Suggested', `Friend${unique()}`);

    const page = await newPage();
    const photoTraffic = watchPhotoTraffic(page);
    const auth = new AuthPage(page);
    await auth.open();
    const email = uniqueEmail('setup');
    await auth.signUp({ firstName: 'Sam', lastName: 'Setup', email, password: 'first-steps' });

    // Step 1: the setup stands in front of Home, with no bottom navigation.
    const setup = new SetupPage(page);
    await setup.heading.waitFor();
    await setup.waitForStep(1);
    expect(await setup.progress.getAttribute('aria-valuenow')).toBe('1');
    expect(await new HomePage(page).nav.count()).toBe(0);
    expect(await setup.next.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Dismiss notification' }).click(); // the welcome toast
    await page.screenshot({ path: artifact('setup-1-username.png'), fullPage: true });
    await expectNoA11yProblems(page);

    // Normalised as typed; a taken name says so and offers suggestions.
    await setup.username.fill(takenHandle.toUpperCase() + ' !');
    expect(await setup.username.inputValue()).toBe(takenHandle);
    await setup.taken.waitFor();
    await page.getByText('Username not available').waitFor();
    expect(await setup.next.isDisabled()).toBe(true);
    const suggestionButtons = setup.suggestions;
    await suggestionButtons.first().waitFor();
    const count = await suggestionButtons.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(6);
    await page.screenshot({ path: artifact('setup-1-taken.png'), fullPage: true });
    await expectNoA11yProblems(page);

    const chosen = ((await suggestionButtons.first().textContent()) ?? '').replace(/^@/, '');
    await suggestionButtons.first().click();
    expect(await setup.username.inputValue()).toBe(chosen);
    await setup.available.waitFor();
    await setup.next.click();

    // Step 2: photo and bio (150 with a counter); Back keeps what was typed.
    await setup.waitForStep(2);
    await page.locator('input[type=file]').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByRole('button', { name: 'Change photo' }).waitFor();
    await setup.bio.fill('Maths, music and long walks.');
    await page.getByText('28/150').waitFor();
    expect(await setup.skip.isVisible()).toBe(true);
    await page.screenshot({ path: artifact('setup-2-photo-bio.png'), fullPage: true });
    await expectNoA11yProblems(page);
    await setup.back.click();
    await setup.waitForStep(1);
    expect(await setup.username.inputValue()).toBe(chosen);
    await setup.available.waitFor();
    await setup.next.click();
    await setup.waitForStep(2);
    expect(await setup.bio.inputValue()).toBe('Maths, music and long walks.');
    await setup.next.click();

    // Step 3: location with the popular places and a format hint.
    await setup.waitForStep(3);
    await page.getByText(/Format: City, Country/).waitFor();
    await setup.popularLocation('London').click();
    expect(await setup.location.inputValue()).toBe('London');
    expect(await setup.popularLocation('London').getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: artifact('setup-3-location.png'), fullPage: true });
    await expectNoA11yProblems(page);
    await setup.next.click();

    // Step 4: suggestions (at most 5) with Add.
    await setup.waitForStep(4);
    const list = page.locator('.suggestion-list > li');
    await list.first().waitFor();
    expect(await list.count()).toBeLessThanOrEqual(5);
    const add = page.getByRole('button', { name: `Add Suggested Friend` }).first();
    const target = (await add.count()) ? add : page.getByRole('button', { name: /^Add / }).first();
    await target.click();
    await page.getByText('Request Sent').first().waitFor();
    await page.screenshot({ path: artifact('setup-4-friends.png'), fullPage: true });
    await expectNoA11yProblems(page);
    expect(await setup.skip.count()).toBe(0);

    await setup.complete.click();

    // Home with the tour; the server has the setup's answers and the tour is due (step 0).
    const tour = new TourPage(page);
    await tour.title('Welcome to PingMe!').waitFor();
    const sam = {
      id: '',
      firstName: 'Sam',
      email,
      password: 'first-steps',
      cookie: await login(email, 'first-steps'),
    };
    const me = await selfRecord(sam);
    expect(me).toMatchObject({
      handle: chosen,
      bio: 'Maths, music and long walks.',
      location: 'London',
      onboardingCompleted: true,
      onboardingStep: 0,
    });
    expect(me.profileImageUrl).toMatch(/^\/uploads\/.+\.webp$/);
    // The photo went up as a file of its own route, not inside the setup's JSON.
    expect(photoTraffic.uploads).toEqual(['image/jpeg']);
    expect(photoTraffic.inlineImages()).toBe(0);
    await page.waitForTimeout(300); // the dialog's entry animation
    await page.screenshot({ path: artifact('tour-1-welcome.png') });
    await expectNoA11yProblems(page);

    // Next saves each step; Back goes down; Get Started saves the tour as completed.
    const titles = [
      'Send quick pings',
      'Build your friend network',
      'Feel the energy',
      'You’re all set!',
    ];
    for (const [i, title] of titles.entries()) {
      await tour.next.click();
      await tour.title(title).waitFor();
      await eventually(
        () => selfRecord(sam),
        (u) => u.onboardingStep === i + 1,
      );
    }
    await page.waitForTimeout(300);
    await page.screenshot({ path: artifact('tour-5-all-set.png') });
    await tour.back.click();
    await tour.title('Feel the energy').waitFor();
    await tour.next.click();
    await tour.finish.click();
    await tour.dialog.waitFor({ state: 'hidden' });
    await eventually(
      () => selfRecord(sam),
      (u) => u.onboardingStep === 5 && u.onboardingCompleted,
    );

    // It stays gone after a reload; the help button opens it again from the start.
    await page.reload();
    const home = new HomePage(page);
    await home.name.filter({ hasText: 'Sam Setup' }).waitFor();
    await home.nav.waitFor();
    await page.waitForTimeout(500);
    expect(await tour.dialog.count()).toBe(0);
    await tour.help.click();
    await tour.title('Welcome to PingMe!').waitFor();
    await tour.next.click();
    await tour.title('Send quick pings').waitFor();
    await tour.close.click();
    await tour.dialog.waitFor({ state: 'hidden' });
    expect((await selfRecord(sam)).onboardingStep).toBe(5);
    void suggested;
  });

  it('Skip tour on the first step saves the tour as done', async () => {
    const who = await newcomer('Tourist');
    await call(who, 'PATCH', '/api/user/onboarding', { step: 0 });
    await completeSetupByApi(who, `tourist_${unique()}`);
    const page = await newPage();
    await signInPage(page, who);
    await page.goto('/');
    const tour = new TourPage(page);
    await tour.title('Welcome to PingMe!').waitFor();
    await tour.skip.click();
    await tour.dialog.waitFor({ state: 'hidden' });
    await eventually(
      () => selfRecord(who),
      (u) => u.onboardingStep === 5 && u.onboardingCompleted,
    );
  });

  it('skips steps 2 and 3 straight to the suggestions, and says when a handle is too short', async () => {
    const who = await newcomer('Skipper');
    const page = await newPage();
    await signInPage(page, who);
    await page.goto('/friends');
    const setup = new SetupPage(page);
    await setup.waitForStep(1);
    await setup.username.fill('ab');
    await page.getByText(/3-30 characters/).waitFor();
    expect(await setup.next.isDisabled()).toBe(true);
    await setup.username.fill(`skip_${unique()}`);
    await setup.available.waitFor();
    await setup.next.click();
    await setup.waitForStep(2);
    await setup.skip.click();
    await setup.waitForStep(4);
    await setup.complete.click();
    // The screen the person asked for shows once the setup is done.
    await page.getByRole('heading', { level: 1, name: 'Friends', exact: true }).waitFor();
    const me = await selfRecord(who);
    expect(me.bio).toBeNull();
    expect(me.location).toBeNull();
  });

  it('can be completed with the keyboard alone', async () => {
    const who = await newcomer('Keys');
    const page = await newPage();
    await signInPage(page, who);
    await page.goto('/');
    const setup = new SetupPage(page);
    await setup.waitForStep(1);

    const tabTo = async (name: RegExp) => {
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return (el?.getAttribute('aria-label') || el?.textContent || '').trim();
        });
        if (name.test(label)) return;
      }
      throw new Error(`could not reach ${name} with Tab`);
    };

    const handle = `keys_${unique()}`;
    await tabTo(/^$/); // the username field has no text content
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await setup.username.getAttribute('id'),
    );
    await page.keyboard.type(handle);
    await setup.available.waitFor();
    await page.keyboard.press('Enter');
    await setup.waitForStep(2);
    await tabTo(/^Next$/);
    await page.keyboard.press('Enter');
    await setup.waitForStep(3);
    await tabTo(/^Berlin$/);
    await page.keyboard.press('Enter');
    expect(await setup.location.inputValue()).toBe('Berlin');
    await tabTo(/^Next$/);
    await page.keyboard.press('Enter');
    await setup.waitForStep(4);
    await tabTo(/^Complete Setup$/);
    await page.keyboard.press('Enter');
    await new TourPage(page).title('Welcome to PingMe!').waitFor();
    await eventually(
      () => selfRecord(who),
      (me) => me.onboardingCompleted && me.handle === handle && me.location === 'Berlin',
    );
  });
});
