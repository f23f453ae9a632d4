/**
 * The PWA on a device (issue 8, items 5 and 6): Debian's Chromium driven by playwright-core
 * against the real sync server (its own process, on loopback, serving a private build of the
 * PWA) behind a loopback proxy the bench can cut.
 *
 *   D1  Home rendered from Dexie with 5,000 pings (reload of '/', median of several), and the
 *       Activity screen's long list the same way; DOM size of both.
 *   D2  A tap on Send in the real send dialog: from the 'pingme:local-write' mark (the Dexie
 *       transaction committed) to the sent ping's card in the DOM, and to the frame painting it.
 *   D3  1,000 writes queued with the network cut (taps on Surprise Me), then restored: until the
 *       outbox is empty and the server has all 1,000; the server's share of that time.
 *   D4  The poor-connection promise: 200 writes queued offline, then the network back through a
 *       link of 200 ms each way (a 400 ms round trip): until every one is acknowledged.
 *   D5  A connection that comes back without the browser's 'online' event (the proxy cut for
 *       30 s with a write waiting, then restored): until the first batch reaches the server, and
 *       until the outbox is empty.
 *
 * benchDevice() answers the figures in the shape of bench/lib/report.ts, so `npm run bench` can
 * include them; bench/pwa-device.ts is the command line (npm run bench:device).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../sync-server/src/config';
import { openDatabase } from '../../sync-server/src/db/connection';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../pwa/e2e/support/chromium';
import {
  cpuMeter,
  cpuMs,
  descendantsOf,
  otherLoadMeter,
  serverEnv,
  startChild,
  type Child,
} from '../lib/children';
import { buildPwa } from '../lib/pwa-build';
import { figureSink, type Figure } from '../lib/report';
import { percentile, round } from '../lib/stats';
import { DOM_SIZE, IDB_ROUND_TRIP, PROBE_INIT, idbCount, surpriseTimes } from './probes';
import { startTimingProxy, type TimingProxy } from './proxy';
import { seedDevice, type DeviceWorld } from './seed';

/** Issue 8's targets (render, frame) and issue 12's (the drains and noticing the network). */
export const TARGETS = {
  renderMs: 1000,
  frameMs: 16,
  drainMs: 1000,
  slowDrainMs: 2000,
  noticeMs: 2000,
} as const;

export type DevicePart = 'render' | 'send' | 'drain' | 'slow-link' | 'reconnect';
export const DEVICE_PARTS: readonly DevicePart[] = [
  'render',
  'send',
  'drain',
  'slow-link',
  'reconnect',
];

export interface DeviceOptions {
  /** A built PWA to serve; without it the bench builds pwa/ into a temporary directory. */
  dist?: string;
  pings: number;
  friends: number;
  /** Reloads measured per screen. */
  runs: number;
  sends: number;
  writes: number;
  /** D4: writes queued, and the delay each way of the slow link. */
  slowWrites: number;
  slowDelayMs: number;
  /** D5: how long the network stays cut with a write waiting. */
  outageMs: number;
  /** D3: write the page's CPU profile of the drain to this file (.cpuprofile) and log its top. */
  profile?: string;
  /** D3: write Chromium's trace of the drain to this file (DevTools' Performance panel opens it). */
  trace?: string;
  only?: readonly DevicePart[];
  log?: (line: string) => void;
}

export const DEFAULT_DEVICE_OPTIONS: DeviceOptions = {
  pings: 5000,
  friends: 50,
  runs: 7,
  sends: 30,
  writes: 1000,
  slowWrites: 200,
  slowDelayMs: 200,
  outageMs: 30_000,
};

export interface DeviceResult {
  figures: Figure[];
  raw: Record<string, unknown>;
}

