/**
 * navigator.storage.persist(): ask once the person is signed in, so the browser does not evict
 * the offline data (and the outbox) under storage pressure. The answer is kept in meta
 * (`storagePersisted`); SyncStatus says so when it is false.
 */
import { getSyncMeta, setSyncMeta } from './meta';

export async function ensurePersistentStorage(): Promise<boolean | undefined> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return undefined;
  try {
    const already = storage.persisted ? await storage.persisted() : false;
    const granted = already || (await storage.persist());
    if ((await getSyncMeta('storagePersisted')) !== granted) {
      await setSyncMeta('storagePersisted', granted);
    }
    return granted;
  } catch (err) {
    console.warn('could not ask for persistent storage', err);
    return undefined;
  }
}
