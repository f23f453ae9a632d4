import type { Locator, Page } from 'playwright-core';

/** /activity: Recent Pings (filter chips) and Friend Requests tabs. */
export class ActivityPage {
  readonly title: Locator;
  readonly pingsTab: Locator;
  readonly requestsTab: Locator;
  readonly panel: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1, name: 'Activity' });
    this.pingsTab = page.getByRole('tab', { name: /^Recent Pings/ });
    this.requestsTab = page.getByRole('tab', { name: /^Friend Requests/ });
    this.panel = page.getByRole('tabpanel');
    this.list = this.panel.getByRole('list', { name: 'Activity' }).first();
  }

  async open() {
    await this.page.goto('/activity');
    await this.title.waitFor();
  }

  async filter(name: 'All' | 'Sent' | 'Received' | 'Anchors') {
    await this.panel.getByRole('button', { name, exact: true }).click();
  }

  /** The items' texts and status labels, in order. */
  async items(): Promise<{ text: string; status: string }[]> {
    const rows = this.list.getByRole('listitem');
    const out = [];
    for (const row of await rows.all()) {
      out.push({
        text: (await row.locator('.act-item__words').innerText()).trim(),
        status: (await row.locator('.act-status').innerText()).trim(),
      });
    }
    return out;
  }

  anchorRequest(name: string): Locator {
    return this.panel
      .getByRole('region', { name: /Anchor Requests/ })
      .getByRole('listitem')
      .filter({ hasText: name });
  }
}

/** /notifications: All Activity and Friend Requests tabs. */
export class NotificationsPage {
  readonly title: Locator;
  readonly allTab: Locator;
  readonly requestsTab: Locator;
  readonly panel: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1, name: 'Notifications' });
    this.allTab = page.getByRole('tab', { name: /^All Activity/ });
    this.requestsTab = page.getByRole('tab', { name: /^Friend Requests/ });
    this.panel = page.getByRole('tabpanel');
    this.list = this.panel.getByRole('list', { name: 'Notifications' });
  }

  async open() {
    await this.page.goto('/notifications');
    await this.title.waitFor();
  }

  async texts(): Promise<string[]> {
    return (await this.list.locator('.act-item__text').allInnerTexts()).map((t) => t.trim());
  }
}
