import { describe, expect, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { LandingPage } from './pages/landing-page';
import { ResetPasswordPage } from './pages/reset-password-page';
import { HomePage } from './pages/home-page';
import { artifact, newPage, registerByApi } from './support/browser';
import { seriousA11yProblems } from './support/axe';

describe('signed-out screens', () => {
  it('Landing: tagline, feature cards, closing line; no serious a11y problems', async () => {
    const page = await newPage();
    const landing = new LandingPage(page);
    await landing.open();
    for (const title of ['Emotionally Resonant', 'One-Tap Interactions', 'Favourite People'])
      await landing.featureCard(title).waitFor();
    await landing.closingLine.waitFor();
    await page.screenshot({ path: artifact('landing.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('Auth, both tabs and the forgot-password dialog: no serious a11y problems', async () => {
    const page = await newPage();
    const auth = new AuthPage(page);
    await auth.open();
    await page.screenshot({ path: artifact('auth-login.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    await auth.signInButton.click(); // validation messages on screen too
    await auth.fieldError('Please enter a valid email').waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);

    await auth.switchToSignUp();
    await page.screenshot({ path: artifact('auth-signup.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    await auth.loginTab.click();
    await auth.forgotPasswordLink.click();
    await auth.forgotDialog.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await auth.forgotDialog.getByRole('button', { name: 'Cancel' }).click();
    await auth.forgotDialog.waitFor({ state: 'hidden' });
  });

  it('Reset password (form, welcome title, invalid link): no serious a11y problems', async () => {
    const page = await newPage();
    const reset = new ResetPasswordPage(page);
    await reset.open('?token=abc&welcome=true');
    await page.getByRole('heading', { name: 'Set Your Password' }).waitFor();
    await page.screenshot({ path: artifact('reset-password.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await reset.open();
    await reset.invalidLink.waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('Verify e-mail: no token, and a bad token; no serious a11y problems', async () => {
    const page = await newPage();
    await page.goto('/verify-email');
    await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
    await page.getByText('No verification token provided.').waitFor();
    await page.getByRole('link', { name: 'Back to Login' }).waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.goto('/verify-email?token=not-a-real-token');
    await page.getByRole('heading', { name: 'Verification Failed' }).waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('404: both texts of the spec; no serious a11y problems', async () => {
    const page = await newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await page.screenshot({ path: artifact('not-found.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });
});

describe('signed-in screens', () => {
  const SCREENS: [path: string, title: string][] = [
    ['/pings', 'Ping Library'],
    ['/friends', 'Friends'],
    ['/friends-search', 'Find Friends'],
    ['/friend/0190a7a2-7c1e-7b3a-9d2e-1f2a3b4c5d6e', 'Friend'],
    ['/ping-friend/0190a7a2-7c1e-7b3a-9d2e-1f2a3b4c5d6e', 'Send a Ping'],
    ['/activity', 'Activity'],
    ['/notifications', 'Notifications'],
    ['/analytics', 'Analytics'],
    ['/profile', 'Profile'],
    ['/profile/0190a7a2-7c1e-7b3a-9d2e-1f2a3b4c5d6e', 'Profile'],
    ['/privacy-settings', 'Privacy Settings'],
    ['/admin', 'Admin Dashboard'],
  ];

  it('every route of the table has its title and the bottom navigation; friend search is dark', async () => {
    const person = await registerByApi({ firstName: 'Route', lastName: 'Walker' });
    const page = await newPage();
    await new AuthPage(page).open();
    await new AuthPage(page).signIn(person.email, person.password);
    const shell = new HomePage(page);
    await shell.name.filter({ hasText: 'Route Walker' }).waitFor();

    for (const [path, title] of SCREENS) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      await shell.nav.waitFor();
      const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
      expect(theme, path).toBe(path === '/friends-search' ? 'dark' : 'light');
    }

    await page.goto('/friends-search');
    await page.getByRole('heading', { name: 'Find Friends' }).waitFor();
    await page.screenshot({ path: artifact('friends-search-dark.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // The bottom navigation marks where you are.
    await shell.goTo('Activity');
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    expect(
      await shell.nav.getByRole('link', { name: 'Activity' }).getAttribute('aria-current'),
    ).toBe('page');
  });
});
