import type { Locator, Page } from 'playwright-core';

/** The guided tour dialog on Home and the help button that reopens it. */
export class TourPage {
  readonly dialog: Locator;
  readonly next: Locator;
  readonly back: Locator;
  readonly skip: Locator;
  readonly finish: Locator;
  readonly close: Locator;
  readonly help: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.next = this.dialog.getByRole('button', { name: 'Next', exact: true });
    this.back = this.dialog.getByRole('button', { name: 'Back', exact: true });
    this.skip = this.dialog.getByRole('button', { name: 'Skip tour' });
    this.finish = this.dialog.getByRole('button', { name: 'Get Started' });
    this.close = this.dialog.getByRole('button', { name: 'Close tour' });
    this.help = page.getByRole('button', { name: /Help: show the guided tour/ });
  }

  title(text: string): Locator {
    return this.page.getByRole('dialog', { name: text });
  }
}
