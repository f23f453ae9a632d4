import type { Locator, Page } from 'playwright-core';

/** The inbox (/inbox): every received ping as a card, newest first. */
export class InboxPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly cards: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Inbox' });
    this.list = page.getByRole('list', { name: 'Received pings' });
    this.cards = this.list.getByRole('article');
  }

  /** The card of one ping, by its id. */
  card(pingId: string): Locator {
    return this.list.locator(`article[data-ping-id="${pingId}"]`);
  }

  bookmark(card: Locator): Locator {
    return card.getByRole('button', { name: 'Bookmark' });
  }
}
