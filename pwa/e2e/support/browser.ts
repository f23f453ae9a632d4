/** Each test file connects to the run's one Chromium; each test gets a context of its own. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, expect, inject } from 'vitest';

export const baseUrl = inject('baseUrl');
export const PHONE = { width: 390, height: 844 };

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** Where screenshots go (gitignored): pwa/e2e/artifacts/<name>. */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

let browser: Browser | undefined;
const open = new Set<BrowserContext>();

async function connected(): Promise<Browser> {
  browser ??= await chromium.connect(inject('wsEndpoint'));
  return browser;
}

/** A fresh, isolated browser profile (cookies, storage, service workers) at phone size. */
export async function newPage(
  opts: { baseURL?: string; viewport?: { width: number; height: number }; userAgent?: string } = {},
): Promise<Page> {
  const context = await (
    await connected()
  ).newContext({
    baseURL: opts.baseURL ?? baseUrl,
    viewport: opts.viewport ?? PHONE,
    ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
  });
  open.add(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/**
 * The CDP id of the service worker registration for `origin`'s scope: enables CDP's ServiceWorker
 * domain on `cdp` and waits until Chromium reports the registration.
 */
export async function serviceWorkerRegistrationId(
  cdp: CDPSession,
  origin = baseUrl,
): Promise<string> {
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return registered;
}

/** Per CDP session: the Status of each 'Push event completed' Chromium reported, in order. */
const pushOutcomes = new WeakMap<CDPSession, Promise<string[]>>();

function pushOutcomesOf(cdp: CDPSession): Promise<string[]> {
  let outcomes = pushOutcomes.get(cdp);
  if (!outcomes) {
    outcomes = (async () => {
      const statuses: string[] = [];
      cdp.on('BackgroundService.backgroundServiceEventReceived', ({ backgroundServiceEvent }) => {
        const { service, eventName, eventMetadata } = backgroundServiceEvent;
        if (service !== 'pushMessaging' || eventName !== 'Push event completed') return;
        statuses.push(eventMetadata.find((m) => m.key === 'Status')?.value ?? 'unknown');
      });
      await cdp.send('BackgroundService.startObserving', { service: 'pushMessaging' });
      // Chromium logs push events for DevTools only while recording is on for the profile.
      await cdp.send('BackgroundService.setRecording', {
        shouldRecord: true,
        service: 'pushMessaging',
      });
      return statuses;
    })();
    pushOutcomes.set(cdp, outcomes);
  }
  return outcomes;
}

/**
 * Delivers a Web Push with `data` to the service worker of `registrationId` (CDP's
 * ServiceWorker.deliverPushMessage, which answers before anything is delivered) and waits until
 * the worker has handled it: Chromium's 'Push event completed' with Status 'Success', i.e. the
 * push handler's waitUntil promise (its showNotification) resolved.
 *
 * Read notifications only after this. Chromium's getNotifications() deletes from its database
 * every stored notification that the platform does not report as displayed yet and that was
 * created before the read began (content/browser/notifications/
 * platform_notification_context_impl.cc, DoReadAllNotificationDataForServiceWorkerRegistration).
 * A read that lands between the worker's showNotification writing the notification and the
 * platform displaying it loses it for good: it stays on screen, and every later read returns [].
 * Polling getNotifications() right after the push did exactly that on a loaded machine.
 */
export async function deliverPush(
  cdp: CDPSession,
  registrationId: string,
  data: string,
  origin = baseUrl,
): Promise<void> {
  const outcomes = await pushOutcomesOf(cdp);
  const before = outcomes.length;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data });
  // Nothing is logged for a push Chromium drops (no active worker for the registration).
  await expect
    .poll(() => outcomes.length, { message: `push to registration ${registrationId} completed` })
    .toBeGreaterThan(before);
  expect(outcomes[before], 'status of the push event').toBe('Success');
}

/** The notifications the service worker shows, read once (see deliverPush: never while one is being shown). */
export async function shownNotifications(
  page: Page,
): Promise<{ title: string; body: string; tag: string; data: unknown }[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
    }));
  });
}

afterEach(async () => {
  await Promise.all([...open].map((c) => c.close()));
  open.clear();
});

afterAll(async () => {
  await browser?.close();
});

let counter = 0;
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.test`;
}

/**
 * Registers someone through the API (not the UI) and returns their details. A new account must
 * finish the onboarding setup before it can use the app (spec section 6), so by default the
 * person is marked as past it (PATCH /api/user/onboarding {completed: true}: no handle, no tour)
 * and lands on Home when signed in; `setupDone: false` keeps the setup in their way.
 */
export async function registerByApi(fields: {
  firstName: string;
  lastName: string;
  email?: string;
  password?: string;
  setupDone?: boolean;
}) {
  const { setupDone = true, ...account } = fields;
  const email = account.email ?? uniqueEmail('api');
  const password = account.password ?? 'correct horse';
  const res = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...account, email, password }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const user = (await res.json()) as { id: string; inviteCode: string };
  if (setupDone) {
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const done = await fetch(`${baseUrl}/api/user/onboarding`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', cookie },
      body: JSON.stringify({ completed: true }),
    });
    if (done.status !== 200) throw new Error(`setup skip failed: ${done.status}`);
  }
  return { ...user, email, password };
}

/** The link in the latest mail to `to` whose subject matches, waiting for it to arrive. */
export async function linkFromMail(to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${inject('mailboxUrl')}?to=${encodeURIComponent(to)}`);
    const mails = (await res.json()) as { subject: string; text: string }[];
    const mail = mails.reverse().find((m) => subject.test(m.subject));
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail matching ${subject} to ${to}`);
}

/** Rows of a Dexie table in the page (the app's database `pingme`). */
export async function dexieRows<T = Record<string, unknown>>(
  page: Page,
  table: string,
): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open('pingme');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const idb = open.result;
          if (!idb.objectStoreNames.contains(name)) {
            idb.close();
            return resolve([]);
          }
          const req = idb.transaction(name, 'readonly').objectStore(name).getAll();
          req.onsuccess = () => {
            idb.close();
            resolve(req.result as T[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    table,
  );
}

/**
 * Waits until the outbox is empty: no entry left in Dexie (a write's entry commits before
 * anything shows it, so this cannot pass before the write was sent and acknowledged), and the
 * sync status shows nothing waiting to send.
 */
export async function outboxEmpty(page: Page): Promise<void> {
  await expect.poll(async () => (await dexieRows(page, 'outbox')).length).toBe(0);
  await page.waitForFunction(() => !document.querySelector('.sync-status__waiting'));
}

/**
 * What the page sends about photos: the content type of each upload to PUT /api/profile/photo,
 * and how many other requests carried image data inside their body (a data URL in JSON).
 */
export function watchPhotoTraffic(page: Page): { uploads: string[]; inlineImages: () => number } {
  const uploads: string[] = [];
  let inline = 0;
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (req.method() === 'PUT' && path === '/api/profile/photo') {
      uploads.push(req.headers()['content-type'] ?? '');
    } else if ((req.postData() ?? '').includes('data:image/')) {
      inline += 1;
    }
  });
  return { uploads, inlineImages: () => inline };
}
