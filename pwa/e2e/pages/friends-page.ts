import type { Locator, Page } from 'playwright-core';

/** /friends: the search box, requests, and the friends list with its three dialogs. */
export class FriendsPage {
  readonly title: Locator;
  readonly search: Locator;
  readonly results: Locator;
  readonly requests: Locator;
  readonly sentRequests: Locator;
  readonly friendList: Locator;
  readonly friendAdded: Locator;
  readonly moodDialog: Locator;
  readonly surpriseDialog: Locator;
  readonly insightsDialog: Locator;
  readonly prompts: Locator;

  constructor(readonly page: Page) {
    this.prompts = page.getByRole('region', { name: 'Your Prompts' });
    this.title = page.getByRole('heading', { level: 1, name: 'Friends' });
    this.search = page.getByRole('searchbox', { name: 'Find friends by name' });
    this.results = page.getByRole('list', { name: 'Search results' });
    this.requests = page.getByRole('region', { name: /^Friend Requests/ });
    this.sentRequests = page.getByRole('region', { name: 'Sent Requests' });
    this.friendList = page.getByRole('region', { name: /^Your Friends \(\d+\)$/ });
    this.friendAdded = page.getByRole('dialog', { name: 'Friend Added!' });
    this.moodDialog = page.getByRole('dialog', { name: 'Share your mood' });
    this.surpriseDialog = page.getByRole('dialog', { name: 'Send a surprise' });
    this.insightsDialog = page.getByRole('dialog', { name: 'Friendship insights' });
  }

  async open() {
    await this.page.goto('/friends');
    await this.title.waitFor();
  }

  friendsHeading(n: number): Locator {
    return this.page.getByRole('heading', { name: `Your Friends (${n})`, exact: true });
  }

  request(name: string): Locator {
    return this.requests.getByRole('listitem').filter({ hasText: name });
  }

  friend(name: string): Locator {
    return this.friendList.getByRole('listitem').filter({ hasText: name });
  }

  async accept(name: string) {
    await this.request(name)
      .getByRole('button', { name: /^Accept/ })
      .click();
  }

  async decline(name: string) {
    await this.request(name)
      .getByRole('button', { name: /^Decline/ })
      .click();
  }

  async shareMood(friend: string, mood: string, note?: string) {
    await this.friend(friend).getByRole('button', { name: /^Mood/ }).click();
    // The radio itself is visually hidden behind its tile: click the tile.
    await this.moodDialog.locator('label').filter({ hasText: mood }).click();
    if (note) await this.moodDialog.getByLabel('Add a note (optional)').fill(note);
    await this.moodDialog.getByRole('button', { name: 'Share Mood' }).click();
  }

  async sendSurprise(friend: string, text: string, emoji?: string) {
    await this.friend(friend)
      .getByRole('button', { name: /^Surprise/ })
      .click();
    await this.surpriseDialog.getByLabel('Your message').fill(text);
    if (emoji) await this.surpriseDialog.locator('label').filter({ hasText: emoji }).click();
    await this.surpriseDialog.getByRole('button', { name: 'Send Surprise' }).click();
  }

  async openInsights(friend: string) {
    await this.friend(friend)
      .getByRole('button', { name: /^Insights/ })
      .click();
    await this.insightsDialog.waitFor();
  }
}

/** /friends-search (dark): search by name or e-mail, requests and the friend count. */
export class FriendSearchPage {
  readonly title: Locator;
  readonly search: Locator;
  readonly results: Locator;
  readonly requests: Locator;
  readonly sentRequests: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1, name: 'Find Friends' });
    this.search = page.getByRole('searchbox', { name: 'Search by name or email' });
    this.results = page.getByRole('list', { name: 'Search results' });
    this.requests = page.getByRole('region', { name: /^Friend Requests/ });
    this.sentRequests = page.getByRole('region', { name: 'Sent Requests' });
  }

  async open() {
    await this.page.goto('/friends-search');
    await this.title.waitFor();
  }

  async searchFor(text: string) {
    await this.search.fill(text);
  }

  result(name: string): Locator {
    return this.results.getByRole('listitem').filter({ hasText: name });
  }

  async add(name: string) {
    await this.result(name).getByRole('button', { name: /^Add/ }).click();
  }
}

/** /friend/{id}: who, the stats, the 5 latest pings and 'Send a Ping'. */
export class FriendProfilePage {
  readonly sendAPing: Locator;
  readonly pingCards: Locator;

  constructor(readonly page: Page) {
    this.sendAPing = page.getByRole('link', { name: 'Send a Ping' });
    this.pingCards = page.getByRole('region', { name: 'Recent pings' }).getByRole('article');
  }

  name(full: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: full });
  }

  async stat(label: string): Promise<string | null> {
    return this.page
      .getByRole('term')
      .filter({ hasText: label })
      .locator('xpath=following-sibling::dd')
      .textContent();
  }
}

/** /ping-friend/{id}: a prompt from the list, or a custom ping. */
export class PingFriendPage {
  readonly title: Locator;
  readonly customTab: Locator;

  constructor(readonly page: Page) {
    this.title = page.getByRole('heading', { level: 1, name: 'Send a Ping' });
    this.customTab = page.getByRole('tab', { name: 'Custom ping' });
  }

  prompt(text: string): Locator {
    return this.page.getByRole('radio', { name: text });
  }

  async sendPrompt(text: string) {
    await this.page.locator('label').filter({ hasText: text }).click();
    await this.page.getByRole('button', { name: 'Send Ping' }).click();
  }

  async sendCustom(text: string, emoji: string) {
    await this.page.getByLabel('Your message').fill(text);
    await this.page.getByLabel('Emoji (optional)').fill(emoji);
    await this.page.getByRole('button', { name: 'Send Custom Ping' }).click();
  }
}
