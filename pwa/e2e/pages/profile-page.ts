import type { Locator, Page } from 'playwright-core';

export class ProfilePage {
  readonly title: Locator;
  readonly signOutButton: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: 'Profile', level: 1 });
    this.signOutButton = page.getByRole('button', { name: 'Sign Out' });
  }

  async signOut() {
    await this.signOutButton.click();
  }
}
