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
  // Evaluated over the DevTools protocol: the app's Content-Security-Policy forbids inline scripts.
  await page.evaluate(source);
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

/**
 * Ends a friendship behind the app's back, in the test server's SQLite file (there is no
 * unfriend route): the server then refuses pings between the two, while the devices still list
 * each other. The file is found among the test servers' temporary DATA_DIRs by the person's e-mail.
 */
export async function removeFriendshipInDb(aEmail: string, bEmail: string): Promise<void> {
  const { readdirSync, existsSync } = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { default: Database } = await import('better-sqlite3');
  for (const dir of readdirSync(os.tmpdir()).filter((d) => d.startsWith('pingme-test-'))) {
    const file = path.join(os.tmpdir(), dir, 'pingme.sqlite');
    if (!existsSync(file)) continue;
    const sqlite = new Database(file, { fileMustExist: true, timeout: 5000 });
    try {
      const ids = sqlite
        .prepare('SELECT id FROM users WHERE email IN (?, ?)')
        .all(aEmail, bEmail) as { id: string }[];
      if (ids.length !== 2) continue;
      const [a, b] = ids.map((r) => r.id);
      const removed = sqlite
        .prepare(
          `DELETE FROM friendships WHERE (requester_id = ? AND addressee_id = ?)
             OR (requester_id = ? AND addressee_id = ?)`,
        )
        .run(a, b, b, a);
      if (removed.changes !== 1)
        throw new Error(`expected one friendship, removed ${removed.changes}`);
      return;
    } finally {
      sqlite.close();
    }
  }
  throw new Error('the test server’s database was not found');
}
