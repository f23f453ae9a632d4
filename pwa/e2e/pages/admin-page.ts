import type { Locator, Page } from 'playwright-core';

/** /admin: the dashboard's figures, or access denied. */
export class AdminPage {
  readonly title: Locator;
  readonly denied: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: 'Admin Dashboard', level: 1 });
    this.denied = page.getByText('Access denied. Admin privileges required.');
  }

  async open() {
    await this.page.goto('/admin');
    await this.title.waitFor();
  }

  /** A figure's value by its label in a section ('Overview', 'New sign-ups', 'Activity'). */
  figure(section: string, label: string): Locator {
    return this.page
      .getByRole('region', { name: section })
      .getByTestId(`figure-${label}`)
      .locator('dd');
  }
}
