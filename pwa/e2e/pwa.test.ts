import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { AuthPage } from './pages/auth-page';
import { HomePage } from './pages/home-page';
import { baseUrl, newPage, registerByApi } from './support/browser';
import { startProxy } from './support/proxy';

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('installable PWA', () => {
  it('serves the manifest with its fields, and every icon loads at its size', async () => {
    const page = await newPage();
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: 'PingMe',
      short_name: 'PingMe',
      start_url: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    const wanted = [
      { sizes: '192x192', purpose: undefined },
      { sizes: '512x512', purpose: undefined },
      { sizes: '512x512', purpose: 'maskable' },
    ];
    for (const want of wanted) {
      const icon = manifest.icons.find((i) => i.sizes === want.sizes && i.purpose === want.purpose);
      expect(icon, `icon ${want.sizes} ${want.purpose ?? 'any'}`).toBeDefined();
      const png = await page.request.get(`/${icon!.src}`);
      expect(png.status()).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
      const [w, h] = want.sizes.split('x').map(Number);
      expect(pngSize(await png.body())).toEqual({ width: w, height: h });
    }
  });

  it('is controlled by the service worker after a reload', async () => {
    const page = await newPage();
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.getByText('One tap. Real emotion. Stay connected.').waitFor();
    const controller = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(controller).toBe(`${baseUrl}/sw.js`);
  });

  it('reloads and renders the app shell, signed in, with the server unreachable', async () => {
    const proxy = await startProxy(inject('serverPort'));
    try {
      const page = await newPage({ baseURL: proxy.url });
      const auth = new AuthPage(page);
      await auth.open();
      // Past the onboarding setup, so Home is what the reloads show.
      const olive = await registerByApi({ firstName: 'Offline', lastName: 'Olive' });
      await auth.signIn(olive.email, olive.password);
      const home = new HomePage(page);
      await home.name.filter({ hasText: 'Offline Olive' }).waitFor();
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await home.name.filter({ hasText: 'Offline Olive' }).waitFor();
      expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

      await proxy.cut();
      expect(await fetch(`${proxy.url}/api/user`).catch(() => 'unreachable')).toBe('unreachable');

      await page.reload();
      await home.name.filter({ hasText: 'Offline Olive' }).waitFor();
      await home.syncStatus.filter({ hasText: 'Offline' }).waitFor();
      // A client route that was never visited comes from the precached shell too.
      await page.goto('/pings');
      await page.getByRole('heading', { name: 'Ping Library' }).waitFor();

      await proxy.restore();
      await page.reload();
      await home.syncStatus.filter({ hasText: 'Online' }).waitFor();
    } finally {
      await proxy.close();
    }
  });
});
