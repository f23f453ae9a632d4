/**
 * The service worker. It owns four things:
 *   1. the app shell: precached at install, served for every client route (navigation fallback),
 *      with /api, /ws and /uploads kept out so they always reach the server;
 *   2. no caching of API answers: no route here matches /api, so those requests go to the network;
 *   3. Web Push: a notification shown inside event.waitUntil, opening the app on click;
 *   4. Background Sync: the 'outbox' tag flushes the outbox, through an open tab or right here
 *      (see flushOutboxInBackground).
 */
// First: zod must not probe for eval under the app's CSP (shared/src/csp.ts).
import '@pingme/shared/csp';
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { PushPayload } from '@pingme/shared';
import { getMeta, type OutboxRow } from './db';
import { OUTBOX_LOCK, withLock } from './sync/locks';
import { getSyncMeta, setSyncMeta } from './sync/meta';
import { drainOutbox } from './sync/outbox-worker';
import { postBatch } from './sync/transport';
import { OUTBOX_SYNC_TAG, type PageToSwMessage, type SwToPageMessage } from './sync/sw-protocol';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | PrecacheEntry)[];
};

/** Paths the navigation fallback must never answer: they are the server's, not the app's. */
const NAVIGATION_DENYLIST = [/^\/api(\/|$)/, /^\/ws(\/|$)/, /^\/uploads\//];

// ── 1. App shell ────────────────────────────────────────────────────────────────────────
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: NAVIGATION_DENYLIST }),
);

// A first install takes the open tabs at once; later versions wait for the person's 'Reload'.
clientsClaim();
self.addEventListener('message', (event) => {
  const data = event.data as PageToSwMessage | undefined;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// ── 3. Web Push ─────────────────────────────────────────────────────────────────────────
/** What a notification shows. */
interface Shown {
  title: string;
  body: string;
  url: string;
  tag?: string;
}

/**
 * A push's JSON as the shared PushPayload schema reads it (push/notifier.ts builds it). One that
 * does not match still shows a notification (a push that shows nothing gets the subscription
 * dropped on iOS), a plain one that opens the app: the data comes with the next pull anyway.
 */
function readPushPayload(data: PushMessageData | null): Shown {
  let json: unknown;
  try {
    json = data?.json();
  } catch {
    json = undefined;
  }
  const parsed = PushPayload.safeParse(json);
  if (parsed.success) {
    const { title, body, url, tag } = parsed.data;
    return { title, body, url, tag };
  }
  console.warn('push: a payload that does not match PushPayload; showing a plain notification');
  return { title: 'PingMe', body: '', url: '/' };
}

self.addEventListener('push', (event) => {
  const payload = readPushPayload(event.data);
  // Inside waitUntil: a push that shows nothing gets the subscription dropped (iOS).
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      icon: '/pwa-192x192.png',
      badge: '/pwa-64x64.png',
      data: { url: payload.url },
      ...(payload.tag ? { tag: payload.tag } : {}),
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(
    (event.notification.data as { url?: string } | null)?.url ?? '/',
    self.location.origin,
  );
  event.waitUntil(openOrFocus(target));
});

async function openOrFocus(target: URL): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const exact = windows.find((w) => w.url === target.href);
  const anyOfOurs = windows.find((w) => new URL(w.url).origin === target.origin);
  const client = exact ?? anyOfOurs;
  if (client) {
    await client.focus();
    if (!exact) {
      const message: SwToPageMessage = {
        type: 'navigate',
        url: target.pathname + target.search + target.hash,
      };
      client.postMessage(message);
    }
    return;
  }
  await self.clients.openWindow(target.href);
}

// ── 4. Background Sync ──────────────────────────────────────────────────────────────────
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

/**
 * THE Background Sync hook of the sync engine. With a tab open, that tab flushes (its SyncHost
 * runs the engine). With none, the worker drains the outbox itself: the same Dexie database, the
 * same drain (sync/outbox-worker.ts), under the same one-drainer Web Lock. A refusal is rolled
 * back here and its toast is kept for the next tab to show; a transient failure rejects, so the
 * browser fires the sync again later with its own backoff.
 */
async function flushOutboxInBackground(): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window' });
  if (windows.length > 0) {
    const message: SwToPageMessage = { type: 'outbox-sync' };
    for (const w of windows) w.postMessage(message);
    return;
  }
  // Only the writes of the person last signed in on this device: the browser's cookie is
  // theirs, or nobody's (a tab of someone else would have forgotten them first).
  const author = (await getMeta('currentUser'))?.id;
  if (!author) return;
  const result = await withLock(OUTBOX_LOCK, () =>
    drainOutbox({
      send: (entries) => postBatch(entries),
      onRejected: keepNoticeForNextTab,
      author,
    }),
  );
  if (result.stopped && !result.stopped.unauthorized) {
    throw new Error(`outbox not drained: ${result.stopped.error}`);
  }
}

async function keepNoticeForNextTab(entry: OutboxRow): Promise<void> {
  if (!entry.errorToast) return;
  const notices = (await getSyncMeta('syncNotices')) ?? [];
  await setSyncMeta('syncNotices', [
    ...notices,
    { title: entry.errorToast.title ?? 'Error', description: entry.errorToast.description },
  ]);
}

self.addEventListener('sync', (event: Event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(flushOutboxInBackground());
});
