/**
 * Home (spec section 2): the header's counters, Surprise Me reaching a friend, the anchor strip
 * sending an anchor ping, Quick Ping Friends, the empty state, and the friend-requests banner.
 */
import { anchorCustomRewrite } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { HomePage } from './pages/home-page';
import { HomeSections } from './pages/home-sections';
import { seriousA11yProblems } from './support/axe';
import { artifact, baseUrl, newPage } from './support/browser';
import {
  DEFAULT_PROMPT_IDS,
  befriend,
  eventually,
  makeAcceptedAnchor,
  person,
  receivedPings,
  requestFriendship,
  sendPingByApi,
  signInPage,
} from './support/people';

const MISS_YOU = 'Ping me when you miss me';

describe('Home', () => {
  it('with friends: counters, Surprise Me reaches the friend, the anchor strip sends its ping', async () => {
    const [ada, bo, dan] = await Promise.all([
      person('Ada', 'Home'),
      person('Bo', 'Friend'),
      person('Dan', 'Asker'),
    ]);
    await befriend(ada, bo);
    await sendPingByApi(bo, ada, DEFAULT_PROMPT_IDS.hug);
    await sendPingByApi(ada, bo, DEFAULT_PROMPT_IDS.proud);
    await requestFriendship(dan, ada);
    const anchor = await makeAcceptedAnchor(ada, bo, {
      text: MISS_YOU,
      emoji: '💕',
      color: '#2563eb',
      label: 'Miss you',
    });

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/');
    const home = new HomeSections(page);
    await new HomePage(page).name.filter({ hasText: 'Ada Home' }).waitFor();

    // Counters from the device database: 2 pings (sent + received), 1 friend, 1 request.
    await home.counter('pings').filter({ hasText: '2' }).waitFor();
    await home.counter('friends').filter({ hasText: '1' }).waitFor();
    await home.counter('requests').filter({ hasText: '1' }).waitFor();
    expect(await home.counter('friends').textContent()).toBe('1 friend');
    expect(await home.counter('requests').getAttribute('href')).toBe('/notifications');
    await page.getByText('Ready to connect with friends! 💭').waitFor();

    await home.anchorTile('Bo Friend').waitFor();
    await home.quickPingFriend('Bo Friend').waitFor();
    await home.addAnchor.waitFor();
    expect(await home.fab.getAttribute('href')).toBe('/friends-search');
    expect(await home.connectCard.count()).toBe(0);
    await page.screenshot({ path: artifact('home-with-data.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Surprise Me: a default prompt to the only friend, through the outbox.
    const before = (await receivedPings(bo)).length;
    await home.surpriseMe.click();
    await home.toast.filter({ hasText: 'Surprise sent! 🎉' }).waitFor();
    const afterSurprise = await eventually(
      () => receivedPings(bo),
      (pings) => pings.length === before + 1,
    );
    expect(afterSurprise[0]).toMatchObject({ kind: 'prompt', senderId: ada.id });
    expect(afterSurprise[0]!.prompt?.id).toMatch(/^00000000-0000-7000-8000-0000000000/);
    await home.counter('pings').filter({ hasText: '3' }).waitFor();

    // The anchor tile sends the anchor's ping, rewritten for the sender's voice.
    await home.anchorTile('Bo Friend').click();
    await home.toast.filter({ hasText: 'Anchor ping sent! ⚓' }).waitFor();
    const afterAnchor = await eventually(
      () => receivedPings(bo),
      (pings) => pings.length === before + 2,
    );
    expect(afterAnchor[0]).toMatchObject({
      kind: 'anchor',
      anchorId: anchor.id,
      customText: anchorCustomRewrite(MISS_YOU),
      customEmoji: '💕',
    });
    expect(anchorCustomRewrite(MISS_YOU)).toBe('I miss me');

    // Add Anchor opens the anchor dialog; Quick Ping opens the send flow for that friend.
    await home.addAnchor.click();
    await page.getByRole('dialog', { name: 'Create an Anchor Ping' }).waitFor();
    await page.keyboard.press('Escape');
    await home.quickPingFriend('Bo Friend').click();
    await page.waitForURL(`${baseUrl}/ping-friend/${bo.id}`);
  });

  it('without friends: the Connect with Friends card, and Surprise Me asks for friends first', async () => {
    const zoe = await person('Zoe', 'Alone');
    const page = await newPage();
    await signInPage(page, zoe);
    await page.goto('/');
    const home = new HomeSections(page);
    await home.connectCard.waitFor();
    await home.connectCard.getByRole('button', { name: 'Copy invite link' }).waitFor();
    expect(await home.fab.count()).toBe(0);
    expect(await home.quickPing.count()).toBe(0);
    await home.surpriseMe.click();
    await home.toast.filter({ hasText: 'Add friends and prompts first!' }).waitFor();
    await page.screenshot({ path: artifact('home-empty.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });
});
