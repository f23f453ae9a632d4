/**
 * Code the bench runs inside the page, as strings (the bench's TypeScript project has no DOM
 * types). PROBE_INIT is added to every new document before the app's own scripts:
 *
 * - `__pm.rendered[name]`: performance.now() (ms since the navigation started) of the first
 *   animation frame after a screen's "rendered" condition first held in the DOM, checked on every
 *   DOM mutation batch; `__pm.dom[name]` the mutation itself. Conditions:
 *     home      the pings counter shows at least __pmExpectPings and Recent Activity has 2 cards;
 *     activity  the activity list shows at least 10 rows.
 * - `__pm.seen[pingId]`: when an element with that data-ping-id was first added to the DOM, and
 *   `__pm.frame[pingId]` the animation frame after it (the frame that paints it).
 * - `__pm.toasts`: when a toast element was added to the DOM.
 * - `__pm.writes`: the app's 'pingme:local-write' marks (sync/local-write.ts: right after the Dexie
 *   transaction committed), with the rows each write touched.
 */
export const PROBE_INIT = String.raw`
(() => {
  const pm = (window.__pm = { rendered: {}, dom: {}, seen: {}, frame: {}, writes: [], toasts: [] });
  const expect = () => Number(sessionStorage.getItem('pm-expect-pings') || '1');
  const conditions = {
    home: () => {
      const n = document.querySelector('[data-testid="counter-pings"] strong');
      if (!n || Number(n.textContent) < expect()) return false;
      return document.querySelectorAll('.recent-activity .ping-card').length >= 2;
    },
    activity: () => document.querySelectorAll('.act-list .act-item').length >= 10,
  };
  const check = () => {
    for (const name of Object.keys(conditions)) {
      if (pm.dom[name] === undefined && conditions[name]()) {
        const t = performance.now();
        pm.dom[name] = t;
        performance.mark('bench:' + name + '-rendered');
        requestAnimationFrame(() => (pm.rendered[name] = performance.now()));
      }
    }
  };
  const noteAdded = (el) => {
    const t = performance.now();
    const found = [];
    if (el.matches('[data-ping-id]')) found.push(el);
    for (const c of el.querySelectorAll('[data-ping-id]')) found.push(c);
    if (el.matches('.toast') || el.querySelector('.toast')) pm.toasts.push(t);
    for (const c of found) {
      const id = c.getAttribute('data-ping-id');
      if (pm.seen[id] === undefined) {
        pm.seen[id] = t;
        requestAnimationFrame(() => (pm.frame[id] = performance.now()));
      }
    }
  };
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) noteAdded(n);
    check();
  }).observe(document, { childList: true, subtree: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'pingme:local-write') pm.writes.push({ t: e.startTime, detail: e.detail });
    }
  }).observe({ type: 'mark', buffered: true });
})();
`;

/** Rows in a table of the app's IndexedDB database ('pingme'); -1 when the table is missing. */
export const idbCount = (table: string) => `
new Promise((resolve, reject) => {
  const open = indexedDB.open('pingme');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const idb = open.result;
    if (!idb.objectStoreNames.contains(${JSON.stringify(table)})) { idb.close(); return resolve(-1); }
    const req = idb.transaction(${JSON.stringify(table)}, 'readonly').objectStore(${JSON.stringify(table)}).count();
    req.onsuccess = () => { idb.close(); resolve(req.result); };
    req.onerror = () => reject(req.error);
  };
})`;

/** Elements in the document (every tag), and how many of them are ping cards / activity rows. */
export const DOM_SIZE = `({
  nodes: document.getElementsByTagName('*').length,
  pingCards: document.querySelectorAll('[data-ping-id]').length,
  activityRows: document.querySelectorAll('.act-list .act-item').length,
})`;

/**
 * Taps 'Surprise Me' n times, each time waiting until the write is durable (its local-write mark)
 * and the button is ready again (it is busy while the write is queued): the app's own UI path.
 * Resolves the number of writes marked.
 */
export const surpriseTimes = (n: number) => `
(async () => {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent.includes('Surprise Me'));
  if (!button) throw new Error('no Surprise Me button');
  const writes = () => window.__pm.writes.length;
  const frame = () => new Promise((r) => setTimeout(r, 0));
  const start = writes();
  for (let i = 0; i < ${n}; i++) {
    const before = writes();
    button.click();
    while (writes() === before || button.disabled) await frame();
  }
  return writes() - start;
})()`;

/** Milliseconds of one small IndexedDB read (a `meta` row) in the page: the round trip's floor. */
export const IDB_ROUND_TRIP = `
new Promise((resolve, reject) => {
  const open = indexedDB.open('pingme');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const idb = open.result;
    const t = performance.now();
    const req = idb.transaction('meta', 'readonly').objectStore('meta').get('deviceId');
    req.onsuccess = () => { const ms = performance.now() - t; idb.close(); resolve(ms); };
    req.onerror = () => reject(req.error);
  };
})`;
