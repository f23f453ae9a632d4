/**
 * Privacy and safety (docs/security.md): change password, block and unblock, report and the
 * admin's Open Reports, delete account; axe on the Settings block and the dialogs.
 */
import { describe, expect, it } from 'vitest';
import { E2E_SAFETY_ADMIN_EMAIL } from './global-setup';
import { AuthPage } from './pages/auth-page';
import { FriendsPage } from './pages/friends-page';
import { PingsPage } from './pages/pings-page';
import { ProfilePage } from './pages/profile-page';
import { SafetyPage } from './pages/safety-page';
import { seriousA11yProblems, seriousA11yProblemsIn } from './support/axe';
import { artifact, baseUrl, dexieRows, newPage, registerByApi } from './support/browser';
import {
  befriend,
  call,
  login,
  named,
  pageAs,
  person,
  ping,
  verifyByMail,
  type Person,
} from './support/people';

/** Gives the person a handle so their own profile shows the extended view (with Settings). */
async function extended(who: Person): Promise<void> {
  const handle = `${who.firstName.toLowerCase()}_${Date.now() % 1_000_000}${Math.floor(Math.random() * 90 + 10)}`;
  expect((await call(who, 'PUT', '/api/profile/update', { handle })).status).toBe(200);
}

/** The owner's Settings tab, open. */
async function openSettings(who: Person) {
  const page = await pageAs(who);
  const profile = new ProfilePage(page);
  await profile.open();
  await profile.tab('Settings').click();
  const safety = new SafetyPage(page);
  await safety.settings.waitFor();
  return { page, profile, safety };
}

/** This file's own admin (ADMIN_EMAILS in global-setup.ts), made on first use. */
let safetyAdmin: Promise<Person> | undefined;
function theAdmin(): Promise<{ admin: Person }> {
  safetyAdmin ??= (async () => {
    const user = await registerByApi({
      firstName: 'Admin',
      lastName: 'Safety',
      email: E2E_SAFETY_ADMIN_EMAIL,
    });
    await verifyByMail(E2E_SAFETY_ADMIN_EMAIL);
    const cookie = await login(E2E_SAFETY_ADMIN_EMAIL, user.password);
    return {
      id: user.id,
      firstName: 'Admin',
      email: E2E_SAFETY_ADMIN_EMAIL,
      password: user.password,
      cookie,
    };
  })();
  return safetyAdmin.then((admin) => ({ admin }));
}

describe('account security in Settings', () => {
  it('changes the password (a wrong current one is refused inline); the new one signs in', async () => {
    const ada = await person('Ada');
    await extended(ada);
    const { page, safety } = await openSettings(ada);
    await page.screenshot({ path: artifact('safety-settings.png'), fullPage: true });
    expect(await seriousA11yProblemsIn(page, ['[data-testid="safety-settings"]'])).toEqual([]);

    await safety.changePassword('', 'abc');
    await safety.settings.getByText('Enter your current password').waitFor();
    await safety.settings.getByText('Password must be at least 6 characters').waitFor();

    await safety.changePassword('not my password', 'brand new pass');
    await safety.settings
      .getByRole('alert')
      .filter({ hasText: 'That password is not correct' })
      .waitFor();

    await safety.changePassword(ada.password, 'brand new pass');
    await safety.toast('Password updated!').waitFor();
    expect(await safety.settings.getByLabel('Current password').inputValue()).toBe('');
    // This device stays signed in (under a new session id).
    expect((await page.request.get('/api/user')).status()).toBe(200);

    await expect(login(ada.email, ada.password)).rejects.toThrow(/login failed/);
    const fresh = await newPage();
    const auth = new AuthPage(fresh);
    await auth.open();
    await auth.signIn(ada.email, 'brand new pass');
    await expect.poll(async () => (await fresh.request.get('/api/user')).status()).toBe(200);
  });

  it('signs out everywhere after a confirmation: every session ends, this device is at /', async () => {
    const bo = await person('Bo');
    await extended(bo);
    const other = await login(bo.email, bo.password);
    const { page, safety } = await openSettings(bo);
    await safety.settings.getByRole('button', { name: 'Sign out everywhere' }).click();
    await safety.everywhereDialog.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await safety.everywhereDialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(`${baseUrl}/`);
    expect((await page.request.get('/api/user')).status()).toBe(401);
    const elsewhere = await fetch(`${baseUrl}/api/user`, { headers: { cookie: other } });
    expect(elsewhere.status).toBe(401);
  });
});

