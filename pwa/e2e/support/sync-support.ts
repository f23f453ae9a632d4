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

/**
 * axe-core on parts of the page only (the sections a test owns; others' sections are checked by
 * their own tests): serious and critical violations.
 */
export async function seriousA11yProblemsIn(page: Page, selectors: string[]) {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const source = readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  );
  await page.addScriptTag({ content: source });
  const violations = await page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: unknown): Promise<{
            violations: {
              id: string;
              impact?: string | null;
              help: string;
              nodes: { target: string[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const present = include.filter((s) => document.querySelector(s));
    const results = await axe.run({ include: present.map((s) => [s]) });
    return results.violations;
  }, selectors);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
