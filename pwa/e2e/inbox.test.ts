/**
 * Issue 15, items 1, 2 and 12 in a real Chromium against the real server: received pings have a
 * home (/inbox, newest first, virtualised) that the unread badge leads to, where every one can be
 * read, reacted to and bookmarked, and where unread ones are all marked read 2 s after they are
 * shown; a ping's card shows when it was written next to when it arrived when they differ.
 */
import { describe, expect, it } from 'vitest';
import { HomePage } from './pages/home-page';
import { InboxPage } from './pages/inbox-page';
import { PingsPage } from './pages/pings-page';
import { artifact, newPage } from './support/browser';
import { befriend, call, defaultPromptId, person, signInPage } from './support/people';
import { seriousA11yProblemsIn } from './support/axe';

const unreadOf = async (who: Parameters<typeof call>[0]) =>
  (await call<{ count: number }>(who, 'GET', '/api/pings/unread-count')).body.count;

describe('inbox of received pings', () => {
  it('the unread badge leads to every received ping; all are read 2 s later; any can be reacted to and bookmarked', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    const sent: string[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await call<{ id: string }>(bo, 'POST', '/api/pings', {
        promptId: defaultPromptId((i % 4) + 1),
        receiverId: ada.id,
      });
      expect(res.status).toBe(201);
      sent.push(res.body.id);
    }
    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/friends');
    const home = new HomePage(page);
    const pingsLink = home.nav.getByRole('link', { name: /^Pings.*9 unread$/ });
    await pingsLink.waitFor();
    await pingsLink.click();
    await page.waitForURL(/\/inbox$/);
    const inbox = new InboxPage(page);
    await inbox.heading.waitFor();
    // Newest first, and the list says how long it is (a virtualised list keeps aria-setsize).
    await inbox.card(sent[8]!).waitFor();
    expect(await inbox.cards.first().getAttribute('data-ping-id')).toBe(sent[8]);
    expect(await inbox.list.locator('li').first().getAttribute('aria-setsize')).toBe('9');
    await page.screenshot({ path: artifact('inbox-unread.png') });
    expect(await seriousA11yProblemsIn(page, ['.inbox'])).toEqual([]);

    // Spec section 4: all of them, on screen or not, are read 2 s later.
    await expect.poll(() => unreadOf(ada), { timeout: 10_000 }).toBe(0);
    await home.nav.getByRole('link', { name: /^Pings$/ }).waitFor();

    // The oldest one, far down the list, can still be reacted to and bookmarked.
    await page.keyboard.press('End');
    const oldest = inbox.card(sent[0]!);
    await oldest.waitFor();
    await oldest.getByRole('button', { name: 'Love it!' }).click();
    await oldest.getByText('You reacted').waitFor();
    await inbox.bookmark(oldest).click();
    await expect.poll(() => inbox.bookmark(oldest).getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(
        async () => {
          const all = (
            await call<{ id: string; isBookmarked: boolean; reactions: { userId: string }[] }[]>(
              ada,
              'GET',
              '/api/pings/recent',
            )
          ).body;
          const p = all.find((x) => x.id === sent[0]);
          return [p?.isBookmarked, p?.reactions.some((r) => r.userId === ada.id)];
        },
        { timeout: 10_000 },
      )
      .toEqual([true, true]);
    await page.screenshot({ path: artifact('inbox-bookmarked.png') });
  });

  it('a ping written 2 h before it reached the server shows both times to the receiver', async () => {
    const [ada, bo] = await Promise.all([person('Ada'), person('Bo')]);
    await befriend(ada, bo);
    // Bo's device clock says two hours ago: to the server, a ping written then and sent now.
    const boPage = await newPage();
    await boPage.addInitScript(() => {
      const OFFSET = -2 * 3_600_000;
      const Real = Date;
      class Earlier extends Real {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(Real.now() + OFFSET);
          else super(...(args as [string]));
        }
        static override now() {
          return Real.now() + OFFSET;
        }
      }
      globalThis.Date = Earlier as DateConstructor;
    });
    await signInPage(boPage, bo);
    await boPage.goto('/');
    const boHome = new PingsPage(boPage);
    await boHome.sendPrompt(/Ping me when you need a hug.*1 friend/, ['Ada Tester']);

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/inbox');
    const inbox = new InboxPage(page);
    const card = inbox.cards.first();
    await card.getByTestId('ping-written').filter({ hasText: 'Written 2h ago' }).waitFor();
    expect(await card.getByTestId('ping-written').textContent()).toBe(
      'Written 2h ago · arrived just now',
    );
    await card.screenshot({ path: artifact('inbox-written-earlier.png') });
  });
});
