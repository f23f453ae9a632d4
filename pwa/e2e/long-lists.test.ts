/**
 * A long history (600 pings between two friends, made through the API): Home still shows the
 * newest two and the full count; Activity's virtualised list keeps only the rows near the
 * viewport in the DOM, tells assistive technology each row's place in the whole list, reaches
 * the oldest ping by keyboard scrolling alone, and passes axe at both ends.
 */
import { describe, expect, it } from 'vitest';
import { ActivityPage } from './pages/activity-page';
import { HomeSections } from './pages/home-sections';
import { seriousA11yProblems } from './support/axe';
import { artifact } from './support/browser';
import { befriend, call, customPing, named, pageAs, ping, type Person } from './support/people';

const TOTAL = 600;
const OLDEST = 'The very first one';
const NEWEST = 'The newest one';

/** `n` prompt pings alternating between a and b, ten requests at a time. */
async function history(a: Person, b: Person, n: number): Promise<void> {
  for (let i = 0; i < n; i += 10) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, (_, k) =>
        (i + k) % 2 === 0 ? ping(a, b, 1 + ((i + k) % 4)) : ping(b, a, 1 + ((i + k) % 4)),
      ),
    );
    expect(statuses.every((s) => s === 201)).toBe(true);
  }
}

/** Rows of the activity list in the DOM, with the place each says it has. */
async function renderedRows(activity: ActivityPage) {
  return activity.list.locator('li').evaluateAll((rows) =>
    rows.map((r) => ({
      pos: Number(r.getAttribute('aria-posinset')),
      size: Number(r.getAttribute('aria-setsize')),
      text: r.textContent ?? '',
    })),
  );
}

describe('long lists', () => {
  it('600 pings: Home shows the newest, Activity is virtualised and its oldest row is reachable by keyboard', async () => {
    const [ada, bo] = await Promise.all([named('Ada'), named('Bo')]);
    await befriend(ada, bo);
    for (const who of [ada, bo]) {
      expect(
        (await call(who, 'PUT', '/api/profile/update', { rateLimitPerDay: 1000 })).status,
      ).toBe(200);
    }
    await customPing(ada, bo, { customText: OLDEST, customEmoji: '🥇' });
    await history(ada, bo, TOTAL - 2);
    await customPing(bo, ada, { customText: NEWEST, customEmoji: '🆕' });

    // Home: every ping counted, the newest on top of Recent Activity.
    const page = await pageAs(ada, '/');
    const home = new HomeSections(page);
    await home
      .counter('pings')
      .filter({ hasText: String(TOTAL) })
      .waitFor({ timeout: 30_000 });
    const cards = page.locator('.recent-activity .ping-card');
    await cards.first().filter({ hasText: NEWEST }).waitFor();
    expect(await cards.count()).toBe(2);

    // Activity: a real list, only a window of it in the DOM.
    const activity = new ActivityPage(page);
    await activity.open();
    await activity.list.getByRole('listitem').first().filter({ hasText: NEWEST }).waitFor();
    const top = await renderedRows(activity);
    const size = top[0]!.size;
    // 600 pings, the 100th-sent milestone, and the first ping with Bo.
    expect(size).toBeGreaterThanOrEqual(TOTAL + 2);
    expect(top.length).toBeLessThan(40);
    expect(top[0]!.pos).toBe(1);
    expect(top.map((r) => r.pos)).toEqual(top.map((_, i) => i + 1));
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Keyboard only: End scrolls the page down until the last row is rendered and on screen.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let bottom = top;
    for (let i = 0; i < 30 && !bottom.some((r) => r.pos === size); i++) {
      await page.keyboard.press('End');
      await page.waitForTimeout(150);
      bottom = await renderedRows(activity);
    }
    const last = bottom.find((r) => r.pos === size);
    expect(last?.text).toContain(OLDEST);
    expect(bottom.length).toBeLessThan(40);
    // Rows measured on the way may still move the end a little: End again until it is on screen.
    await expect
      .poll(
        async () => {
          await page.keyboard.press('End');
          return activity.list
            .locator(`li[aria-posinset="${size}"]`)
            .evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight + 1);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    await page.screenshot({ path: artifact('activity-long-list-bottom.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Back to the top by keyboard: the first row returns, and Tab still reaches the filters.
    await page.keyboard.press('Home');
    await activity.list.locator('li[aria-posinset="1"]').filter({ hasText: NEWEST }).waitFor();
    await activity.filter('Sent');
    const sent = await renderedRows(activity);
    expect(sent[0]!.text).toContain('You pinged');
    expect(sent[0]!.size).toBeLessThan(size);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.tagName ?? '');
    expect(focused).toBe('BUTTON');
  });
});