const median = (xs: readonly number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const pct = (xs: readonly number[], p: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    p,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${what}: ${String(v)}`);
    await sleep(everyMs);
  }
}

/**
 * Polls an expression in the page until it is truthy (page.waitForFunction evaluates strings,
 * which the app's Content-Security-Policy forbids). The stamps are taken in the page, so the
 * polling interval does not enter any figure.
 */
async function waitInPage(page: Page, expression: string, timeoutMs = 60_000): Promise<void> {
  await until(
    () => page.evaluate(expression),
    (v) => !!v,
    timeoutMs,
    expression,
    20,
  );
}

export async function benchDevice(options: Partial<DeviceOptions> = {}): Promise<DeviceResult> {
  const opts = { ...DEFAULT_DEVICE_OPTIONS, ...options };
  const log = opts.log ?? ((s: string) => console.log(`[device] ${s}`));
  const only = new Set(opts.only ?? DEVICE_PARTS);
  const figures: Figure[] = [];
  const raw: Record<string, unknown> = { options: { ...opts, log: undefined } };
  const { info, check } = figureSink(figures);

  const dist = opts.dist ? path.resolve(opts.dist) : buildPwa(log);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pingme-device-'));
  const env = serverEnv(dataDir, dist);
  const config = loadConfig({ ...process.env, ...env });
  const opened = await openDatabase(config.dbFile);
  let t = performance.now();
  const world = await seedDevice(opened.db, config, { friends: opts.friends, pings: opts.pings });
  await opened.close();
  log(
    `seeded ${world.pings} pings and ${world.friendIds.length} friends in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  let server: Child | undefined;
  let proxy: TimingProxy | undefined;
  let browser: Browser | undefined;
  try {
    server = await startChild('server', env);
    proxy = await startTimingProxy(server.port);
    log(`server pid ${server.pid} on ${server.url}, proxy ${proxy.url}, PWA from ${dist}`);
    const ownPids = () => [process.pid, server!.pid];
    const meter = () => otherLoadMeter(ownPids);

    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      baseURL: proxy.url,
      viewport: { width: 390, height: 844 },
    });
    await context.addCookies(
      world.cookies.map((c) => ({
        ...c,
        domain: '127.0.0.1',
        path: '/',
        httpOnly: true,
        sameSite: 'Lax' as const,
      })),
    );
    await context.addInitScript({ content: PROBE_INIT });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);

    // First visit: the session, the service worker, and the snapshot pull of every ping.
    t = performance.now();
    await page.goto('/');
    await until(
      () => page.evaluate(idbCount('pings')) as Promise<number>,
      (n) => n >= world.pings,
      180_000,
      'the first sync',
      250,
    );
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const firstSyncMs = performance.now() - t;
    log(`first sync: ${world.pings} pings in Dexie after ${(firstSyncMs / 1000).toFixed(1)} s`);
    info(
      'D1',
      `first visit until Dexie holds ${world.pings} pings (snapshot pull)`,
      firstSyncMs,
      'ms',
    );

    if (only.has('render')) await benchRender(page, world, opts, { info, check, log, meter, raw });
    if (only.has('send')) await benchSend(page, world, opts, { info, check, log, meter, raw });
    const sink = { info, check, log, meter, raw };
    if (only.has('drain')) await benchDrain(page, world, opts, server, proxy, config.dbFile, sink);
    if (only.has('slow-link')) await benchSlowLink(page, opts, proxy, sink);
    if (only.has('reconnect')) await benchReconnect(page, opts, proxy, sink);
  } finally {
    await browser?.close();
    await proxy?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (!opts.dist) rmSync(dist, { recursive: true, force: true });
  }
  return { figures, raw };
}

interface Sink {
  info(bench: string, figure: string, value: number, unit?: string): void;
  check(
    bench: string,
    figure: string,
    value: number,
    unit: string,
    target: string,
    ok: boolean,
  ): void;
  log(line: string): void;
  meter(): () => number;
  raw: Record<string, unknown>;
}

interface Probe {
  rendered: Record<string, number>;
  dom: Record<string, number>;
  seen: Record<string, number>;
  frame: Record<string, number>;
  writes: { t: number; detail: { id: string; rows: string[] } }[];
  toasts: number[];
}
const probe = (page: Page) => page.evaluate('window.__pm') as Promise<Probe>;
const domSize = (page: Page) =>
  page.evaluate(DOM_SIZE) as Promise<{ nodes: number; pingCards: number; activityRows: number }>;

