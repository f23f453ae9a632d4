/**
 * Global navigation (spec section 2): the Pings badge (received unread pings), the Activity badge
 * (requests not yet viewed, per the viewedNotifications store) and the friend-requests banner.
 */
import { describe, expect, it } from 'vitest';
import { NavPage } from './pages/nav-page';
import { artifact, baseUrl, newPage } from './support/browser';
import {
  befriend,
  call,
  person,
  requestFriendship,
  sendPingByApi,
  signInPage,
} from './support/people';

describe('global navigation', () => {
  it('the Pings badge counts unread pings and falls once they are read', async () => {
    const [ada, bo] = await Promise.all([person('Ada', 'Badge'), person('Bo', 'Sender')]);
    await befriend(ada, bo);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await sendPingByApi(bo, ada));

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/profile');
    const nav = new NavPage(page);
    await nav.pingsBadge.filter({ hasText: '3' }).waitFor();
    await nav.nav.getByRole('link', { name: /^Pings.*3 unread$/ }).waitFor();

    // Home's Recent Activity shows the 2 latest, read once seen: the badge falls to 1.
    await nav.nav.getByRole('link', { name: 'Home' }).click();
    const recent = page.getByRole('region', { name: 'Recent Activity' });
    await recent.getByRole('article').first().waitFor();
    await recent.scrollIntoViewIfNeeded();
    await nav.pingsBadge.filter({ hasText: /^1$/ }).waitFor();
    // Read elsewhere (another device): the change arrives through the sync engine, live.
    await call(ada, 'PATCH', '/api/pings/mark-all-read', {});
    await nav.pingsBadge.waitFor({ state: 'detached' });
    expect(sent).toHaveLength(3);
  });

  it('the Activity badge counts requests until they are marked viewed', async () => {
    const [ada, cy] = await Promise.all([person('Ada', 'Activity'), person('Cy', 'Asker')]);
    await requestFriendship(cy, ada);
    const pending = await call<{ received: { requestId: string }[] }>(
      ada,
      'GET',
      '/api/friends/pending',
    );
    const requestId = pending.body.received[0]!.requestId;

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/profile');
    const nav = new NavPage(page);
    await nav.activityBadge.filter({ hasText: '1' }).waitFor();
    await page.evaluate((id) => {
      localStorage.setItem('viewedNotifications', JSON.stringify([`friend_request_${id}`]));
    }, requestId);
    // The store is re-read every 2 s.
    await nav.activityBadge.waitFor({ state: 'detached', timeout: 5000 });
  });

  it('the friend-requests banner: 10 requests read 9+, View goes to /friends, Dismiss hides it', async () => {
    const ada = await person('Ada', 'Popular');
    const askers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => person(`Asker${i}`, 'Fan')),
    );
    for (const a of askers) await requestFriendship(a, ada);

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/');
    const nav = new NavPage(page);
    await nav.banner.getByText('You have 10 friend requests!').waitFor();
    expect(await nav.bannerBadge.textContent()).toBe('9+');
    await page.screenshot({ path: artifact('requests-banner.png') });

    await nav.view.click();
    await page.waitForURL(`${baseUrl}/friends`);
    expect(await nav.banner.count()).toBe(0);
    await nav.nav.getByRole('link', { name: 'Home' }).click();
    await nav.banner.waitFor();
    await nav.dismiss.click();
    await nav.banner.waitFor({ state: 'detached' });
    await page.reload();
    await nav.nav.waitFor();
    await page.waitForTimeout(500);
    expect(await nav.banner.count()).toBe(0);
  });
});
