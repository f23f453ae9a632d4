import { describe, expect, inject, it } from 'vitest';
import { AnalyticsPage } from './pages/analytics-page';
import { seriousA11yProblems } from './support/axe';
import { artifact, newPage } from './support/browser';
import { befriend, call, pageAs, person, ping, signInPage } from './support/people';
import { startProxy } from './support/proxy';

describe('analytics and energy', () => {
  it('shows the numbers the person made, and the empty state before any ping', async () => {
    const ada = await person('Ada');
    const bea = await person('Bea');
    const page = await pageAs(ada);
    const analytics = new AnalyticsPage(page);
    await analytics.open();
    await page.getByText('No analytics data available yet. Start sending pings!').waitFor();
    expect(await analytics.cardValue('Pings Sent')).toBe('0');

    await befriend(ada, bea);
    expect(await ping(ada, bea, 1)).toBe(201);
    expect(await ping(ada, bea, 1)).toBe(201);
    expect(await ping(ada, bea, 3)).toBe(201);
    const back = await call(bea, 'POST', '/api/pings', {
      promptId: '00000000-0000-7000-8000-000000000002',
      receiverId: ada.id,
    });
    expect(back.status).toBe(201);
    const reacted = await call(ada, 'POST', `/api/pings/${back.body.id}/reactions`, {
      reactionType: 'heart',
    });
    expect(reacted.status).toBe(201);

    await page.reload();
    await analytics.title.waitFor();
    await analytics.card('Pings Sent').getByText('3 this week').waitFor();
    expect(await analytics.cardValue('Pings Sent')).toBe('3');
    expect(await analytics.cardValue('Received')).toBe('1');
    expect(await analytics.cardValue('Reactions')).toBe('1');
    expect(await analytics.cardValue('Response Rate')).toBe('100%');
    const top = page.getByRole('region', { name: 'Most Used Prompts' }).getByRole('listitem');
    expect(await top.count()).toBe(2);
    await top.first().getByText('Ping me when you need a hug').waitFor();
    await top.first().getByText('2 times').waitFor();
    expect(
      await page.getByText('No analytics data available yet. Start sending pings!').count(),
    ).toBe(0);
    await page.getByText(/^Updated /).waitFor();
    await page.screenshot({ path: artifact('analytics.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Energy: summary, the friend in the overview, refresh, then the details card.
    await analytics.tab('Energy').click();
    await page.getByRole('heading', { name: 'Friendship Energy' }).waitFor();
    await analytics.friendRow('Bea Tester').waitFor();
    expect(await analytics.cardValue('Total Friends')).toBe('1');
    const entry = (await call(ada, 'GET', '/api/energy/all')).body[0];
    expect(await analytics.cardValue('Average Energy')).toBe(`${entry.energyScore}%`);
    const meter = analytics.friendRow('Bea Tester').getByRole('meter');
    expect(await meter.getAttribute('aria-valuenow')).toBe(String(entry.energyScore));

    await analytics.tab('Details').click();
    await page
      .getByText('Select a friend from the overview to see detailed energy metrics')
      .waitFor();
    await analytics.tab('Overview').click();

    // Refresh recomputes and stores snapshots on the server.
    await analytics.refreshButton.click();
    await page.getByRole('button', { name: 'Refresh Energy Metrics' }).waitFor();
    await page.screenshot({ path: artifact('energy.png'), fullPage: true });
    await page.evaluate(() => window.scrollBy(0, 500));
    await page.screenshot({ path: artifact('energy-overview.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Keyboard: choose the friend with Enter; the Details tab opens with the card.
    await analytics.friendRow('Bea Tester').focus();
    await page.keyboard.press('Enter');
    const card = page.getByRole('article', { name: 'Bea Tester' });
    await card.waitFor();
    await card.getByText('Weekly pings').waitFor();
    await card.getByText('4 pings').waitFor();
    await card.getByText('Response rate').waitFor();
    await card.getByText(entry.energyLevel, { exact: true }).waitFor();
    for (const tip of entry.tips as string[]) await card.getByText(tip).waitFor();
    await page.screenshot({ path: artifact('energy-details.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('says there are no friends yet on the Energy tab', async () => {
    const solo = await person('Solo');
    const page = await pageAs(solo);
    const analytics = new AnalyticsPage(page);
    await analytics.open();
    await analytics.tab('Energy').click();
    await page.getByText('No friends found. Add some friends to see energy metrics!').waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('shows the last answers offline, with the time they were computed', async () => {
    const ada = await person('Ada');
    const bea = await person('Bea');
    await befriend(ada, bea);
    expect(await ping(ada, bea)).toBe(201);
    expect(await ping(ada, bea, 2)).toBe(201);
    const proxy = await startProxy(inject('serverPort'));
    try {
      const page = await newPage({ baseURL: proxy.url });
      await signInPage(page, ada);
      const analytics = new AnalyticsPage(page);
      await analytics.open();
      await analytics.card('Pings Sent').getByText('2 this week').waitFor();
      await analytics.tab('Energy').click();
      await analytics.friendRow('Bea Tester').waitFor();
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);

      await proxy.cut();
      await page.reload();
      await analytics.title.waitFor();
      await page.getByText('Offline · showing figures from just now').waitFor();
      expect(await analytics.cardValue('Pings Sent')).toBe('2');
      await analytics.tab('Energy').click();
      await analytics.friendRow('Bea Tester').waitFor();
      await page.getByText('Offline · showing figures from just now').first().waitFor();
      await page.screenshot({ path: artifact('energy-offline.png') });
    } finally {
      await proxy.close();
    }
  });
});