/** D1: reloads of Home and of Activity until each is rendered with its data. */
async function benchRender(page: Page, world: DeviceWorld, opts: DeviceOptions, sink: Sink) {
  const expected = await page.evaluate(idbCount('pings'));
  await page.evaluate(`sessionStorage.setItem('pm-expect-pings', '${expected}')`);
  const screens = [
    { name: 'home', path: '/', label: 'Home' },
    { name: 'activity', path: '/activity', label: 'Activity (the long list)' },
  ] as const;
  for (const screen of screens) {
    const stop = sink.meter();
    const frames: number[] = [];
    const doms: number[] = [];
    let size = { nodes: 0, pingCards: 0, activityRows: 0 };
    // One unmeasured load first (code and data caches warm, as for a person who uses the app).
    for (let run = 0; run <= opts.runs; run++) {
      await page.goto(screen.path, { waitUntil: 'commit' });
      await waitInPage(page, `window.__pm && window.__pm.rendered.${screen.name} !== undefined`);
      const p = await probe(page);
      // Let the screen settle (live queries, the incremental pull) before counting its DOM.
      await sleep(1500);
      size = await domSize(page);
      if (run === 0) continue;
      frames.push(p.rendered[screen.name]!);
      doms.push(p.dom[screen.name]!);
    }
    const others = stop();
    const m = median(frames);
    sink.log(
      `${screen.label}: rendered at ${frames.map((x) => x.toFixed(0)).join(', ')} ms; ${size.nodes} elements`,
    );
    sink.check(
      'D1',
      `${screen.label} rendered from Dexie, ${world.pings} pings: median of ${frames.length} loads`,
      m,
      'ms',
      `< ${TARGETS.renderMs} ms`,
      m < TARGETS.renderMs,
    );
    sink.info('D1', `${screen.label}: slowest load`, Math.max(...frames), 'ms');
    sink.info('D1', `${screen.label}: elements in the document`, size.nodes);
    sink.info(
      'D1',
      `${screen.label}: rows rendered (ping cards + activity rows)`,
      size.pingCards + size.activityRows,
    );
    sink.info('D1', `${screen.label}: other processes meanwhile (CPUs busy)`, others);
    sink.raw[`render_${screen.name}`] = { frameMs: frames, domMs: doms, size, others };
  }
}

/** D2: taps on Send in the real send dialog, each to one friend; mark → card on screen. */
async function benchSend(page: Page, world: DeviceWorld, opts: DeviceOptions, sink: Sink) {
  await page.evaluate(`sessionStorage.setItem('pm-expect-pings', '1')`);
  await page.goto('/');
  await waitInPage(page, 'window.__pm && window.__pm.rendered.home !== undefined');
  const stop = sink.meter();
  const toDom: number[] = [];
  const toFrame: number[] = [];
  const roundTrips: number[] = [];
  const toToast: number[] = [];
  const tile = page.locator('.your-pings .ping-tile:not(.ping-tile--custom)').first();
  for (let i = 0; i < opts.sends; i++) {
    const before = (await probe(page)).writes.length;
    await tile.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // A different friend each time (their daily limit is never near).
    await dialog
      .getByRole('checkbox')
      .nth(i % world.friendIds.length)
      .check();
    await dialog.getByRole('button', { name: 'Send (1)' }).click();
    await waitInPage(page, `window.__pm.writes.length > ${before}`);
    const write = (await probe(page)).writes[before]!;
    const pingKey = write.detail.rows.find((r) => r.startsWith('pings:'))!.slice('pings:'.length);
    await waitInPage(page, `window.__pm.frame[${JSON.stringify(pingKey)}] !== undefined`);
    const p = await probe(page);
    toDom.push(p.seen[pingKey]! - write.t);
    const toast = p.toasts.find((t) => t >= write.t);
    if (toast !== undefined) toToast.push(toast - write.t);
    toFrame.push(p.frame[pingKey]! - write.t);
    await dialog.waitFor({ state: 'detached' });
    // Each send on its own: wait until it is delivered and the pull settled.
    await until(
      () => page.evaluate(idbCount('outbox')) as Promise<number>,
      (n) => n === 0,
      30_000,
      'the outbox to empty',
    );
    await sleep(300);
    // The floor under any live query: one small IndexedDB read, right now, in this page.
    roundTrips.push((await page.evaluate(IDB_ROUND_TRIP)) as number);
  }
  const others = stop();
  sink.log(`send → card in the DOM (ms): ${toDom.map((x) => x.toFixed(1)).join(', ')}`);
  const p95 = pct(toDom, 95);
  sink.info('D2', `Send → card in the DOM: p50 (${toDom.length} sends)`, pct(toDom, 50), 'ms');
  sink.check(
    'D2',
    'Send → card in the DOM: p95',
    p95,
    'ms',
    `≤ ${TARGETS.frameMs} ms`,
    p95 <= TARGETS.frameMs,
  );
  sink.info('D2', 'Send → card in the DOM: max', Math.max(...toDom), 'ms');
  sink.info('D2', 'Send → the frame that paints it: p50', pct(toFrame, 50), 'ms');
  sink.info('D2', 'Send → the frame that paints it: p95', pct(toFrame, 95), 'ms');
  // On a phone Recent Activity is below the fold: what the person sees first is the dialog
  // closing and the 'Pings sent!' toast, rendered together.
  sink.info('D2', "Send → the 'Pings sent!' toast in the DOM: p50", pct(toToast, 50), 'ms');
  sink.info('D2', "Send → the 'Pings sent!' toast in the DOM: p95", pct(toToast, 95), 'ms');
  sink.info('D2', 'one small IndexedDB read between sends: p50', pct(roundTrips, 50), 'ms');
  sink.info('D2', 'other processes meanwhile (CPUs busy)', others);
  sink.raw.send = {
    toDomMs: toDom,
    toFrameMs: toFrame,
    toToastMs: toToast,
    idbReadMs: roundTrips,
    others,
  };
}

