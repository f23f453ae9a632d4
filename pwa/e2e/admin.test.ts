import type { AdminMetrics } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_EMAIL } from './global-setup';
import { AdminPage } from './pages/admin-page';
import { ProfilePage } from './pages/profile-page';
import { seriousA11yProblems } from './support/axe';
import { artifact } from './support/browser';
import { befriend, call, pageAs, person, ping, verifyByMail } from './support/people';

/** What the dashboard must show for an answer: [section, label, text]. */
function figures(m: AdminMetrics): [string, string, string][] {
  return [
    ['Overview', 'Total Users', String(m.totalUsers)],
    ['Overview', 'Total Pings', String(m.totalPings)],
    ['Overview', 'Custom Prompts', String(m.customPrompts)],
    ['Overview', 'Friendships', String(m.totalFriendships)],
    ['Overview', 'Active This Week', String(m.activeUsersWeek)],
    ['Overview', 'New This Week', String(m.newUsers.week)],
    ['New sign-ups', 'Today', String(m.newUsers.today)],
    ['New sign-ups', 'This week', String(m.newUsers.week)],
    ['New sign-ups', 'This month', String(m.newUsers.month)],
    ['Activity', 'Pending Friend Requests', String(m.pendingRequests)],
    ['Activity', 'Custom Prompts Created', String(m.customPrompts)],
    ['Activity', 'Active Users (7 days)', String(m.activeUsersWeek)],
    ['Activity', 'Pings sent today', String(m.pingsToday)],
    ['Activity', 'New users today', String(m.newUsers.today)],
    ['Activity', 'Average pings per user', m.averagePingsPerUser.toFixed(1)],
  ];
}

describe('admin dashboard', () => {
  it('an admin sees every figure the server computes, and reaches it from Settings', async () => {
    const admin = await person('Admin', 'Tester', { email: E2E_ADMIN_EMAIL });
    // A listed address is an admin only once it is verified.
    expect((await call(admin, 'GET', '/api/user')).body.isAdmin).toBe(false);
    await verifyByMail(E2E_ADMIN_EMAIL);
    expect((await call(admin, 'GET', '/api/user')).body.isAdmin).toBe(true);
    const ada = await person('Ada');
    const bea = await person('Bea');
    await befriend(ada, bea);
    expect(await ping(ada, bea)).toBe(201);
    await call(admin, 'PUT', '/api/profile/update', { handle: `admin_${Date.now() % 100000}` });

    const page = await pageAs(admin);
    const profile = new ProfilePage(page);
    await profile.open();
    await page.getByText('Admin', { exact: true }).waitFor();
    await profile.tab('Settings').click();
    await page.getByRole('link', { name: 'Open Admin Dashboard' }).click();
    const dash = new AdminPage(page);
    await dash.title.waitFor();
    await dash.figure('Overview', 'Total Users').waitFor();

    // Every figure matches the server's answer: the very answer the page loaded (other test
    // files add people meanwhile, so a second request could count differently).
    const [answer] = await Promise.all([
      page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/admin/metrics' && r.status() === 200,
      ),
      page.reload(),
    ]);
    const m = (await answer.json()) as AdminMetrics;
    const mismatches = async () => {
      const wrong: string[] = [];
      for (const [section, label, value] of figures(m)) {
        const shown = await dash.figure(section, label).textContent();
        if (shown !== value) wrong.push(`${label}: ${shown} ≠ ${value}`);
      }
      return wrong;
    };
    await expect.poll(mismatches).toEqual([]);
    expect(
      Number(await dash.figure('Overview', 'Total Users').textContent()),
    ).toBeGreaterThanOrEqual(3);
    expect(
      Number(await dash.figure('Overview', 'Total Pings').textContent()),
    ).toBeGreaterThanOrEqual(1);
    await page.getByText(/^Updated /).waitFor();
    await page.screenshot({ path: artifact('admin.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });

  it('a person who is not an admin sees access denied', async () => {
    const ada = await person('Ada');
    const page = await pageAs(ada);
    const dash = new AdminPage(page);
    await dash.open();
    await dash.denied.waitFor();
    expect(await page.getByRole('region', { name: 'Overview' }).count()).toBe(0);
    await page.screenshot({ path: artifact('admin-denied.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);
  });
});
