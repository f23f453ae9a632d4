import type { Locator, Page } from 'playwright-core';

/**
 * Privacy and safety: the owner's Settings block (change password, blocked people, sign out
 * everywhere, delete account) and the Block / Report actions on another person's profile.
 */
export class SafetyPage {
  readonly settings: Locator;
  readonly blockedList: Locator;
  readonly noBlocked: Locator;
  readonly blockDialog: Locator;
  readonly reportDialog: Locator;
  readonly deleteDialog: Locator;
  readonly everywhereDialog: Locator;

  constructor(readonly page: Page) {
    this.settings = page.getByTestId('safety-settings');
    this.blockedList = page.getByRole('list', { name: 'Blocked people' });
    this.noBlocked = page.getByText('You have not blocked anyone.');
    this.blockDialog = page.getByRole('dialog', { name: /^Block / });
    this.reportDialog = page.getByRole('dialog', { name: /^Report / });
    this.deleteDialog = page.getByRole('dialog', { name: 'Delete your account?' });
    this.everywhereDialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  }

  toast(text: string): Locator {
    return this.page.locator('.toast').filter({ hasText: text });
  }

  async changePassword(current: string, next: string) {
    await this.settings.getByLabel('Current password').fill(current);
    await this.settings.getByLabel('New password').fill(next);
    await this.settings.getByRole('button', { name: 'Update password' }).click();
  }

  blocked(name: string): Locator {
    return this.blockedList.getByRole('listitem').filter({ hasText: name });
  }

  async block() {
    await this.page.getByRole('button', { name: 'Block', exact: true }).click();
    await this.blockDialog.getByRole('button', { name: 'Block', exact: true }).click();
  }

  async openReport() {
    await this.page.getByRole('button', { name: 'Report', exact: true }).click();
    await this.reportDialog.waitFor();
  }

  async report(reason: string, details: string) {
    await this.openReport();
    await this.reportDialog.getByRole('radio', { name: reason }).check();
    await this.reportDialog.getByLabel('Details (optional)').fill(details);
    await this.reportDialog.getByRole('button', { name: 'Send report' }).click();
  }

  async openDeleteDialog() {
    await this.settings.getByRole('button', { name: 'Delete account' }).click();
    await this.deleteDialog.waitFor();
  }
}