/** D3: the network cut, `writes` taps on Surprise Me, the network back; until all are sent. */
async function benchDrain(
  page: Page,
  world: DeviceWorld,
  opts: DeviceOptions,
  server: Child,
  proxy: TimingProxy,
  dbFile: string,
  sink: Sink,
) {
  await quietHome(page);
  const sqlite = new BetterSqlite3(dbFile, { readonly: true, fileMustExist: true });
  const sent = sqlite.prepare('SELECT count(*) AS n FROM pings WHERE sender_id = ?');
  const serverCount = () => (sent.get(world.person.id) as { n: number }).n;
  try {
    await proxy.cut();
    let t = performance.now();
    const queued = (await page.evaluate(surpriseTimes(opts.writes))) as number;
    const queueMs = performance.now() - t;
    const waiting = (await page.evaluate(idbCount('outbox'))) as number;
    sink.log(
      `queued ${queued} writes through Surprise Me in ${(queueMs / 1000).toFixed(1)} s; outbox ${waiting}`,
    );
    if (waiting !== opts.writes)
      throw new Error(`expected ${opts.writes} waiting, found ${waiting}`);
    const before = serverCount();

    const profiler = opts.profile ? await startProfile(page) : undefined;
    if (opts.trace) {
      await page
        .context()
        .browser()!
        .startTracing(page, {
          path: opts.trace,
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'IndexedDB'],
        });
    }
    const stop = sink.meter();
    // Chromium's processes (the bench's descendants but the server), counted in "others" too.
    const browserCpu = cpuMeter(() => descendantsOf(process.pid).filter((p) => p !== server.pid));
    const cpu0 = cpuMs(server.pid);
    await proxy.restore();
    t = performance.now();
    // What the browser does when the network comes back: the app drains at once (C2).
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    let outboxEmptyMs = Number.NaN;
    let serverAllMs = Number.NaN;
    await until(
      async () => {
        const now = performance.now() - t;
        if (Number.isNaN(outboxEmptyMs) && (await page.evaluate(idbCount('outbox'))) === 0)
          outboxEmptyMs = now;
        if (Number.isNaN(serverAllMs) && serverCount() - before >= opts.writes) serverAllMs = now;
        return !Number.isNaN(outboxEmptyMs) && !Number.isNaN(serverAllMs);
      },
      (done) => done,
      180_000,
      'the drain',
      25,
    );
    const drainMs = Math.max(outboxEmptyMs, serverAllMs);
    const serverCpu = cpuMs(server.pid) - cpu0;
    const browserMs = browserCpu();
    const others = stop();
    if (profiler && opts.profile) await profiler.stop(opts.profile, sink.log);
    if (opts.trace) await page.context().browser()!.stopTracing();
    const batches = proxy.exchanges.filter(
      (e) => e.method === 'POST' && e.path === '/api/sync/batch' && e.start >= t,
    );
    const batchMs = batches.reduce((s, e) => s + e.ms, 0);
    const firstBatch = batches.length ? batches[0]!.start - t : Number.NaN;
    const stored = serverCount() - before;
    sink.log(
      `drained in ${(drainMs / 1000).toFixed(2)} s: ${batches.length} batches, ${(batchMs / 1000).toFixed(2)} s of them at the server, server CPU ${(serverCpu / 1000).toFixed(2)} s`,
    );
    sink.info('D3', `writes queued offline through the UI (Surprise Me taps)`, queued);
    sink.info(
      'D3',
      `time to queue them (${(queueMs / queued).toFixed(1)} ms per tap)`,
      queueMs,
      'ms',
    );
    sink.check(
      'D3',
      `${opts.writes} queued writes drained (outbox empty and all on the server)`,
      drainMs,
      'ms',
      `< ${TARGETS.drainMs / 1000} s`,
      drainMs < TARGETS.drainMs && stored >= opts.writes,
    );
    sink.info('D3', 'outbox empty after', outboxEmptyMs, 'ms');
    sink.info('D3', 'pings the server stored', stored);
    sink.info('D3', 'batch requests', batches.length);
    sink.info('D3', 'first batch after the network came back', firstBatch, 'ms');
    sink.info('D3', 'time inside batch requests (server + loopback)', batchMs, 'ms');
    sink.info('D3', 'server share of the drain', (100 * batchMs) / drainMs, '%');
    sink.info('D3', 'server CPU during the drain', serverCpu, 'ms');
    sink.info('D3', 'browser CPU during the drain (every Chromium process)', browserMs, 'ms');
    sink.info('D3', 'other processes meanwhile (CPUs busy, the browser included)', others);
    sink.raw.drain = {
      queued,
      queueMs,
      drainMs,
      outboxEmptyMs,
      serverAllMs,
      stored,
      serverCpuMs: serverCpu,
      browserCpuMs: browserMs,
      batches: batches.map((b) => ({
        at: round(b.start - t, 1),
        ms: round(b.ms, 1),
        status: b.status,
      })),
      others,
    };
  } finally {
    sqlite.close();
  }
}

