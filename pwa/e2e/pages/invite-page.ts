import type { Locator, Page } from 'playwright-core';

/** /invite/{code} */
export class InvitePage {
  readonly acceptButton: Locator;
  readonly success: Locator;

  constructor(readonly page: Page) {
    this.acceptButton = page.getByRole('button', { name: 'Accept Invitation' });
    this.success = page.getByRole('heading', { name: 'Success!' });
  }

  inviterHeading(name: string): Locator {
    return this.page.getByRole('heading', { name: `${name} invited you` });
  }

  async open(code: string) {
    await this.page.goto(`/invite/${code}`);
  }

  async accept() {
    await this.acceptButton.click();
  }
}
