/**
 * The app's own emoji render as colour glyphs on a machine without a colour emoji font (issue 15,
 * item 17). This machine's Debian Chromium has none (`fc-list | grep -i emoji` is empty), so
 * without the app's font every emoji is an empty box. Each emoji is drawn on a canvas in the font
 * the page computed for the element that shows it: a colour glyph has coloured pixels, an empty
 * box only grey ones. The font arrives after the first download (its own request, when an emoji
 * is on screen).
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from './support/browser';
import { befriend, pageAs, person } from './support/people';

/** Coloured pixels when `text` is drawn in the font `el` is rendered with (0 for a grey box). */
async function colourPixels(el: Locator, text?: string): Promise<number> {
  return el.evaluate(async (node, given) => {
    const drawn = given ?? (node.textContent ?? '').trim();
    const family = getComputedStyle(node).fontFamily;
    const font = `48px ${family}`;
    await document.fonts.load(font, drawn);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext('2d')!;
    ctx.font = font;
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#000';
    ctx.fillText(drawn, 4, 4);
    const { data } = ctx.getImageData(0, 0, 64, 64);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
      if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured += 1;
    }
    return coloured;
  }, text);
}

async function fontRequests(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('.woff2')),
  );
}

describe("the app's emoji", () => {
  it('are colour glyphs, not empty boxes: prompts, moods, reactions, surprise emojis', async () => {
    const [ada, bo] = await Promise.all([person('Emma'), person('Bo')]);
    await befriend(ada, bo);
    const page = await pageAs(ada, '/');
    const tile = page
      .getByRole('region', { name: 'Your Pings' })
      .getByRole('button', { name: /need a hug/ });
    await tile.waitFor();
    // The face is declared once the first frame is on screen and the page is idle.
    await page.waitForFunction(() =>
      [...document.fonts].some((f) => f.family.includes('PingMe Emoji')),
    );
    await page.screenshot({ path: artifact('emoji-home.png') });
    // A prompt's emoji on Home (🤗), in the font the page gives it.
    const hug = tile.getByText('🤗', { exact: true });
    expect(await colourPixels(hug)).toBeGreaterThan(50);
    // The same character in the fonts this machine has on its own: an empty box, no colour.
    expect(
      await page.evaluate(() => {
        const c = document.createElement('canvas');
        c.width = c.height = 64;
        const ctx = c.getContext('2d')!;
        ctx.font = '48px system-ui, sans-serif';
        ctx.textBaseline = 'top';
        ctx.fillText('🤗', 4, 4);
        const d = ctx.getImageData(0, 0, 64, 64).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (
            d[i + 3]! > 128 &&
            Math.max(d[i]!, d[i + 1]!, d[i + 2]!) - Math.min(d[i]!, d[i + 1]!, d[i + 2]!) > 40
          )
            n++;
        return n;
      }),
    ).toBe(0);
    expect(await fontRequests(page)).toEqual([
      expect.stringMatching(/^\/assets\/pingme-emoji-.+\.woff2$/),
    ]);
    await page.screenshot({ path: artifact('emoji-home.png') });

    // Every mood of the mood dialog, and every emoji of the surprise dialog.
    await page.goto('/friends');
    const row = page
      .getByRole('region', { name: /^Your Friends/ })
      .getByRole('listitem')
      .first();
    await row.getByRole('button', { name: /^Mood/ }).click();
    const moods = page
      .getByRole('dialog', { name: 'Share your mood' })
      .locator('.fr-choice__emoji');
    expect(await moods.count()).toBe(24);
    const blank: string[] = [];
    for (const m of await moods.all())
      if ((await colourPixels(m)) < 50) blank.push((await m.textContent()) ?? '');
    expect(blank).toEqual([]);
    await page.screenshot({ path: artifact('emoji-moods.png') });
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: /^Surprise/ }).click();
    const surprise = page
      .getByRole('dialog', { name: 'Send a surprise' })
      .locator('.fr-choices--emojis label');
    expect(await surprise.count()).toBeGreaterThan(5);
    for (const s of await surprise.all()) {
      const emoji = ((await s.textContent()) ?? '').trim();
      if ((await colourPixels(s, emoji)) < 50) blank.push(emoji);
    }
    expect(blank).toEqual([]);
  });
});
