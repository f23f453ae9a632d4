import type { Locator, Page } from 'playwright-core';

/** Home's ping sections (Your Pings, the send dialogs, Recent Activity) and the new-ping banner. */
export class PingsPage {
  readonly yourPings: Locator;
  readonly recentActivity: Locator;
  readonly dialog: Locator;
  readonly banner: Locator;
  readonly toast: Locator;

  constructor(readonly page: Page) {
    this.yourPings = page.getByRole('region', { name: 'Your Pings' });
    this.recentActivity = page.getByRole('region', { name: 'Recent Activity' });
    this.dialog = page.getByRole('dialog');
    this.banner = page.getByTestId('new-ping-banner');
    this.toast = page.locator('.toast');
  }

  tile(text: string | RegExp): Locator {
    return this.yourPings.getByRole('button', { name: text });
  }

  /** Opens a prompt's send dialog, ticks these friends and presses Send (N). */
  async sendPrompt(prompt: string | RegExp, friendNames: string[]): Promise<void> {
    await this.tile(prompt).click();
    for (const name of friendNames) {
      await this.dialog.getByRole('checkbox', { name }).check();
    }
    await this.dialog.getByRole('button', { name: `Send (${friendNames.length})` }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }

  /** A card in Recent Activity: 'Ping from {name}' or 'Ping to {name}'. */
  card(label: string): Locator {
    return this.recentActivity.getByRole('article', { name: label });
  }

  reaction(card: Locator, title: 'Love it!' | 'Yes!' | 'Amazing!'): Locator {
    return card.getByRole('button', { name: title });
  }
}
