import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ProfilePage } from './pages/profile-page';
import { seriousA11yProblems } from './support/axe';
import { artifact } from './support/browser';
import {
  befriend,
  call,
  outboxEmpty,
  pageAs,
  person,
  selfOf,
  type Person,
} from './support/profile-people';

/** A PNG of the given size drawn by the browser itself (no image library on the Node side). */
async function generatedPng(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const g = ctx.createLinearGradient(0, 0, w, h);
      g.addColorStop(0, '#c2410c');
      g.addColorStop(1, '#1d4ed8');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, w, h);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}

const me = selfOf;

async function openAs(who: Person, userId?: string) {
  const page = await pageAs(who);
  const profile = new ProfilePage(page);
  await profile.open(userId);
  return { page, profile };
}

describe('own profile', () => {
  it('simple view: photo upload and removal, tagline edit; a handle and bio turn it extended', async () => {
    const ada = await person('Ada');
    const { page, profile } = await openAs(ada);

    await profile.name('Ada Tester').waitFor();
    await page.getByText(ada.email).waitFor();
    expect(await profile.stat('Friends').textContent()).toBe('0');
    await profile.customPrompts.getByRole('link', { name: 'Create Prompt' }).waitFor();
    await page.getByRole('link', { name: 'App Settings' }).waitFor();
    await page.screenshot({ path: artifact('profile-simple.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Tagline: click to edit, counter n/100, Enter saves through the outbox.
    await profile.editTagline('Coffee first');
    await page.getByText('12/100').waitFor();
    await page.keyboard.press('Enter');
    await profile.toast('Profile Updated').waitFor();
    await page.getByRole('button', { name: /^Tagline: Coffee first/ }).waitFor();
    await outboxEmpty(page);
    await expect.poll(async () => (await me(ada)).tagline).toBe('Coffee first');

    // Photo: a 1200×600 PNG goes through the pipeline (800 px JPEG) and is served from /uploads.
    await profile.uploadPhoto({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await generatedPng(page, 1200, 600),
    });
    await profile.toast('Your new photo is on your profile.').waitFor();
    const stored = (await me(ada)).profileImageUrl as string;
    expect(stored).toMatch(/^\/uploads\/[\w-]+\.jpg$/);
    const img = page.locator(`img.avatar[src="${stored}"]`);
    await img.waitFor();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight]))
      .toEqual([800, 400]);
    await page.screenshot({ path: artifact('profile-simple-photo.png'), fullPage: true });

    // A file that is not an image is refused before anything is sent.
    await profile.uploadPhoto({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hi'),
    });
    await profile.toast('Invalid file type').waitFor();
    expect((await me(ada)).profileImageUrl).toBe(stored);

    await profile.removePhotoButton.click();
    await expect.poll(async () => (await me(ada)).profileImageUrl).toBeNull();
    await img.waitFor({ state: 'detached' });

    // Edit mode: the shared schema's messages, then handle and bio make the view extended.
    await profile.openEdit();
    const dialog = profile.editDialog;
    await dialog.getByLabel('Personal link').fill('ftp://nope');
    await dialog.getByRole('button', { name: 'Save Profile' }).click();
    await dialog.getByText('Personal link must start with http:// or https://').waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    const handle = `ada_${Date.now() % 1_000_000}`;
    await dialog.getByLabel('Personal link').fill('https://ada.example.org');
    await dialog.getByLabel('Username').fill(handle);
    await dialog.getByLabel('Mini bio (1-2 lines)').fill('Counting engines and chai.');
    await dialog.getByLabel('Location').fill('London');
    await dialog.getByRole('button', { name: 'Save Profile' }).click();
    await profile.toast('Profile updated successfully!').waitFor();

    await page.getByText(`@${handle}`).waitFor();
    await page.getByText('Counting engines and chai.').waitFor();
    const link = page.getByRole('link', { name: 'ada.example.org' });
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    for (const tab of ['Overview', 'Moments', 'Packs', 'Settings'] as const)
      await profile.tab(tab).waitFor();
    await page.getByRole('heading', { name: 'This Week' }).waitFor();
    await outboxEmpty(page);
    expect(await me(ada)).toMatchObject({
      handle,
      bio: 'Counting engines and chai.',
      location: 'London',
    });
    await page.screenshot({ path: artifact('profile-extended.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Moments and Packs, by keyboard: arrows move between tabs.
    await profile.tab('Overview').focus();
    await page.keyboard.press('ArrowRight');
    await page.getByText('No moments yet—bookmark a ping that made you smile.').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { name: 'Your Ping Packs' }).waitFor();
    await page.getByRole('heading', { name: 'Cozy Check-ins' }).waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
  });
});

describe('someone else’s profile', () => {
  it('a friend sees the extended view, a stranger the lock with name and counts only', async () => {
    const bea = await person('Bea');
    const ada = await person('Ada');
    const cal = await person('Cal');
    await befriend(ada, bea);
    const handle = `bea_${Date.now() % 1_000_000}`;
    const update = await call(bea, 'PUT', '/api/profile/update', {
      handle,
      bio: 'Tea over coffee.',
      status: 'Out hiking',
      location: 'Toronto',
      personalLink: 'https://bea.example.org',
    });
    expect(update.status).toBe(200);

    const friend = await openAs(ada, bea.id);
    await friend.profile.name('Bea Tester').waitFor();
    await friend.page.getByText(`@${handle}`).waitFor();
    await friend.page.getByText('Tea over coffee.').waitFor();
    await friend.page.getByText('Out hiking').waitFor();
    await friend.page.getByText('Toronto').waitFor();
    expect(
      await friend.page.getByRole('link', { name: 'bea.example.org' }).getAttribute('rel'),
    ).toBe('noopener noreferrer');
    await friend.profile.tab('Packs').waitFor();
    expect(await friend.profile.tab('Settings').count()).toBe(0);
    await friend.profile.backButton.waitFor();
    await friend.page.screenshot({ path: artifact('profile-friend.png'), fullPage: true });
    expect(await seriousA11yProblems(friend.page)).toEqual([]);

    const stranger = await openAs(cal, bea.id);
    await stranger.profile.name('Bea Tester').waitFor();
    await stranger.profile.locked.waitFor();
    await stranger.page.getByText('Add them as a friend to see more details').waitFor();
    expect(await stranger.profile.stat('Friends').textContent()).toBe('1');
    expect(await stranger.page.getByText('Tea over coffee.').count()).toBe(0);
    expect(await stranger.page.getByText(`@${handle}`).count()).toBe(0);
    expect(await stranger.page.getByText(bea.email).count()).toBe(0);
    await stranger.page.screenshot({ path: artifact('profile-locked.png'), fullPage: true });
    expect(await seriousA11yProblems(stranger.page)).toEqual([]);
  });
});
