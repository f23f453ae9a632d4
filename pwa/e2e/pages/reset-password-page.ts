import type { Locator, Page } from 'playwright-core';

/** /reset-password?token=... */
export class ResetPasswordPage {
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly updateButton: Locator;
  readonly updated: Locator;
  readonly invalidLink: Locator;

  constructor(readonly page: Page) {
    this.newPassword = page.getByLabel('New password');
    this.confirmPassword = page.getByLabel('Confirm password');
    this.updateButton = page.getByRole('button', { name: 'Update Password' });
    this.updated = page.getByRole('heading', { name: 'Password Updated!' });
    this.invalidLink = page.getByRole('heading', { name: 'Invalid Reset Link' });
  }

  async open(query = '') {
    await this.page.goto(`/reset-password${query}`);
  }

  async setPassword(password: string, confirm = password) {
    await this.newPassword.fill(password);
    await this.confirmPassword.fill(confirm);
    await this.updateButton.click();
  }
}
