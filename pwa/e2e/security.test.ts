/**
 * The built PWA under the server's real security headers (docs/security.md "Headers"): every
 * screen loads and works in Chromium without one Content-Security-Policy violation, and a
 * cross-site form post from another origin changes nothing.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HomePage } from './pages/home-page';
import { baseUrl, newPage, registerByApi } from './support/browser';

/** Collects every CSP violation the page reports, by event and by console message. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    const text = m.text();
    if (/Refused to|Content Security Policy/i.test(text)) violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI}`,
      );
    });
  });
  return violations;
}

describe('Content-Security-Policy', () => {
  it('serves the app with a CSP without inline script, and no screen violates it', async () => {
    const person = await registerByApi({ firstName: 'Cass', lastName: 'Policy' });
    const page = await newPage();
    const violations = await watchCsp(page);

    const landing = await page.goto('/');
    const csp = landing?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp.match(/script-src[^;]*/)?.[0]).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'none'");
    await page.goto('/auth');
    await page.getByRole('heading').first().waitFor();

    const signIn = await page.request.post('/api/login', {
      data: { email: person.email, password: person.password },
    });
    expect(signIn.status()).toBe(200);
    const home = new HomePage(page);
    let loads = 2;
    for (const path of [
      '/',
      '/pings',
      '/activity',
      '/notifications',
      '/friends',
      '/friends-search',
      '/profile',
      '/analytics',
      '/privacy-settings',
    ]) {
      await page.goto(path);
      loads += 1;
      await home.nav.waitFor();
      // The live connection (connect-src) comes up under the policy too.
      await page.waitForTimeout(300);
    }
    await page.goto('/');
    loads += 1;
    await home.syncStatus.getByText('Online').waitFor();
    // A dialog: its scroll lock injects a <style> (style-src keeps 'unsafe-inline' for it).
    await page.getByRole('button', { name: /guided tour/i }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(200);

    // Not even zod's eval probe: the PWA loads @pingme/shared/csp before any schema is built.
    expect(violations).toEqual([]);
    expect(loads).toBeGreaterThan(2);
  });

  it('refuses a form posted from another site: 403, and the person stays as they were', async () => {
    const person = await registerByApi({ firstName: 'Forge', lastName: 'Proof' });
    const page = await newPage();
    await page.request.post('/api/login', {
      data: { email: person.email, password: person.password },
    });
    // The browser itself sends Origin: the page of "another site" is a data: URL (origin null).
    await page.goto(
      `data:text/html,<form method="post" action="${baseUrl}/api/logout"></form>` +
        '<script>document.forms[0].submit()</script>',
    );
    await page.waitForLoadState();
    expect(await page.content()).toContain('This request did not come from the PingMe app');
    expect((await page.request.get(`${baseUrl}/api/user`)).status()).toBe(200);
  });
});