/**
 * The page's CPU profile (Chrome DevTools Protocol, 100 µs samples): written as a .cpuprofile
 * (DevTools opens it), and the functions with the most self time logged.
 */
async function startProfile(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return {
    async stop(file: string, log: (line: string) => void) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      const self = new Map<string, number>();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const deltas = profile.timeDeltas ?? [];
      (profile.samples ?? []).forEach((id, i) => {
        const f = byId.get(id)!.callFrame;
        const name = `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}`;
        self.set(name, (self.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
      });
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 20);
      log(`page CPU profile written to ${file}; self time (ms):`);
      for (const [name, ms] of top) log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
      await cdp.detach();
    },
  };
}

/** Home with nothing waiting: the start of D3, D4 and D5. */
async function quietHome(page: Page): Promise<void> {
  await page.evaluate(`sessionStorage.setItem('pm-expect-pings', '1')`);
  await page.goto('/');
  await waitInPage(page, 'window.__pm && window.__pm.rendered.home !== undefined');
  await until(
    () => page.evaluate(idbCount('outbox')) as Promise<number>,
    (n) => n === 0,
    60_000,
    'an empty outbox',
  );
}

/** Polls (every 10 ms, in this process) until the outbox is empty; answers when, from `t`. */
async function outboxEmptyAfter(page: Page, t: number, timeoutMs: number): Promise<number> {
  let at = Number.NaN;
  await until(
    async () => {
      const n = (await page.evaluate(idbCount('outbox'))) as number;
      if (n === 0) at = performance.now() - t;
      return n;
    },
    (n) => n === 0,
    timeoutMs,
    'the outbox to empty',
    10,
  );
  return at;
}

