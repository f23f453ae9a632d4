/**
 * Issue 15, items 3 and 4: the invite link has a permanent place (on /friends and the own
 * profile, whatever the number of friends), shared through the system share sheet where the
 * browser has one and copied otherwise; Analytics can be found from Home and from /friends.
 */
import { describe, expect, it } from 'vitest';
import { AnalyticsPage } from './pages/analytics-page';
import { FriendsPage } from './pages/friends-page';
import { ProfilePage } from './pages/profile-page';
import { seriousA11yProblemsIn } from './support/axe';
import { artifact, baseUrl } from './support/browser';
import { befriend, inviteCodeOf, pageAs, person } from './support/people';

describe('entry points', () => {
  it('the invite link stays on /friends and the profile after the first friend; copy and share', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const url = `${baseUrl}/invite/${await inviteCodeOf(ada)}`;

    const page = await pageAs(ada);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseUrl,
    });
    await page.goto('/friends');
    const friends = new FriendsPage(page);
    await friends.friendsHeading(1).waitFor();
    const card = page.getByRole('region', { name: 'Your invite link' });
    await card.getByText(url, { exact: true }).waitFor();
    // Chromium on Linux has no Web Share: the button copies.
    await card.getByRole('button', { name: 'Copy invite link' }).click();
    await page.locator('.toast').filter({ hasText: 'Invite link copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await card.scrollIntoViewIfNeeded();
    // Nothing on the screen is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: artifact('friends-invite-link.png') });
    expect(await seriousA11yProblemsIn(page, ['.invite-link'])).toEqual([]);

    await new ProfilePage(page).open();
    await page
      .getByRole('region', { name: 'Your invite link' })
      .getByText(url, { exact: true })
      .waitFor();
  });

  it('opens the system share sheet where the browser has one', async () => {
    const ada = await person('Ada');
    const url = `${baseUrl}/invite/${await inviteCodeOf(ada)}`;
    const page = await pageAs(ada);
    // A browser with the Web Share API (a phone): record what it is asked to share.
    await page.addInitScript(() => {
      const shared: unknown[] = [];
      Object.assign(window, { shared });
      Object.defineProperty(navigator, 'share', {
        value: (data: unknown) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto('/friends');
    const card = page.getByRole('region', { name: 'Your invite link' });
    await card.getByRole('button', { name: 'Share invite link' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: { url: string }[] }).shared))
      .toEqual([{ title: 'PingMe', text: 'Add me on PingMe', url }]);
  });

  it('Analytics is reached from Home and from /friends', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const page = await pageAs(ada, '/');
    const link = page.getByRole('link', { name: /Friendship energy and analytics/ });
    await link.waitFor();
    await page.screenshot({ path: artifact('home-analytics-link.png') });
    await link.click();
    const analytics = new AnalyticsPage(page);
    await analytics.title.waitFor();
    expect(new URL(page.url()).pathname).toBe('/analytics');

    await page.goto('/friends');
    await new FriendsPage(page).title.waitFor();
    await page.getByRole('link', { name: /energy in Analytics/ }).click();
    await analytics.title.waitFor();
  });
});
