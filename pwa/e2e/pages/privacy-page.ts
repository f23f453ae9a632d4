import type { Locator, Page } from 'playwright-core';

/** /privacy-settings: the public/private switch. */
export class PrivacyPage {
  readonly title: Locator;
  readonly visibilitySwitch: Locator;
  readonly backToProfile: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: 'Privacy Settings', level: 1 });
    this.visibilitySwitch = page.getByRole('switch');
    this.backToProfile = page.getByRole('link', { name: 'Back to Profile' });
  }

  async open() {
    await this.page.goto('/privacy-settings');
    await this.title.waitFor();
  }
}
