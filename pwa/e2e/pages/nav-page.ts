import type { Locator, Page } from 'playwright-core';

/** The global navigation: the bottom bar's badges and the friend-requests banner. */
export class NavPage {
  readonly nav: Locator;
  readonly pingsBadge: Locator;
  readonly activityBadge: Locator;
  readonly banner: Locator;
  readonly bannerBadge: Locator;
  readonly view: Locator;
  readonly dismiss: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.pingsBadge = page.getByTestId('nav-badge-pings');
    this.activityBadge = page.getByTestId('nav-badge-activity');
    this.banner = page.getByRole('complementary', { name: 'Friend requests' });
    this.bannerBadge = this.banner.getByTestId('requests-badge');
    this.view = this.banner.getByRole('link', { name: 'View' });
    this.dismiss = this.banner.getByRole('button', { name: 'Dismiss' });
  }
}
