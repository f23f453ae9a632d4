import type { Locator, Page } from 'playwright-core';

/** Home's own sections: header counters, Surprise Me, the anchor strip, Quick Ping Friends. */
export class HomeSections {
  readonly surpriseMe: Locator;
  readonly anchors: Locator;
  readonly addAnchor: Locator;
  readonly quickPing: Locator;
  readonly manage: Locator;
  readonly find: Locator;
  readonly fab: Locator;
  readonly connectCard: Locator;
  readonly toast: Locator;

  constructor(readonly page: Page) {
    this.surpriseMe = page.getByRole('button', { name: 'Surprise Me' });
    this.anchors = page.getByRole('region', { name: 'Anchor Pings' });
    this.addAnchor = this.anchors.getByRole('button', { name: 'Add Anchor' });
    this.quickPing = page.getByRole('region', { name: 'Quick Ping Friends' });
    this.manage = this.quickPing.getByRole('link', { name: 'Manage' });
    this.find = this.quickPing.getByRole('link', { name: 'Find friends' });
    this.fab = page.locator('a.fab');
    this.connectCard = page.getByRole('region', { name: 'Connect with Friends' });
    this.toast = page.locator('.toast');
  }

  counter(kind: 'pings' | 'friends' | 'requests'): Locator {
    return this.page.getByTestId(`counter-${kind}`);
  }

  anchorTile(friendName: string): Locator {
    return this.anchors.getByRole('button', { name: new RegExp(`anchor ping to ${friendName}`) });
  }

  quickPingFriend(name: string): Locator {
    return this.quickPing.getByRole('link', { name: `Ping ${name}` });
  }
}
