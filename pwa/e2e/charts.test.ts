/**
 * Pictures where people would rather look than read (issue 15, item 16): the admin dashboard's
 * 30-day trends from GET /api/admin/metrics `daily`, at desktop width and on a phone; Analytics'
 * pings per day and mood history, computed on the device from Dexie. Each chart is drawn by uPlot,
 * fetched only on those screens, and has its figures as text (a summary and a table).
 */
import type { AdminMetrics } from '@pingme/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { E2E_CHARTS_ADMIN_EMAIL } from './global-setup';
import { seriousA11yProblems } from './support/axe';
import { artifact, newPage } from './support/browser';
import { layoutProblems } from './support/layout';
import { befriend, call, person, ping, signInPage, verifyByMail } from './support/people';

const uplotRequested = (page: Page) =>
  page.evaluate(() =>
    performance.getEntriesByType('resource').some((e) => /uPlot/.test(new URL(e.name).pathname)),
  );

/** The rows of a chart's table: [day, ...values]. */
async function tableRows(page: Page, chart: string): Promise<string[][]> {
  const figure = page.getByTestId(`chart-${chart}`);
  await figure.getByText('Show as table').click();
  return figure
    .locator('.chart__table tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())),
    );
}

const drawn = (page: Page, chart: string) =>
  page.getByTestId(`chart-${chart}`).locator('.chart__plot[data-drawn] canvas').waitFor();

const todayShort = () => new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });

describe('charts', () => {
  it("the admin dashboard shows the last 30 days' trends, at desktop width and on a phone", async () => {
    const admin = await person('Chart', 'Admin', { email: E2E_CHARTS_ADMIN_EMAIL });
    await verifyByMail(E2E_CHARTS_ADMIN_EMAIL);
    const [ada, bea] = await Promise.all([person('Ada'), person('Bea')]);
    await befriend(ada, bea);
    expect(await ping(ada, bea)).toBe(201);

    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await signInPage(page, admin);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await uplotRequested(page)).toBe(false);
    const [answer] = await Promise.all([
      page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/admin/metrics' && r.status() === 200,
      ),
      page.goto('/admin'),
    ]);
    const metrics = (await answer.json()) as AdminMetrics;
    for (const chart of ['adm-trend-signups', 'adm-trend-pings', 'adm-trend-active'])
      await drawn(page, chart);
    expect(await uplotRequested(page)).toBe(true);
    // Side by side at desktop width, within the screen.
    const boxes = await page
      .locator('.adm-charts > figure')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    expect(new Set(boxes.map(Math.round)).size).toBe(1);
    expect(await layoutProblems(page)).toEqual([]);
    await page.screenshot({ path: artifact('admin-trends-1280.png'), fullPage: true });

    // The table says what the picture shows: 30 days, today's figures from the same answer.
    const rows = await tableRows(page, 'adm-trend-pings');
    expect(rows).toHaveLength(30);
    const today = metrics.daily.at(-1)!;
    expect(today.pings).toBeGreaterThanOrEqual(1);
    expect(rows.at(-1)).toEqual([expect.any(String), String(today.pings)]);
    await page
      .getByTestId('chart-adm-trend-signups')
      .getByText(new RegExp(`^Sign-ups: \\d+ in the last 30 days`))
      .waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByTestId('chart-adm-trend-pings').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('admin-trends-390.png') });
  });

  it("Analytics: pings per day and the person's mood history, from the device's own data", async () => {
    const [ada, bea] = await Promise.all([person('Ava'), person('Ben')]);
    await befriend(ada, bea);
    for (const n of [1, 2, 3]) expect(await ping(ada, bea, n)).toBe(201);
    expect(await ping(bea, ada)).toBe(201);
    const mood = await call(ada, 'POST', '/api/moods', {
      friendId: bea.id,
      mood: 'cozy',
      emoji: '☕',
    });
    expect(mood.status).toBe(201);

    const page = await newPage();
    await signInPage(page, ada);
    await page.goto('/analytics');
    await drawn(page, 'an-pings-per-day');
    const figure = page.getByTestId('chart-an-pings-per-day');
    await figure.getByText(`Sent: 3 in the last 30 days, most on ${todayShort()} (3).`).waitFor();
    await figure.getByText(`Received: 1 in the last 30 days`, { exact: false }).waitFor();
    const rows = await tableRows(page, 'an-pings-per-day');
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)).toEqual([todayShort(), '3', '1']);
    const history = page.getByTestId('mood-history');
    await history.getByText('You shared a mood on 1 of the last 30 days.').waitFor();
    await history.getByText(`${todayShort()}: Cozy`).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    expect(await seriousA11yProblems(page)).toEqual([]);
    await figure.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('analytics-charts.png'), fullPage: true });
  });
});