describe('blocking', () => {
  it('blocks a friend from their profile: the friendship ends for both; unblock in Settings', async () => {
    const ada = await named('Ada');
    const bea = await named('Bea');
    await befriend(ada, bea);
    await extended(ada);
    const adaName = `Ada ${ada.lastName}`;
    const beaName = `Bea ${bea.lastName}`;

    const beaPage = await pageAs(bea);
    const beaFriends = new FriendsPage(beaPage);
    await beaFriends.open();
    await beaFriends.friend(adaName).waitFor();

    const page = await pageAs(ada);
    const safety = new SafetyPage(page);
    await new ProfilePage(page).open(bea.id);
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await safety.blockDialog.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await safety.blockDialog.getByRole('button', { name: 'Block', exact: true }).click();
    await page.waitForURL(`${baseUrl}/friends`);
    await safety.toast(`${beaName} is blocked`).waitFor();
    expect((await call(ada, 'GET', '/api/friends')).body).toEqual([]);

    // Bea's device: after its pull the friendship and Ada are gone.
    await beaPage.reload();
    await beaFriends.title.waitFor();
    await expect
      .poll(
        async () =>
          (await dexieRows<{ id: string }>(beaPage, 'users')).some((u) => u.id === ada.id),
        { timeout: 10_000 },
      )
      .toBe(false);
    await expect
      .poll(async () => (await dexieRows(beaPage, 'friendships')).length, { timeout: 10_000 })
      .toBe(0);
    await expect.poll(() => beaPage.getByText(adaName).count(), { timeout: 10_000 }).toBe(0);
    // Ada's own device no longer lists Bea either.
    await expect.poll(() => page.getByText(beaName).count(), { timeout: 10_000 }).toBe(0);

    const profile = new ProfilePage(page);
    await profile.open();
    await profile.tab('Settings').click();
    await safety.blocked(beaName).waitFor();
    await page.screenshot({ path: artifact('safety-blocked.png'), fullPage: true });
    await safety
      .blocked(beaName)
      .getByRole('button', { name: `Unblock ${beaName}` })
      .click();
    await safety.noBlocked.waitFor();
    expect((await call(ada, 'GET', '/api/blocks')).body).toEqual([]);
  });
});

describe('blocking from the friend screen', () => {
  it('offers Report and Block on /friend/{id}; Block ends the friendship', async () => {
    const ada = await named('Ada');
    const eve = await named('Eve');
    await befriend(ada, eve);
    const page = await pageAs(ada, `/friend/${eve.id}`);
    const safety = new SafetyPage(page);
    await page.getByRole('heading', { level: 1, name: `Eve ${eve.lastName}` }).waitFor();
    await safety.openReport();
    expect(await seriousA11yProblemsIn(page, ['[role="dialog"]'])).toEqual([]);
    await safety.reportDialog.getByRole('button', { name: 'Cancel' }).click();
    await safety.block();
    await page.waitForURL(`${baseUrl}/friends`);
    const blocks = (await call(ada, 'GET', '/api/blocks')).body as { userId: string }[];
    expect(blocks.map((b) => b.userId)).toEqual([eve.id]);
    expect((await call(eve, 'GET', '/api/friends')).body).toEqual([]);
  });
});

describe('reporting', () => {
  it('reports a person; an admin sees it under Open Reports and resolves it', async () => {
    const ada = await named('Ada');
    const cy = await named('Cy');
    const details = `Spammy messages ${Date.now()}`;

    const page = await pageAs(ada);
    const safety = new SafetyPage(page);
    await new ProfilePage(page).open(cy.id);
    await safety.openReport();
    await safety.reportDialog.getByRole('button', { name: 'Send report' }).click();
    await safety.reportDialog.getByText('Choose a reason').waitFor();
    await page.screenshot({ path: artifact('safety-report-dialog.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await safety.reportDialog.getByRole('radio', { name: 'Spam' }).check();
    await safety.reportDialog.getByLabel('Details (optional)').fill(details);
    await safety.reportDialog.getByRole('button', { name: 'Send report' }).click();
    await safety.toast('Report sent. Thank you.').waitFor();
    await safety.reportDialog.waitFor({ state: 'detached' });

    // A received ping, from its card's overflow button.
    const bea = await named('Bea');
    await befriend(bea, ada);
    expect(await ping(bea, ada)).toBe(201);
    await page.goto('/');
    const card = new PingsPage(page).card('Ping from Bea');
    await card.waitFor();
    await card.screenshot({ path: artifact('safety-ping-card.png') });
    await card.getByRole('button', { name: 'Report this ping from Bea' }).click();
    const pingDialog = page.getByRole('dialog', { name: 'Report this ping' });
    await pingDialog.getByRole('radio', { name: 'Harassment' }).check();
    await pingDialog.getByRole('button', { name: 'Send report' }).click();
    await pingDialog.waitFor({ state: 'detached' });

    const { admin } = await theAdmin();
    const adminPage = await pageAs(admin, '/admin');
    const report = adminPage.getByTestId('open-report').filter({ hasText: details });
    await report.waitFor();
    expect(await report.textContent()).toContain(`Cy ${cy.lastName}`);
    await adminPage.screenshot({ path: artifact('safety-admin-reports.png'), fullPage: true });
    const pingReport = adminPage
      .getByTestId('open-report')
      .filter({ hasText: `Bea ${bea.lastName}` })
      .filter({ hasText: 'Ping:' });
    await pingReport.waitFor();
    expect(await pingReport.textContent()).toContain('harassment');
    await report.getByRole('button', { name: /^Resolve/ }).click();
    await report.waitFor({ state: 'detached' });
    const resolved = await call(admin, 'GET', '/api/admin/reports?status=resolved');
    const mine = (resolved.body as { details: string; status: string }[]).find(
      (r) => r.details === details,
    );
    expect(mine?.status).toBe('resolved');
  });
});

describe('deleting the account', () => {
  it('asks for the password, deletes, signs out to /; signing in again fails', async () => {
    const dee = await person('Dee');
    await extended(dee);
    const { page, safety } = await openSettings(dee);
    await safety.openDeleteDialog();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await page.screenshot({ path: artifact('safety-delete-dialog.png') });

    await safety.deleteDialog.getByLabel('Your password').fill('wrong password');
    await safety.deleteDialog.getByRole('button', { name: 'Delete my account' }).click();
    await safety.deleteDialog.getByText('That password is not correct').waitFor();

    await safety.deleteDialog.getByLabel('Your password').fill(dee.password);
    await safety.deleteDialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${baseUrl}/`);
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await expect(login(dee.email, dee.password)).rejects.toThrow(/login failed/);
  });
});
