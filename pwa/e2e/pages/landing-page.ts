import type { Locator, Page } from 'playwright-core';

export class LandingPage {
  readonly tagline: Locator;
  readonly startConnecting: Locator;
  readonly closingLine: Locator;

  constructor(readonly page: Page) {
    this.tagline = page.getByText('One tap. Real emotion. Stay connected.');
    this.startConnecting = page.getByRole('link', { name: 'Start Connecting' });
    this.closingLine = page.getByText('Feel it. Ping it. Own it.');
  }

  async open() {
    await this.page.goto('/');
    await this.tagline.waitFor();
  }

  featureCard(title: string): Locator {
    return this.page.getByRole('heading', { name: title });
  }

  async startConnectingNow() {
    await this.startConnecting.click();
    await this.page.waitForURL('**/auth');
  }
}
