/**
 * Web Push for this device (docs/sync.md, "Web Push"): permission is asked only when the person
 * presses 'Turn on notifications'; the subscription uses the server's VAPID key and is stored
 * with this device's id. Browser APIs and server calls are kept apart so both can be tested.
 */
import { PushSubscribeBody, VapidPublicKeyResponse } from '@pingme/shared';
import { api, request } from '../api';
import { ensureDeviceId } from '../db';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/** base64url → the bytes pushManager.subscribe wants as applicationServerKey. */
export function base64UrlToBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4))
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function supported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

export async function currentPushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const sub = await (await registration()).pushManager.getSubscription();
  return sub && Notification.permission === 'granted' ? 'on' : 'off';
}

// ── server calls ──────────────────────────────────────────────────────────────────────────

export async function fetchVapidKey(): Promise<string> {
  return (await api.get('/api/push/vapid-public-key', { schema: VapidPublicKeyResponse }))
    .publicKey;
}

export async function saveSubscription(sub: PushSubscriptionJSON, deviceId: string) {
  const body = PushSubscribeBody.parse({ ...sub, deviceId });
  await api.post('/api/push/subscribe', body);
}

export async function forgetSubscription(endpoint: string) {
  await request('DELETE', '/api/push/subscribe', { body: { endpoint } });
}

// ── the two actions ──────────────────────────────────────────────────────────────────────

/** Asks permission (now, never earlier), subscribes and tells the server. */
export async function turnOnNotifications(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const reg = await registration();
  const key = await fetchVapidKey();
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    sub = await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(key),
    });
  }
  await saveSubscription(sub.toJSON(), await ensureDeviceId());
  return 'on';
}

/** Unsubscribes this device and tells the server (a 404 there means it was already gone). */
export async function turnOffNotifications(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  const sub = await (await registration()).pushManager.getSubscription();
  if (sub) {
    const { endpoint } = sub;
    await sub.unsubscribe();
    try {
      await forgetSubscription(endpoint);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('404'))) throw err;
    }
  }
  return 'off';
}
