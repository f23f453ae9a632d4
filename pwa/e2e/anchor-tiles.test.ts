/**
 * Issue 15, item 7, on Home's anchor strip: an anchor's label is the asker's words, shown to the
 * asker only (the friend sees the asker's name), and an anchor request to me has a tile of its
 * own that opens Accept / Decline, so the count (n/5) always matches what is shown.
 */
import { describe, expect, it } from 'vitest';
import { HomeSections } from './pages/home-sections';
import { seriousA11yProblemsIn } from './support/axe';
import { artifact } from './support/browser';
import { askAnchor, befriend, call, makeAcceptedAnchor, pageAs, person } from './support/people';

const LABEL = 'My favourite chai buddy forever';

describe('anchor tiles on Home', () => {
  it('the label stays with the asker; a request to me has a tile that answers it', async () => {
    const [ada, bo, cy] = await Promise.all([person('Ada'), person('Bo'), person('Cy')]);
    await befriend(ada, bo);
    await befriend(cy, bo);
    await makeAcceptedAnchor(ada, bo, { text: 'Ping me when you want chai', label: LABEL });
    const asked = await askAnchor(cy, bo);

    const page = await pageAs(bo, '/');
    const home = new HomeSections(page);
    await home.anchors.waitFor();
    const fromAda = home.anchorTile('Ada Tester');
    await fromAda.waitFor();
    expect(await fromAda.textContent()).toMatch(/: Ada$/);
    expect(await home.anchors.getByText(/My favourite/).count()).toBe(0);

    const request = home.anchors.getByRole('button', { name: /Anchor request from Cy Tester/ });
    await request.waitFor();
    await home.anchors.getByText('2/5').waitFor();
    await home.anchors.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('home-anchor-request-tile.png') });

    await request.click();
    const dialog = page.getByRole('dialog', { name: 'Anchor request from Cy Tester' });
    await dialog.getByText('Ping me when you miss me').waitFor();
    await page.screenshot({ path: artifact('home-anchor-request-dialog.png') });
    expect(await seriousA11yProblemsIn(page, ['[role="dialog"]'])).toEqual([]);
    await dialog.getByRole('button', { name: 'Accept Anchor' }).click();
    await page.locator('.toast').filter({ hasText: 'Anchor Accepted!' }).waitFor();
    await home.anchorTile('Cy Tester').waitFor();
    await expect
      .poll(
        async () =>
          (
            await call<{ id: string; status: string }[]>(cy, 'GET', '/api/profile/anchors')
          ).body.find((a) => a.id === asked.id)?.status,
      )
      .toBe('accepted');

    // The asker sees their own label.
    const adaPage = await pageAs(ada, '/');
    const adaHome = new HomeSections(adaPage);
    await adaHome
      .anchorTile('Bo Tester')
      .filter({ hasText: /My favourite/ })
      .waitFor();
  });
});
