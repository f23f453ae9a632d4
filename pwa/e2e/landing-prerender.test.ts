/**
 * The visitor's Landing page painted from HTML (docs/pwa.md, "Landing for visitors"): the build
 * writes landing.html with the Landing already inside #root (src/prerender/landing.tsx) and the
 * server answers a navigation to `/` without a session cookie with it. Checked in the real
 * browser against the real server: the first response holds the landing, it shows with every
 * script blocked, the app then renders over it without moving anything and works, and a
 * signed-in start still gets the plain shell and Home.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { HomePage } from './pages/home-page';
import { LandingPage } from './pages/landing-page';
import { baseUrl, newPage } from './support/browser';
import { person, signInPage } from './support/people';

/** Where the landing's parts sit on screen (rounded to a tenth of a pixel). */
function layout(page: Page): Promise<Record<string, number[]>> {
  return page.evaluate(() => {
    const sel = [
      '.top-bar',
      '.brand',
      '.sync-status',
      '#landing-title',
      '.landing__tagline',
      '.landing__cta',
      '.feature-card',
      '.landing__closing',
    ];
    const out: Record<string, number[]> = {};
    for (const s of sel) {
      document.querySelectorAll(s).forEach((el, i) => {
        const r = el.getBoundingClientRect();
        out[`${s}#${i}`] = [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10);
      });
    }
    return out;
  });
}

/**
 * Keeps the static heading of landing.html once the page is parsed, before the module scripts run
 * (readyState 'interactive' comes first); an init script, which the CSP does not apply to.
 */
async function keepStaticHeading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') {
        (window as unknown as { staticTitle: Element | null }).staticTitle =
          document.getElementById('landing-title');
      }
    });
  });
}

/** createRoot replaced the static markup: the heading on screen is React's, a new element. */
async function appRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const kept = (window as unknown as { staticTitle?: Element | null }).staticTitle;
    const now = document.getElementById('landing-title');
    return kept != null && now != null && now !== kept;
  });
}

describe('the landing page prerendered for visitors', () => {
  it("a visitor's first response already holds the landing's heading, tagline and call to action", async () => {
    const res = await fetch(`${baseUrl}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<div id="root"><a href="#main" class="skip-link">/);
    expect(html).toContain('<h1 id="landing-title" class="landing__title">PingMe</h1>');
    expect(html).toContain('One tap. Real emotion. Stay connected.');
    expect(html).toMatch(/<a class="[^"]*landing__cta[^"]*" href="\/auth">Start Connecting<\/a>/);
    // Same scripts and stylesheets as the shell, and no inline script (the CSP forbids them).
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) expect(s).toMatch(/ src="\/assets\//);
    const shell = await (await fetch(`${baseUrl}/auth`)).text();
    expect(shell).toContain('<div id="root"></div>');
    expect(html.match(/<(script|link)[^>]*>/g)).toEqual(shell.match(/<(script|link)[^>]*>/g));
  });

  it('paints with every script blocked, and the app then renders over it without moving anything', async () => {
    const still = await newPage();
    await still.route('**/*.js', (route) => route.abort());
    await still.goto('/');
    const landing = new LandingPage(still);
    await landing.tagline.waitFor();
    expect(await still.getByRole('heading', { level: 1, name: 'PingMe' }).isVisible()).toBe(true);
    expect(await landing.startConnecting.isVisible()).toBe(true);
    const before = await layout(still);
    expect(Object.keys(before)).toHaveLength(10);

    const page = await newPage();
    await keepStaticHeading(page);
    await page.goto('/');
    await appRendered(page);
    expect(await layout(page)).toEqual(before);
  });

  it('the app takes over: Start Connecting is a client-side navigation, sign-in and sign-up work', async () => {
    const page = await newPage();
    const landing = new LandingPage(page);
    await keepStaticHeading(page);
    await landing.open();
    await appRendered(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await landing.startConnectingNow();
    const auth = new AuthPage(page);
    await auth.loginTab.waitFor();
    // The same document: the router navigated, the page was not reloaded.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await auth.switchToSignUp();
    expect(await auth.createAccountButton.isVisible()).toBe(true);

    const who = await person('Prerender');
    await auth.loginTab.click();
    await auth.signIn(who.email, who.password);
    await new HomePage(page).nav.waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('a signed-in start gets the plain shell and goes to Home, never the landing', async () => {
    const who = await person('Member');
    const page = await newPage();
    await signInPage(page, who);
    const res = await page.goto('/');
    const html = (await res?.text()) ?? '';
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('landing-title');
    const home = new HomePage(page);
    await home.nav.waitFor({ timeout: 20_000 });
    expect(await page.locator('#landing-title').count()).toBe(0);
  });

  it('the service worker precaches the plain shell only, not landing.html', async () => {
    const sw = await (await fetch(`${baseUrl}/sw.js`)).text();
    expect(sw).toMatch(/["']?url["']?\s*:\s*["']index\.html["']/);
    expect(sw).not.toContain('landing.html');
  });
});
