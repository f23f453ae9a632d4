/** Background Sync registration (Chromium only): a trigger, never the queue itself. */
import { OUTBOX_SYNC_TAG } from './sw-protocol';

interface SyncManager {
  register(tag: string): Promise<void>;
}

export async function requestBackgroundSync(): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  try {
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync?: SyncManager;
    };
    if (!registration.sync) return false;
    await registration.sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}
