/**
 * Activity and Notifications against the real server: a history made through the API, the
 * filters and status labels, anchor and friend requests answered from the lists, empty states.
 */
import { describe, expect, it } from 'vitest';
import { ActivityPage, NotificationsPage } from './pages/activity-page';
import { seriousA11yProblems } from './support/axe';
import { artifact } from './support/browser';
import {
  DEFAULT_PROMPT_IDS,
  askAnchor,
  befriend,
  call,
  customPing,
  named,
  pageAs,
  sendPingByApi,
} from './support/people';

describe('activity', () => {
  it('a new person sees every empty state', async () => {
    const ann = await named('Ann');
    const page = await pageAs(ann, '/activity');
    const activity = new ActivityPage(page);
    await activity.panel.getByText('No recent activity').waitFor();
    await activity.filter('Anchors');
    await activity.panel.getByText('No anchors yet').waitFor();
    await activity.requestsTab.click();
    await activity.panel.getByText('No pending requests').waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);

    const notifications = new NotificationsPage(page);
    await notifications.open();
    await notifications.panel.getByText('No notifications yet').waitFor();
    await notifications.panel.getByText("You'll see activity from your friends here").waitFor();
    await notifications.requestsTab.click();
    await notifications.panel.getByText("You'll see friend requests here").waitFor();
  });

  it('the filters show the right items with their status labels', async () => {
    const [ann, ben, cat] = await Promise.all([named('Ann'), named('Ben'), named('Cat')]);
    await befriend(ann, ben);
    await befriend(ann, cat);
    const toBen = await sendPingByApi(ann, ben);
    expect((await call(ben, 'PATCH', `/api/pings/${toBen.id}/read`, {})).status).toBe(200);
    const fromBen = await sendPingByApi(ben, ann, DEFAULT_PROMPT_IDS.proud);
    const anchor = await askAnchor(ben, ann);
    expect(
      (
        await call(ann, 'PATCH', `/api/profile/anchors/${anchor.id}/respond`, {
          response: 'accept',
        })
      ).status,
    ).toBe(200);
    await customPing(ben, ann, { customText: 'I miss you', anchorId: anchor.id });
    await customPing(ben, ann, { customText: 'I miss you', anchorId: anchor.id });
    const fromCat = await customPing(cat, ann, { customText: 'Coffee at 5?', customEmoji: '☕' });
    expect(
      (await call(ann, 'POST', `/api/pings/${fromCat.id}/reactions`, { reactionType: 'heart' }))
        .status,
    ).toBe(201);
    expect(
      (await call(ann, 'PATCH', `/api/pings/${fromBen.id}/bookmark`, { bookmarked: true })).status,
    ).toBe(200);

    const page = await pageAs(ann, '/activity');
    const activity = new ActivityPage(page);
    const ben_ = `Ben ${ben.lastName}`;
    const cat_ = `Cat ${cat.lastName}`;
    await expect.poll(async () => (await activity.items()).length).toBe(9);
    const all = await activity.items();
    expect(all.map((i) => i.status)).toEqual([
      'Bookmarked', // Ben's proud ping, bookmarked last
      'Achievement', // first ping with Cat
      'Responded', // Cat's coffee, which Ann reacted to
      'Anchor Activity', // Ben used the anchor twice
      'New', // Ben's two anchor pings
      'New',
      'New', // Ben's proud ping
      'Achievement', // first ping with Ben
      'Opened', // Ann's hug, read by Ben
    ]);
    expect(all.filter((i) => i.status === 'Achievement').map((i) => i.text)).toEqual([
      `First ping with ${cat_}`,
      `First ping with ${ben_}`,
    ]);
    expect(all.find((i) => i.status === 'Anchor Activity')?.text).toContain(
      `${ben_} used your Anchor ping 2 times this week`,
    );
    expect(all.find((i) => i.status === 'Bookmarked')?.text).toContain(
      `You bookmarked ${ben_}'s ping: I'm proud of something`,
    );
    await page.screenshot({ path: artifact('activity.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // The chips work from the keyboard.
    await activity.panel.getByRole('button', { name: 'Sent', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(
      await activity.panel
        .getByRole('button', { name: 'Sent', exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await expect
      .poll(() => activity.items())
      .toEqual([{ text: `You pinged ${ben_}: Ping me when you need a hug`, status: 'Opened' }]);

    await activity.filter('Received');
    await expect
      .poll(() => activity.items())
      .toEqual([
        { text: `${cat_} sent you a ping: Coffee at 5?`, status: 'Responded' },
        { text: `${ben_} sent you a ping: I'm proud of something`, status: 'New' },
      ]);

    await activity.filter('Anchors');
    const anchors = activity.panel.getByRole('region', { name: 'Active Anchors' });
    await anchors.getByText(ben_).waitFor();
    await activity.panel.getByText(`${ben_} used your Anchor ping 2 times this week`).waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('an anchor request is accepted from Activity, and a friend request from its tab', async () => {
    const [ann, dan, eve] = await Promise.all([named('Ann'), named('Dan'), named('Eve')]);
    await befriend(ann, dan);
    await askAnchor(dan, ann, 'Ping me when you need a laugh');
    expect((await call(eve, 'POST', '/api/friends/request', { friendId: ann.id })).status).toBe(
      201,
    );

    const page = await pageAs(ann, '/activity');
    const activity = new ActivityPage(page);
    await activity.requestsTab.getByText('1').waitFor(); // the count badge
    await activity.filter('Anchors');
    const request = activity.anchorRequest(`Dan ${dan.lastName}`);
    await request.getByText('wants to create an Anchor connection').waitFor();
    await request.getByText('Ping me when you need a laugh').waitFor();
    await request.getByRole('button', { name: /^Accept Anchor/ }).click();
    await page.getByText('Anchor Accepted!', { exact: true }).waitFor();
    await page
      .getByText(`You and Dan ${dan.lastName} now have a mutual anchor ping.`, { exact: true })
      .waitFor();
    await activity.panel
      .getByRole('region', { name: 'Active Anchors' })
      .getByText(`Dan ${dan.lastName}`)
      .waitFor();
    await expect
      .poll(async () => (await call<{ status: string }[]>(ann, 'GET', '/api/profile/anchors')).body)
      .toMatchObject([{ status: 'accepted' }]);

    // Friend Requests tab: Accept is wired here too.
    await activity.requestsTab.click();
    const row = activity.panel.getByRole('listitem').filter({ hasText: `Eve ${eve.lastName}` });
    await row.getByText(/wants to be your friend/).waitFor();
    await row.getByRole('button', { name: /^Accept/ }).click();
    await page.getByRole('dialog', { name: 'Friend Added!' }).waitFor();
    await expect
      .poll(async () => (await call(ann, 'GET', `/api/friends/${eve.id}`)).status)
      .toBe(200);
  });
});

describe('notifications', () => {
  it('mixes requests, anchor requests, anchor activity and pings; marks requests viewed after 2 s', async () => {
    const [ann, ben, cat] = await Promise.all([named('Ann'), named('Ben'), named('Cat')]);
    await befriend(ann, ben);
    await sendPingByApi(ben, ann);
    const anchor = await askAnchor(ben, ann);
    const asked = await call<{ requestId: string }>(cat, 'POST', '/api/friends/request', {
      friendId: ann.id,
    });

    const page = await pageAs(ann, '/notifications');
    const notifications = new NotificationsPage(page);
    const anchorSection = notifications.panel.getByRole('region', { name: /Anchor Requests/ });
    await anchorSection.getByText('wants to create an Anchor connection').waitFor();
    await anchorSection.getByRole('button', { name: /^Accept Anchor/ }).waitFor();
    await anchorSection.getByRole('button', { name: /^Decline/ }).waitFor();
    await expect
      .poll(() => notifications.texts())
      .toEqual([
        `Cat ${cat.lastName} wants to be your friend`,
        `Ben ${ben.lastName} sent you a ping: I need a hug`,
      ]);
    await notifications.list
      .getByText(/^(now|\dm)$/)
      .first()
      .waitFor();
    await expect
      .poll(
        async () =>
          JSON.parse(
            (await page.evaluate(() => localStorage.getItem('viewedNotifications'))) ?? '[]',
          ) as string[],
        { timeout: 5000 },
      )
      .toEqual(
        expect.arrayContaining([
          `friend_request_${asked.body.requestId}`,
          `anchor_request_${anchor.id}`,
        ]),
      );
    await page.screenshot({ path: artifact('notifications.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Declining the anchor request.
    await anchorSection.getByRole('button', { name: /^Decline/ }).click();
    await page.getByText('Anchor declined', { exact: true }).waitFor();
    await anchorSection.waitFor({ state: 'detached' });

    // Friend Requests tab: accept Cat, then set an anchor from 'Friend Added!'.
    await notifications.requestsTab.click();
    const row = notifications.panel
      .getByRole('listitem')
      .filter({ hasText: `Cat ${cat.lastName}` });
    await row.getByRole('button', { name: /^Accept/ }).click();
    const added = page.getByRole('dialog', { name: 'Friend Added!' });
    await added.getByText(`You're now friends with Cat ${cat.lastName}!`).waitFor();
    await added.getByRole('button', { name: 'Set Anchor Ping' }).click();
    await page.getByRole('dialog', { name: 'Create an Anchor Ping' }).waitFor();
  });
});
