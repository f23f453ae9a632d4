/**
 * Friends, friend search and their dialogs with three people in three browser contexts, against
 * the real server and the real sync engine.
 */
import { describe, expect, it } from 'vitest';
import {
  FriendProfilePage,
  FriendSearchPage,
  FriendsPage,
  PingFriendPage,
} from './pages/friends-page';
import { InvitePage } from './pages/invite-page';
import { seriousA11yProblems } from './support/axe';
import { artifact } from './support/browser';
import {
  DEFAULT_PROMPT_IDS,
  befriend,
  call,
  inviteCodeOf,
  named,
  pageAs,
  sendPingByApi,
} from './support/people';

describe('friends', () => {
  it('A finds B on friend search and asks; B accepts on /friends and sees Friend Added!', async () => {
    const [ann, ben] = await Promise.all([named('Ann'), named('Ben')]);

    const annPage = await pageAs(ann, '/friends-search');
    const search = new FriendSearchPage(annPage);
    await search.title.waitFor();
    await search.searchFor(ben.lastName);
    await search.result(`Ben ${ben.lastName}`).waitFor();
    await search.add(`Ben ${ben.lastName}`);
    await search.result(`Ben ${ben.lastName}`).getByText('Pending').waitFor();
    // The request reaches the device and is listed as waiting.
    await search.sentRequests.getByText(`Ben ${ben.lastName}`).waitFor();
    await search.sentRequests.getByText('Waiting').waitFor();
    await annPage.screenshot({ path: artifact('friends-search.png'), fullPage: true });
    expect(await seriousA11yProblems(annPage)).toEqual([]);

    const benPage = await pageAs(ben, '/friends');
    const friends = new FriendsPage(benPage);
    await friends.request(`Ann ${ann.lastName}`).waitFor();
    expect(await seriousA11yProblems(benPage)).toEqual([]);
    await friends.accept(`Ann ${ann.lastName}`);
    // (Behind the modal dialog the page is aria-hidden: find the label by its text.)
    await benPage.getByText('Accepted!', { exact: true }).waitFor();
    await friends.friendAdded.waitFor();
    await friends.friendAdded.getByText(`You're now friends with Ann ${ann.lastName}!`).waitFor();
    await benPage.getByText('Friend request accepted!', { exact: true }).waitFor();
    expect(await seriousA11yProblems(benPage)).toEqual([]);
    await friends.friendAdded.getByRole('button', { name: 'Skip for now' }).click();
    await friends.friendAdded.waitFor({ state: 'hidden' });
    await friends.friendsHeading(1).waitFor();
    await friends.friend(`Ann ${ann.lastName}`).waitFor();
    // The 'Accepted!' label goes after 3 s, with the request.
    await friends.requests.waitFor({ state: 'detached', timeout: 6000 });

    // Ann's search now says they are friends.
    await search.searchFor('');
    await search.searchFor(ben.lastName);
    await search.result(`Ben ${ben.lastName}`).getByText('Friends', { exact: true }).waitFor();
  });

  it('declining shows Declined, and a private person is only reachable by invite link', async () => {
    const [ann, cat, dan] = await Promise.all([named('Ann'), named('Cat'), named('Dan')]);
    expect(
      (await call(cat, 'PUT', '/api/privacy-settings', { profileVisibility: 'private' })).status,
    ).toBe(200);
    expect((await call(dan, 'POST', '/api/friends/request', { friendId: ann.id })).status).toBe(
      201,
    );

    const page = await pageAs(ann, '/friends');
    const friends = new FriendsPage(page);
    await friends.decline(`Dan ${dan.lastName}`);
    await friends.request(`Dan ${dan.lastName}`).getByText('Declined').waitFor();
    await page.getByText('Friend request declined', { exact: true }).waitFor();

    // Cat is private: neither her name nor her e-mail finds her.
    await friends.search.fill('C');
    await page.getByText('Type at least 2 characters to search.').waitFor();
    await friends.search.fill(cat.lastName);
    await page.getByText('No users found').waitFor();
    await friends.search.fill(cat.email);
    await page.getByText('No users found').waitFor();

    const invite = new InvitePage(page);
    await invite.open(await inviteCodeOf(cat));
    await invite.acceptButton.waitFor();
    await invite.accept();
    await invite.success.waitFor();
    await friends.open();
    await friends.friend(`Cat ${cat.lastName}`).waitFor();
    await friends.friendsHeading(1).waitFor();
  });

  it('A shares a mood with B, and B sees it on the friends list', async () => {
    const [ann, ben] = await Promise.all([named('Ann'), named('Ben')]);
    await befriend(ann, ben);
    const annPage = await pageAs(ann, '/friends');
    const friends = new FriendsPage(annPage);
    await friends.friend(`Ben ${ben.lastName}`).waitFor();

    // Without a mood the dialog says so.
    await friends.friend(`Ben ${ben.lastName}`).getByRole('button', { name: /^Mood/ }).click();
    await friends.moodDialog.waitFor();
    expect(await friends.moodDialog.getByRole('radio').count()).toBe(24);
    expect(await seriousA11yProblems(annPage)).toEqual([]);
    await friends.moodDialog.getByRole('button', { name: 'Share Mood' }).click();
    await friends.moodDialog.getByText('Please select a mood to share').waitFor();
    await annPage.getByText('No mood selected', { exact: true }).waitFor();
    await friends.moodDialog.getByRole('button', { name: 'Cancel' }).click();

    await friends.shareMood(`Ben ${ben.lastName}`, 'Grateful', 'Thanks for yesterday');
    await friends.moodDialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await call<unknown>(ben, 'GET', `/api/moods/${ann.id}/latest`)).body)
      .toMatchObject({ mood: 'grateful', note: 'Thanks for yesterday', emoji: '🙏' });

    const benPage = await pageAs(ben, '/friends');
    const benFriends = new FriendsPage(benPage);
    await benFriends
      .friend(`Ann ${ann.lastName}`)
      .getByText(/Feeling grateful/)
      .waitFor();
    await benFriends.friend(`Ann ${ann.lastName}`).getByText('“Thanks for yesterday”').waitFor();
  });

  it('A sends B a surprise, with the keyboard', async () => {
    const [ann, ben] = await Promise.all([named('Ann'), named('Ben')]);
    await befriend(ann, ben);
    const page = await pageAs(ann, '/friends');
    const friends = new FriendsPage(page);
    const card = friends.friend(`Ben ${ben.lastName}`);
    await card.waitFor();

    await card.getByRole('button', { name: /^Surprise/ }).focus();
    await page.keyboard.press('Enter');
    await friends.surpriseDialog.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    // Empty text is refused with the spec's message.
    await friends.surpriseDialog.getByRole('button', { name: 'Send Surprise' }).click();
    await friends.surpriseDialog.getByText('Please write a message to send').waitFor();
    const text = friends.surpriseDialog.getByLabel('Your message');
    await text.focus();
    await page.keyboard.type('You are awesome');
    await friends.surpriseDialog.getByText('15/200').waitFor();
    // The emoji choice is a radio group: 💫 is chosen, arrow keys move the choice.
    const first = friends.surpriseDialog.getByRole('radio', { name: '💫' });
    expect(await first.isChecked()).toBe(true);
    await first.focus();
    await page.keyboard.press('ArrowRight');
    expect(await friends.surpriseDialog.getByRole('radio', { name: '✨' }).isChecked()).toBe(true);
    await friends.surpriseDialog.getByRole('button', { name: 'Send Surprise' }).focus();
    await page.keyboard.press('Enter');
    await friends.surpriseDialog.waitFor({ state: 'hidden' });

    await expect
      .poll(async () => {
        const recent = await call<{ kind: string; customText: string; customEmoji: string }[]>(
          ben,
          'GET',
          '/api/pings/recent',
        );
        return recent.body[0];
      })
      .toMatchObject({ kind: 'surprise', customText: 'You are awesome', customEmoji: '✨' });
  });

  it('the insights dialog shows the numbers of the last 30 days', async () => {
    const [ann, ben] = await Promise.all([named('Ann'), named('Ben')]);
    await befriend(ann, ben);
    for (let i = 0; i < 3; i++) await sendPingByApi(ann, ben, DEFAULT_PROMPT_IDS.proud);
    await sendPingByApi(ben, ann);

    const page = await pageAs(ann, '/friends');
    const friends = new FriendsPage(page);
    await friends.friend(`Ben ${ben.lastName}`).waitFor();
    await friends.openInsights(`Ben ${ben.lastName}`);
    const dialog = friends.insightsDialog;
    await dialog.getByText('Friends', { exact: true }).waitFor(); // strength 2 (3-9 pings)
    const stat = (label: string) =>
      dialog.getByRole('term').filter({ hasText: label }).locator('xpath=following-sibling::dd');
    expect(await stat('Sent').textContent()).toBe('3');
    expect(await stat('Received').textContent()).toBe('1');
    expect(await stat('Total').textContent()).toBe('4');
    await dialog.getByText("Ping me when you're proud of something").waitFor();
    await dialog.getByText('×3').waitFor();
    await dialog
      .getByRole('img', { name: /Pings exchanged per day over the last 30 days: 4 in total/ })
      .waitFor();
    await dialog.getByText('just now').waitFor();
    await page.screenshot({ path: artifact('friends-insights.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.screenshot({ path: artifact('friends.png'), fullPage: true });

    // Offline (the request fails): the last answer, with its time.
    await page.route('**/api/analytics/friendship/**', (route) => route.abort());
    await friends.openInsights(`Ben ${ben.lastName}`);
    await dialog.getByText(/^Offline: showing insights from /).waitFor();
    expect(await stat('Total').textContent()).toBe('4');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Never loaded and offline: the spec's failure text.
    const cat = await named('Cat');
    await befriend(ann, cat);
    await friends.friend(`Cat ${cat.lastName}`).waitFor();
    await friends.openInsights(`Cat ${cat.lastName}`);
    await dialog.getByText('Unable to load friendship insights').waitFor();
  });

  it('/friend/{B} shows the stats and the 5 latest pings; Send a Ping sends from /ping-friend', async () => {
    const [ann, ben, cat] = await Promise.all([named('Ann'), named('Ben'), named('Cat')]);
    await befriend(ann, ben);
    const sent = [];
    for (let i = 0; i < 6; i++)
      sent.push(await sendPingByApi(i % 2 ? ben : ann, i % 2 ? ann : ben));
    expect(
      (await call(ben, 'POST', `/api/pings/${sent[0]!.id}/reactions`, { reactionType: 'heart' }))
        .status,
    ).toBe(201);

    const page = await pageAs(ann, `/friend/${ben.id}`);
    const profile = new FriendProfilePage(page);
    await profile.name(`Ben ${ben.lastName}`).waitFor();
    await expect.poll(() => profile.stat('Pings')).toBe('6');
    expect(await profile.stat('Reactions')).toBe('1');
    expect(await profile.stat('Days connected')).toBe('0');
    await expect.poll(() => profile.pingCards.count()).toBe(5);
    // The oldest of the six is not among the 5 latest.
    expect(await page.locator(`[data-ping-id="${sent[0]!.id}"]`).count()).toBe(0);
    expect(await page.locator(`[data-ping-id="${sent[5]!.id}"]`).count()).toBe(1);
    await page.screenshot({ path: artifact('friend-profile.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Offline, the stats are the last ones seen, with their time. The failure is held 400 ms so
    // that it lands after the page's other calls have answered: the device then counts the
    // server as unreachable (as after any failed call) until its next probe finds it again, and a
    // send before that says 'Saved, will send when you're back online'. Without the delay that
    // order was up to the machine's load, and so was the toast below.
    await page.route('**/api/friends/*/stats', (route) => {
      setTimeout(() => void route.abort(), 400);
    });
    await page.reload();
    await page.getByText(/^Offline: stats from /).waitFor();
    expect(await profile.stat('Pings')).toBe('6');
    await page.unroute('**/api/friends/*/stats');
    // The device notices by itself that the server answers again (SyncHost's probe).
    await page.getByTestId('sync-status').filter({ hasText: 'Online' }).waitFor();

    await profile.sendAPing.click();
    const send = new PingFriendPage(page);
    await send.title.waitFor();
    expect(page.url()).toContain(`/ping-friend/${ben.id}`);
    await send.prompt('Ping me when you miss me').waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.screenshot({ path: artifact('ping-friend.png'), fullPage: true });
    await send.sendPrompt('Ping me when you miss me');
    await page.getByText('Pings sent! 🎉', { exact: true }).waitFor();
    await page
      .getByText('Sent "Ping me when you miss me" to your friend', { exact: true })
      .waitFor();
    await profile.name(`Ben ${ben.lastName}`).waitFor();
    await expect
      .poll(async () => {
        const recent = await call<{ prompt: { text: string } | null }[]>(
          ben,
          'GET',
          '/api/pings/recent',
        );
        return recent.body[0]?.prompt?.text;
      })
      .toBe('Ping me when you miss me');

    // A custom ping, with the keyboard through the tabs.
    await profile.sendAPing.click();
    await send.customTab.click();
    await send.sendCustom('Movie tonight?', '🍿');
    await page.getByText('Sent "Movie tonight?" to your friend', { exact: true }).waitFor();
    await expect
      .poll(async () => {
        const recent = await call<{ kind: string; customText: string; customEmoji: string }[]>(
          ben,
          'GET',
          '/api/pings/recent',
        );
        return recent.body[0];
      })
      .toMatchObject({ kind: 'custom', customText: 'Movie tonight?', customEmoji: '🍿' });

    // Someone who is not a friend.
    await page.goto(`/friend/${cat.id}`);
    await page.getByText('Friend not found').waitFor();
    await page.getByRole('link', { name: 'Back to Friends' }).click();
    await new FriendsPage(page).title.waitFor();
  });

  it('creates a prompt on /friends, assigns it to a friend, and sends it from /ping-friend', async () => {
    const [ann, ben] = await Promise.all([named('Ann'), named('Ben')]);
    await befriend(ann, ben);
    const page = await pageAs(ann, '/friends');
    const friends = new FriendsPage(page);
    await friends.friend(`Ben ${ben.lastName}`).waitFor();

    await friends.prompts.getByRole('button', { name: 'Create Prompt' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Ping Prompt' });
    await create.getByLabel('Prompt message').fill('Ping me when the kettle is on');
    await create.getByRole('button', { name: 'Create Prompt' }).click();
    await create.waitFor({ state: 'hidden' });
    const row = friends.prompts.getByRole('listitem').filter({ hasText: 'kettle' });
    await row.getByText('Assigned to 0 friends').waitFor();

    await row.getByRole('button', { name: /^Assign/ }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Prompt' });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await assign.getByRole('checkbox', { name: `Ben ${ben.lastName}` }).check();
    await assign.getByRole('button', { name: /^Assign/ }).click();
    await assign.waitFor({ state: 'hidden' });
    await row.getByText('Assigned to 1 friend').waitFor();

    await page.goto(`/ping-friend/${ben.id}`);
    const send = new PingFriendPage(page);
    await send.prompt('Ping me when the kettle is on').waitFor();
    await send.sendPrompt('Ping me when the kettle is on');
    await page
      .getByText('Sent "Ping me when the kettle is on" to your friend', { exact: true })
      .waitFor();
    await expect
      .poll(async () => {
        const recent = await call<{ prompt: { text: string } | null }[]>(
          ben,
          'GET',
          '/api/pings/recent',
        );
        return recent.body[0]?.prompt?.text;
      })
      .toBe('Ping me when the kettle is on');
  });
});
