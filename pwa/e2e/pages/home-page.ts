import type { Locator, Page } from 'playwright-core';

/** Home (/ signed in) and the app shell around every signed-in screen. */
export class HomePage {
  readonly name: Locator;
  readonly nav: Locator;
  readonly syncStatus: Locator;

  constructor(readonly page: Page) {
    this.name = page.getByRole('heading', { level: 1 });
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.syncStatus = page.getByTestId('sync-status');
  }

  async goTo(section: 'Home' | 'Pings' | 'Activity' | 'Friends' | 'Profile') {
    await this.nav.getByRole('link', { name: section }).click();
  }
}
