/**
 * Issue 15, item 9: a way back from a friendship and from a request, and the tagline after
 * setup. Unfriend on a friend's page (pings stay), Withdraw on a sent request, and the tagline
 * editable on the extended profile, each through the outbox against the real server.
 */
import { describe, expect, it } from 'vitest';
import { FriendsPage } from './pages/friends-page';
import { ProfilePage } from './pages/profile-page';
import { seriousA11yProblemsIn } from './support/axe';
import { artifact, outboxEmpty } from './support/browser';
import {
  befriend,
  call,
  pageAs,
  person,
  receivedPings,
  requestFriendship,
  sendPingByApi,
} from './support/people';

describe('ways back', () => {
  it('unfriends from the friend’s page: the friendship ends for both, the pings stay', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    await sendPingByApi(bo, ada);
    const page = await pageAs(ada, `/friend/${bo.id}`);
    await page.getByRole('heading', { level: 1, name: 'Bo Tester' }).waitFor();
    await page.getByRole('button', { name: 'Unfriend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unfriend Bo Tester?' });
    await dialog.waitFor();
    // The picture once the dialog's opening animation is over.
    await dialog.evaluate((el) =>
      Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)),
    );
    await page.screenshot({ path: artifact('unfriend-dialog.png') });
    expect(await seriousA11yProblemsIn(page, ['[role="dialog"]'])).toEqual([]);
    await dialog.getByRole('button', { name: 'Unfriend' }).click();

    await page.waitForURL(/\/friends$/);
    const friends = new FriendsPage(page);
    await friends.friendsHeading(0).waitFor();
    await outboxEmpty(page);
    expect((await call<unknown[]>(ada, 'GET', '/api/friends')).body).toEqual([]);
    expect((await call<unknown[]>(bo, 'GET', '/api/friends')).body).toEqual([]);
    expect(await receivedPings(ada)).toHaveLength(1);
  });

  it('withdraws a sent friend request: gone from both sides', async () => {
    const [ada, cy] = await Promise.all([person('Ada'), person('Cy')]);
    await requestFriendship(ada, cy);
    const page = await pageAs(ada, '/friends');
    const friends = new FriendsPage(page);
    const row = friends.sentRequests.getByRole('listitem').filter({ hasText: 'Cy Tester' });
    await row.waitFor();
    await page.screenshot({ path: artifact('sent-request-withdraw.png') });
    await row.getByRole('button', { name: 'Withdraw request to Cy Tester' }).click();
    await row.waitFor({ state: 'detached' });
    await outboxEmpty(page);
    const pending = await call<{ sent: unknown[]; received: unknown[] }>(
      cy,
      'GET',
      '/api/friends/pending',
    );
    expect(pending.body.received).toEqual([]);
  });

  it('edits the tagline on the extended profile after setup', async () => {
    const ada = await person('Ada');
    // A bio (as setup asks for) turns the profile into the extended view.
    const saved = await call(ada, 'PUT', '/api/profile/update', { bio: 'Tea and trains' });
    expect(saved.status).toBe(200);
    const page = await pageAs(ada, '/profile');
    const profile = new ProfilePage(page);
    await profile.title.waitFor();
    await page.getByText('Tea and trains').waitFor();
    await profile.editTagline('Always up for chai');
    await page.keyboard.press('Enter');
    await profile.toast('Profile Updated').waitFor();
    await page.getByRole('button', { name: /^Tagline: Always up for chai/ }).waitFor();
    await page.screenshot({ path: artifact('profile-tagline.png') });
    await outboxEmpty(page);
    expect((await call<{ tagline: string }>(ada, 'GET', '/api/user')).body.tagline).toBe(
      'Always up for chai',
    );
  });
});
