import type { Locator, Page } from 'playwright-core';

/** The Ping Library (/pings): prompt rows, their actions and the Library's dialogs. */
export class LibraryPage {
  readonly title: Locator;
  readonly newPrompt: Locator;
  readonly dialog: Locator;
  readonly custom: Locator;
  readonly defaults: Locator;
  readonly toast: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1, name: 'Ping Library' });
    this.newPrompt = page.getByRole('button', { name: '+ New Prompt' });
    this.dialog = page.getByRole('dialog');
    this.custom = page.getByRole('region', { name: /Your Prompts/ });
    this.defaults = page.getByRole('region', { name: /Default Prompts/ });
    this.toast = page.locator('.toast');
  }

  async open() {
    await this.page.goto('/pings');
    await this.title.waitFor();
  }

  row(text: string): Locator {
    return this.page.getByRole('listitem').filter({
      has: this.page.getByText(text, { exact: true }),
    });
  }

  action(text: string, name: 'Assign' | 'Send' | 'Edit' | 'Delete'): Locator {
    return this.row(text).getByRole('button', { name: new RegExp(`^${name}`) });
  }

  async create(text: string, emoji = '') {
    await this.newPrompt.click();
    await this.dialog.getByRole('textbox', { name: 'Prompt message' }).fill(text);
    if (emoji) await this.dialog.getByRole('textbox', { name: 'Emoji (optional)' }).fill(emoji);
    await this.dialog.getByRole('button', { name: 'Create Prompt' }).click();
  }

  /** Opens a prompt's Edit dialog, replaces its text and saves. */
  async edit(text: string, newText: string) {
    await this.action(text, 'Edit').click();
    const field = this.dialog.getByRole('textbox', { name: 'Prompt message' });
    await field.fill(newText);
    await this.dialog.getByRole('button', { name: 'Save Changes' }).click();
  }
}
