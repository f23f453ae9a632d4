/** Helpers of the sync and ping-flow browser tests: reading the app's Dexie database in a page. */
import type { Page } from 'playwright-core';

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
