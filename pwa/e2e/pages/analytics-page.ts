import type { Locator, Page } from 'playwright-core';

/** /analytics: the Analytics and Energy tabs, the energy overview and details. */
export class AnalyticsPage {
  readonly title: Locator;
  readonly refreshButton: Locator;
  readonly energyOverview: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: 'Analytics', level: 1 });
    this.refreshButton = page.getByRole('button', {
      name: /Refresh Energy Metrics|Updating\.\.\./,
    });
    this.energyOverview = page.locator('.en-list');
  }

  async open() {
    await this.page.goto('/analytics');
    await this.title.waitFor();
  }

  tab(name: 'Analytics' | 'Energy' | 'Overview' | 'Details'): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  /** The value of a card ('Pings Sent', 'Average Energy', …). */
  card(label: string): Locator {
    return this.page
      .locator('.an-card')
      .filter({ has: this.page.locator('.an-card__label', { hasText: label }) });
  }

  async cardValue(label: string): Promise<string | null> {
    return this.card(label).locator('.an-card__value').textContent();
  }

  friendRow(name: string): Locator {
    return this.energyOverview.getByRole('button', { name: new RegExp(name) });
  }
}
