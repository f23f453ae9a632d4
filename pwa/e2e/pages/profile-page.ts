import type { Locator, Page } from 'playwright-core';

/** /profile and /profile/{id}: both views, the tabs, edit mode, photo and tagline. */
export class ProfilePage {
  readonly title: Locator;
  readonly signOutButton: Locator;
  readonly photoInput: Locator;
  readonly uploadPhotoButton: Locator;
  readonly removePhotoButton: Locator;
  readonly editDialog: Locator;
  readonly locked: Locator;
  readonly customPrompts: Locator;
  readonly anchors: Locator;
  readonly addAnchorButton: Locator;
  readonly backButton: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { name: 'Profile', level: 1 });
    this.signOutButton = page.getByRole('button', { name: 'Sign Out', exact: true });
    this.photoInput = page.getByTestId('photo-input');
    this.uploadPhotoButton = page.getByRole('button', { name: /^(Upload|Change) photo$/ });
    this.removePhotoButton = page.getByRole('button', { name: 'Remove photo' });
    this.editDialog = page.getByRole('dialog', { name: 'Edit Profile' });
    this.locked = page.getByRole('heading', { name: 'This profile is private' });
    this.customPrompts = page.getByRole('region', { name: 'Your Custom Prompts' });
    this.anchors = page.getByRole('region', { name: /Anchors|Your anchor/ });
    this.addAnchorButton = page.getByRole('button', { name: 'Add Anchor' });
    this.backButton = page.getByRole('button', { name: 'Back' });
  }

  async open(userId?: string) {
    await this.page.goto(userId ? `/profile/${userId}` : '/profile');
    await this.title.waitFor();
  }

  /** The person's name as the profile shows it (level 2 under the screen title). */
  name(text: string): Locator {
    return this.page.getByRole('heading', { name: text, level: 2 });
  }

  tab(name: 'Overview' | 'Moments' | 'Packs' | 'Settings'): Locator {
    return this.page.getByRole('tab', { name });
  }

  stat(label: string): Locator {
    return this.page
      .locator('.pf-stat-card')
      .filter({ hasText: label })
      .locator('.pf-stat-card__value');
  }

  async signOut() {
    await this.signOutButton.click();
  }

  async editTagline(text: string) {
    await this.page.getByRole('button', { name: /^Tagline:/ }).click();
    await this.page.getByLabel('Tagline').fill(text);
  }

  async openEdit() {
    await this.page.getByRole('button', { name: /^Edit profile/i }).click();
    await this.editDialog.waitFor();
  }

  async uploadPhoto(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.photoInput.setInputFiles(file);
  }

  toast(title: string | RegExp): Locator {
    return this.page.locator('.toast').filter({ hasText: title });
  }
}
