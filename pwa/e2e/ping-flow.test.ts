/**
 * The ping flow on Home in a real Chromium against the real server: a prompt tile opens the send
 * dialog; one friend and a group of two get the ping live (over /ws) in the receiver's wording;
 * a reaction reaches the sender without a reload; an unread card becomes read once seen.
 */
import { describe, expect, it } from 'vitest';
import { PingsPage } from './pages/pings-page';
import { artifact, newPage } from './support/browser';
import { befriend, call, person, signInPage, type Person } from './support/people';
import { seriousA11yProblemsIn } from './support/axe';

/** Home's sections of the ping flow, the top bar (sync status) and the open dialog. */
const OURS = ['.your-pings', '.recent-activity', '.top-bar', '[role="dialog"]', '.new-ping-banner'];

const HUG = 'Ping me when you need a hug';
const PROUD = "Ping me when you're proud of something";

async function openHome(who: Person) {
  const page = await newPage();
  await signInPage(page, who);
  await page.goto('/');
  const pings = new PingsPage(page);
  await pings.tile(new RegExp(HUG)).waitFor();
  return pings;
}

describe('ping flow on Home', () => {
  it('sends to one friend and to a group; receivers see it live; reactions and reads flow back', async () => {
    const [ada, bo, cy] = await Promise.all([person('Ada'), person('Bo'), person('Cy')]);
    await befriend(ada, bo);
    await befriend(ada, cy);
    const [sender, boHome, cyHome] = await Promise.all([openHome(ada), openHome(bo), openHome(cy)]);

    // Your Pings: 4 default prompts and the Custom Ping tile, each prompt for both friends.
    await expect.poll(() => sender.tile(/2 friends/).count()).toBe(4);
    await expect(sender.tile('Custom Ping Write your own').isVisible()).resolves.toBe(true);
    await sender.page.screenshot({ path: artifact('home-pings.png'), fullPage: true });
    expect(await seriousA11yProblemsIn(sender.page, OURS)).toEqual([]);

    // The dialog: empty selection, Send disabled until someone is ticked.
    await sender.tile(new RegExp(HUG)).click();
    const send1 = sender.dialog.getByRole('button', { name: 'Send (0)' });
    expect(await send1.isDisabled()).toBe(true);
    await sender.dialog.getByRole('checkbox', { name: 'Bo Tester' }).check();
    await sender.page.screenshot({ path: artifact('send-dialog.png') });
    expect(await seriousA11yProblemsIn(sender.page, OURS)).toEqual([]);
    await sender.dialog.getByRole('button', { name: 'Send (1)' }).click();
    await sender.toast.filter({ hasText: 'Pings sent! 🎉' }).waitFor();
    await sender.toast.filter({ hasText: `Sent "${HUG}" to your friend` }).waitFor();

    // Bo sees it without a reload, in the receiver's wording, with the banner; it becomes read.
    await boHome.banner.filter({ hasText: 'New Ping from Ada!' }).waitFor();
    const boCard = boHome.card('Ping from Ada');
    await boCard.filter({ hasText: 'Ping you when I need a hug' }).waitFor();
    await boCard.getByTestId('unread-dot').waitFor();
    // Read about 1 s after the card is on screen (Recent Activity is below the fold on a phone).
    await boCard.scrollIntoViewIfNeeded();
    await expect
      .poll(
        async () =>
          (await call<{ isRead: boolean }[]>(bo, 'GET', '/api/pings/recent')).body[0]?.isRead,
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await boCard.getByTestId('unread-dot').waitFor({ state: 'detached' });

    // Bo reacts; the reaction shows on Ada's card without a reload.
    await boHome.reaction(boCard, 'Love it!').click();
    await boCard.getByText('You reacted').waitFor();
    expect(await boHome.reaction(boCard, 'Love it!').getAttribute('aria-pressed')).toBe('true');
    await sender
      .card('Ping to Bo')
      .getByTestId('their-reaction')
      .filter({ hasText: 'Bo reacted' })
      .waitFor();

    // A group of two: one toast, both receive it.
    await sender.sendPrompt(new RegExp(PROUD.replace('?', '')), ['Bo Tester', 'Cy Tester']);
    await sender.toast
      .filter({ hasText: `Sent "${PROUD}" to 2 friends as a group ping` })
      .waitFor();
    await cyHome
      .card('Ping from Ada')
      .filter({ hasText: "Ping you when I'm proud of something" })
      .waitFor();
    await boHome.card('Ping from Ada').filter({ hasText: "I'm proud of something" }).waitFor();
    const [toBo, toCy] = await Promise.all([
      call<{ groupId: string | null; prompt: { text: string } }[]>(bo, 'GET', '/api/pings/recent'),
      call<{ groupId: string | null }[]>(cy, 'GET', '/api/pings/recent'),
    ]);
    expect(toBo.body).toHaveLength(2);
    expect(toCy.body).toHaveLength(1);
    expect(toBo.body[0]!.groupId).toBeTruthy();
    expect(toBo.body[0]!.groupId).toBe(toCy.body[0]!.groupId);
    await boHome.page.screenshot({ path: artifact('home-received.png'), fullPage: true });
  });
});
