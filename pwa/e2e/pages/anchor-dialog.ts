import type { Locator, Page } from 'playwright-core';

/** The anchor dialog: choose a template (or a custom ping), then customise and create. */
export class AnchorDialogModel {
  readonly dialog: Locator;
  readonly createButton: Locator;
  readonly message: Locator;
  readonly friend: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Create an Anchor Ping' });
    this.createButton = this.dialog.getByRole('button', { name: 'Create Anchor' });
    this.message = this.dialog.getByLabel('Anchor message');
    this.friend = this.dialog.getByLabel('Friend');
  }

  template(label: string): Locator {
    return this.dialog.getByRole('button', { name: label, exact: true });
  }

  async chooseCustom() {
    await this.dialog.getByRole('button', { name: 'Create custom ping' }).click();
    await this.message.waitFor();
  }
}
