/**
 * What the page and the service worker say to each other. Shared by both builds, so it holds
 * only constants and types (no DOM, no worker globals).
 */

/** The Background Sync tag the outbox registers and the service worker answers. */
export const OUTBOX_SYNC_TAG = 'outbox';

/** Service worker → page. */
export type SwToPageMessage =
  /** Background Sync fired: an open tab should flush its outbox now. */
  | { type: 'outbox-sync' }
  /** A notification was clicked while this tab was open: show that screen. */
  | { type: 'navigate'; url: string };

/** Page → service worker. workbox-window's messageSkipWaiting() sends SKIP_WAITING. */
export type PageToSwMessage = { type: 'SKIP_WAITING' };

export function isSwToPageMessage(data: unknown): data is SwToPageMessage {
  if (typeof data !== 'object' || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === 'outbox-sync' || type === 'navigate';
}
