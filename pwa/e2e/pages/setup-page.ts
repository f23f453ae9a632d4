import type { Locator, Page } from 'playwright-core';

/** The onboarding setup a new account goes through before the app (spec section 2). */
export class SetupPage {
  readonly heading: Locator;
  readonly progress: Locator;
  readonly stepTitle: Locator;
  readonly username: Locator;
  readonly bio: Locator;
  readonly location: Locator;
  readonly next: Locator;
  readonly back: Locator;
  readonly skip: Locator;
  readonly complete: Locator;
  readonly taken: Locator;
  readonly available: Locator;
  /** The suggested usernames offered for a taken one. */
  readonly suggestions: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Set up your profile' });
    this.progress = page.getByRole('progressbar', { name: 'Setup progress' });
    this.stepTitle = page.getByRole('heading', { level: 2 });
    this.username = page.getByRole('textbox', { name: 'Username' });
    this.bio = page.getByRole('textbox', { name: 'Bio' });
    this.location = page.getByRole('textbox', { name: 'Location' });
    this.next = page.getByRole('button', { name: 'Next', exact: true });
    this.back = page.getByRole('button', { name: 'Back', exact: true });
    this.skip = page.getByRole('button', { name: 'Skip for now' });
    this.complete = page.getByRole('button', { name: 'Complete Setup' });
    this.taken = page.getByText('Taken', { exact: true });
    this.available = page.getByText(/is available$/);
    this.suggestions = page.getByRole('region', { name: 'Try one of these' }).getByRole('button');
  }

  async waitForStep(n: 1 | 2 | 3 | 4) {
    await this.page.getByText(`Step ${n} of 4`, { exact: true }).waitFor();
  }

  suggestion(handle: string): Locator {
    return this.page.getByRole('button', { name: `@${handle}`, exact: true });
  }

  popularLocation(place: string): Locator {
    return this.page.getByRole('button', { name: place, exact: true });
  }

  addPerson(name: string): Locator {
    return this.page.getByRole('button', { name: `Add ${name}` });
  }
}