const batchesSince = (proxy: TimingProxy, t: number) =>
  proxy.exchanges.filter(
    (e) => e.method === 'POST' && e.path === '/api/sync/batch' && e.start >= t,
  );

/**
 * D4: the network cut, `slowWrites` taps on Surprise Me, then the network back (with its 'online'
 * event) through a link that holds each request and each answer `slowDelayMs`.
 */
async function benchSlowLink(page: Page, opts: DeviceOptions, proxy: TimingProxy, sink: Sink) {
  await quietHome(page);
  await proxy.cut();
  const queued = (await page.evaluate(surpriseTimes(opts.slowWrites))) as number;
  const waiting = (await page.evaluate(idbCount('outbox'))) as number;
  if (waiting !== opts.slowWrites) {
    throw new Error(`expected ${opts.slowWrites} waiting, found ${waiting}`);
  }
  proxy.setDelay(opts.slowDelayMs);
  try {
    const stop = sink.meter();
    await proxy.restore();
    const t = performance.now();
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    const ackedMs = await outboxEmptyAfter(page, t, 120_000);
    const others = stop();
    const batches = batchesSince(proxy, t);
    const rtt = 2 * opts.slowDelayMs;
    sink.log(
      `slow link (${rtt} ms round trip): ${queued} writes acknowledged after ${(ackedMs / 1000).toFixed(2)} s, ${batches.length} batches`,
    );
    sink.check(
      'D4',
      `${queued} writes queued offline, all acknowledged over a ${rtt} ms round trip`,
      ackedMs,
      'ms',
      `< ${TARGETS.slowDrainMs / 1000} s`,
      ackedMs < TARGETS.slowDrainMs,
    );
    sink.info('D4', 'batch requests', batches.length);
    sink.info(
      'D4',
      'first batch after the network came back (reaching the server)',
      batches.length ? batches[0]!.start - t : Number.NaN,
      'ms',
    );
    sink.info(
      'D4',
      'time inside the server (batch requests, proxy to server)',
      batches.reduce((a, e) => a + e.ms, 0),
      'ms',
    );
    sink.info('D4', 'other processes meanwhile (CPUs busy)', others);
    sink.raw.slowLink = {
      queued,
      rttMs: rtt,
      ackedMs,
      batches: batches.map((b) => ({ at: round(b.start - t, 1), ms: round(b.ms, 1) })),
      others,
    };
  } finally {
    proxy.setDelay(0);
  }
}

/**
 * D5: one write waits while the network stays cut for `outageMs` (the outbox backs off), then the
 * network comes back without an 'online' event, as when a tunnel or a proxy is restored.
 */
async function benchReconnect(page: Page, opts: DeviceOptions, proxy: TimingProxy, sink: Sink) {
  await quietHome(page);
  await proxy.cut();
  await page.evaluate(surpriseTimes(1));
  await sleep(opts.outageMs);
  const stop = sink.meter();
  await proxy.restore();
  const t = performance.now();
  const emptyMs = await outboxEmptyAfter(page, t, opts.outageMs * 3 + 60_000);
  const others = stop();
  const first = batchesSince(proxy, t)[0];
  const noticedMs = first ? first.start - t : Number.NaN;
  sink.log(
    `back after ${opts.outageMs / 1000} s without 'online': first batch after ${noticedMs.toFixed(0)} ms, outbox empty after ${emptyMs.toFixed(0)} ms`,
  );
  sink.check(
    'D5',
    `network back after ${opts.outageMs / 1000} s, no 'online' event: first batch at the server`,
    noticedMs,
    'ms',
    `< ${TARGETS.noticeMs / 1000} s`,
    noticedMs < TARGETS.noticeMs,
  );
  sink.info('D5', 'the waiting write acknowledged after', emptyMs, 'ms');
  sink.info('D5', 'other processes meanwhile (CPUs busy)', others);
  sink.raw.reconnect = { outageMs: opts.outageMs, noticedMs, emptyMs, others };
}
