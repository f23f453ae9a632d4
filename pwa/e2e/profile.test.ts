import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AnchorDialogModel } from './pages/anchor-dialog';
import { PrivacyPage } from './pages/privacy-page';
import { ProfilePage } from './pages/profile-page';
import { seriousA11yProblems } from './support/axe';
import { artifact, outboxEmpty, watchPhotoTraffic } from './support/browser';
import { befriend, call, pageAs, person, ping, selfRecord, type Person } from './support/people';

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

const me = selfRecord;

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
    const photoTraffic = watchPhotoTraffic(page);

    await profile.name('Ada Tester').waitFor();
    await page.getByText(ada.email).waitFor();
    expect(await profile.stat('Friends').textContent()).toBe('0');
    await profile.customPrompts.getByRole('link', { name: 'Create Prompt' }).waitFor();
    await page.getByRole('link', { name: 'App Settings' }).waitFor();
    await page.screenshot({ path: artifact('profile-simple.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // A custom prompt made elsewhere shows under 'Your Custom Prompts' and can be deleted.
    const made = await call(ada, 'POST', '/api/prompts', {
      text: 'Ping me for a walk',
      emoji: '🚶',
    });
    expect(made.status).toBe(201);
    const row = profile.customPrompts
      .getByRole('listitem')
      .filter({ hasText: 'Ping me for a walk' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete prompt: Ping me for a walk' }).click();
    await profile.toast('Prompt deleted successfully!').waitFor();
    await row.waitFor({ state: 'detached' });
    await outboxEmpty(page);
    expect((await call(ada, 'GET', '/api/prompts/user')).body).toEqual([]);

    // Tagline: click to edit, counter n/100, Enter saves through the outbox.
    await profile.editTagline('Coffee first');
    await page.getByText('12/100').waitFor();
    await page.keyboard.press('Enter');
    await profile.toast('Profile Updated').waitFor();
    await page.getByRole('button', { name: /^Tagline: Coffee first/ }).waitFor();
    await outboxEmpty(page);
    await expect.poll(async () => (await me(ada)).tagline).toBe('Coffee first');

    // Photo: a 1200×600 PNG goes through the pipeline (800 px JPEG); the server keeps it as a
    // 264 px square WebP and a 96 px copy, which this 88 px avatar on a 1x screen shows.
    await profile.uploadPhoto({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await generatedPng(page, 1200, 600),
    });
    await profile.toast('Your new photo is on your profile.').waitFor();
    // Sent as a JPEG file to its own route, never as a data URL inside JSON.
    expect(photoTraffic.uploads).toEqual(['image/jpeg']);
    expect(photoTraffic.inlineImages()).toBe(0);
    const stored = (await me(ada)).profileImageUrl as string;
    expect(stored).toMatch(/^\/uploads\/[\w-]+\.webp$/);
    const img = page.locator(`img.avatar[src="${stored}"]`);
    await img.waitFor();
    await expect
      .poll(() =>
        img.evaluate((el: HTMLImageElement) => [
          new URL(el.currentSrc).pathname,
          el.naturalWidth,
          el.naturalHeight,
        ]),
      )
      // The natural size of a srcset candidate is scaled to its `sizes` (96w drawn at 88 px).
      .toEqual([stored.replace('.webp', '-96.webp'), 88, 88]);
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
    await page.getByRole('button', { name: 'Install Cozy Check-ins' }).click();
    await profile.toast('Pack installed').waitFor();
    await page.getByRole('button', { name: 'Cozy Check-ins installed' }).waitFor();
    await outboxEmpty(page);
    const installed = await call(ada, 'GET', '/api/prompts/user');
    expect(installed.body.length).toBeGreaterThan(0);
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

    // A moment of a ping between the two shows on Bea's Moments tab for Ada.
    const sent = await call(bea, 'POST', '/api/pings', {
      promptId: '00000000-0000-7000-8000-000000000005',
      receiverId: ada.id,
    });
    expect(sent.status).toBe(201);
    const marked = await call(ada, 'PATCH', `/api/pings/${sent.body.id}/bookmark`, {
      bookmarked: true,
      title: 'Sunday chai',
      description: 'Best afternoon',
    });
    expect(marked.status).toBe(200);
    await friend.profile.tab('Moments').click();
    await friend.page.getByRole('heading', { name: 'Sunday chai' }).waitFor();
    await friend.page.getByText('Best afternoon').waitFor();

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

/** Gives the person a handle so their own profile shows the extended view (with Settings). */
async function extended(who: Person): Promise<void> {
  const handle = `${who.firstName.toLowerCase()}_${Date.now() % 1_000_000}${Math.floor(Math.random() * 90 + 10)}`;
  const res = await call(who, 'PUT', '/api/profile/update', { handle, status: 'Around' });
  expect(res.status).toBe(200);
}

describe('a friend without handle, bio or status', () => {
  it('shows the simple view with e-mail and the Unread count, and no owner controls', async () => {
    const dee = await person('Dee');
    const ada = await person('Ada');
    await befriend(ada, dee);
    const sent = await call(dee, 'POST', '/api/pings', {
      promptId: '00000000-0000-7000-8000-000000000001',
      receiverId: ada.id,
    });
    expect(sent.status).toBe(201);
    const { page, profile } = await openAs(ada, dee.id);
    await profile.name('Dee Tester').waitFor();
    await page.getByText(dee.email).waitFor();
    await page.getByText('Ready to connect with friends! 💭').waitFor();
    await expect.poll(() => profile.stat('Unread').textContent()).toBe('1');
    expect(await profile.stat('Friends').textContent()).toBe('1');
    expect(await profile.uploadPhotoButton.count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Tagline:/ }).count()).toBe(0);
    expect(await profile.customPrompts.count()).toBe(0);
    expect(await profile.locked.count()).toBe(0);
    await page.screenshot({ path: artifact('profile-friend-simple.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Send a Ping' }).click();
    await page.getByRole('heading', { name: 'Send a Ping', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/ping-friend/${dee.id}`);
  });
});

describe('Settings tab', () => {
  it('saves quiet hours and the daily ping limit, which the server then enforces', async () => {
    const bea = await person('Bea');
    const ada = await person('Ada');
    await befriend(ada, bea);
    await extended(bea);
    const { page, profile } = await openAs(bea);
    await profile.tab('Settings').click();
    const limit = page.getByLabel('Daily Ping Limit');
    expect(await limit.inputValue()).toBe('50');
    await page.getByText('Maximum pings per person per day').waitFor();
    await page.getByRole('button', { name: 'Open Admin Dashboard' }).waitFor({ state: 'detached' });

    await limit.fill('0');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Daily ping limit must be at least 1').waitFor();

    await page.getByLabel('Start', { exact: true }).fill('22:00');
    await page.getByLabel('End', { exact: true }).fill('07:30');
    await limit.fill('1');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await profile.toast('Profile updated successfully!').waitFor();
    await outboxEmpty(page);
    expect(await selfRecord(bea)).toMatchObject({
      quietHoursStart: '22:00',
      quietHoursEnd: '07:30',
      rateLimitPerDay: 1,
    });
    await page.screenshot({ path: artifact('profile-settings.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // The limit is now 1 ping per friend per day: Ada's second ping is refused.
    expect(await ping(ada, bea)).toBe(201);
    expect(await ping(ada, bea, 2)).toBe(429);
  });

  it('Download My Data saves a JSON file of the person’s data', async () => {
    const bea = await person('Bea');
    await extended(bea);
    const { page, profile } = await openAs(bea);
    await profile.tab('Settings').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download My Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pingme-export-\d{4}-\d{2}-\d{2}\.json$/);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pingme-export-')), 'export.json');
    await download.saveAs(file);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(data.exportVersion).toBe(1);
    expect(data.user).toMatchObject({ id: bea.id, email: bea.email, status: 'Around' });
    expect(data.settings.rateLimitPerDay).toBe(50);
  });
});

describe('Privacy Settings', () => {
  it('a private profile cannot be found in search any more; the switch waits while saving', async () => {
    const unique = `Priv${Date.now()}`;
    const pia = await person('Pia', unique);
    const cal = await person('Cal');
    const search = async () =>
      (await call(cal, 'GET', `/api/users/search?q=${unique}`)).body.map(
        (u: { id: string }) => u.id,
      );
    expect(await search()).toEqual([pia.id]);

    const page = await pageAs(pia);
    const privacy = new PrivacyPage(page);
    await privacy.open();
    await page.getByText('Anyone can find you and send friend requests').first().waitFor();
    expect(await privacy.visibilitySwitch.getAttribute('aria-checked')).toBe('true');
    await page.screenshot({ path: artifact('privacy-settings.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Keyboard: focus the switch and press Space.
    await privacy.visibilitySwitch.focus();
    await page.keyboard.press('Space');
    await page
      .locator('.toast')
      .filter({ hasText: 'Privacy settings updated successfully!' })
      .waitFor();
    // The switch shows the new state as the device's copy renders (a live query, a moment later).
    await expect.poll(() => privacy.visibilitySwitch.getAttribute('aria-checked')).toBe('false');
    await page.getByRole('switch', { name: 'Private Profile' }).waitFor();
    await outboxEmpty(page);
    await expect.poll(async () => (await selfRecord(pia)).profileVisibility).toBe('private');
    // Enabled again once the pull brings the server's record (no longer pending).
    await expect.poll(() => privacy.visibilitySwitch.isEnabled()).toBe(true);
    expect(await search()).toEqual([]);

    await privacy.backToProfile.click();
    await new ProfilePage(page).title.waitFor();
  });
});

describe('anchors', () => {
  it('A asks B in the anchor dialog, B accepts, both see the mutual anchor; auto-accept', async () => {
    const ada = await person('Ada');
    const bea = await person('Bea');
    const cal = await person('Cal');
    await befriend(ada, bea);
    await befriend(ada, cal);
    await extended(ada);
    await extended(bea);
    // Cal asked Ada already: creating an anchor with Cal accepts his request.
    const asked = await call(cal, 'POST', '/api/profile/anchors', {
      friendId: ada.id,
      text: 'Ping me when you want company',
    });
    expect(asked.status).toBe(201);

    const { page, profile } = await openAs(ada);
    await profile.addAnchorButton.focus();
    await page.keyboard.press('Enter');
    const anchor = new AnchorDialogModel(page);
    await anchor.dialog.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    for (const label of [
      'Miss me',
      'Need me',
      'Free for chai',
      'Need to vent',
      'Want to celebrate',
      'Feeling low',
      'Proud of something',
      'Want company',
    ])
      await anchor.template(label).waitFor();
    await page.screenshot({ path: artifact('anchor-dialog-choose.png') });

    // Custom ping: the message is required (the shared schema's words, toast 'Invalid Input').
    await anchor.chooseCustom();
    await anchor.createButton.click();
    await anchor.dialog.getByText('Please enter an anchor ping message.').waitFor();
    await page.locator('.toast').filter({ hasText: 'Invalid Input' }).waitFor();
    await anchor.dialog.getByRole('button', { name: 'Back' }).click();

    await anchor.template('Feeling low').click();
    expect(await anchor.message.inputValue()).toBe("Ping me when you're feeling low");
    // The first friend without an anchor is chosen: Bea (Cal already asked Ada).
    expect(await anchor.friend.inputValue()).toBe(bea.id);
    await anchor.dialog.getByText("They send you: “I'm feeling low”").waitFor();
    await page.screenshot({ path: artifact('anchor-dialog-customize.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await anchor.createButton.click();
    await page.locator('.toast').filter({ hasText: 'Anchor request sent' }).waitFor();
    await anchor.dialog.waitFor({ state: 'detached' });
    const beaTile = profile.anchors.locator('.pf-anchor-tile').filter({ hasText: 'Bea' });
    await beaTile.getByText('Pending').waitFor();
    await outboxEmpty(page);

    // Bea accepts (through the API); Ada's device pulls on the poke.
    const requests = await call(bea, 'GET', '/api/profile/anchors/requests');
    expect(requests.body).toHaveLength(1);
    expect(requests.body[0]).toMatchObject({
      userId: ada.id,
      text: "Ping me when you're feeling low",
    });
    const answered = await call(
      bea,
      'PATCH',
      `/api/profile/anchors/${requests.body[0].id}/respond`,
      {
        response: 'accept',
      },
    );
    expect(answered.status).toBe(200);
    await beaTile.getByText('Connected').waitFor();

    // Auto-accept: Ada picks Cal, whose request is waiting.
    await profile.addAnchorButton.click();
    await anchor.template('Want company').click();
    await anchor.friend.selectOption(cal.id);
    await anchor.createButton.click();
    await page
      .locator('.toast')
      .filter({ hasText: "Anchor request accepted! You're now connected." })
      .waitFor();
    await profile.anchors
      .locator('.pf-anchor-tile')
      .filter({ hasText: 'Cal' })
      .getByText('Connected')
      .waitFor();
    await outboxEmpty(page);
    const accepted = await call(ada, 'GET', '/api/profile/anchors');
    expect(accepted.body.map((a: { userId: string }) => a.userId).sort()).toEqual(
      [ada.id, cal.id].sort(),
    );
    await page.screenshot({ path: artifact('profile-anchors.png'), fullPage: true });

    // Bea sees the mutual anchor on her own profile, captioned with Ada's first name.
    const beaView = await openAs(bea);
    await beaView.profile.anchors
      .locator('.pf-anchor-tile')
      .filter({ hasText: 'Ada' })
      .getByText('Connected')
      .waitFor();
  });
});
