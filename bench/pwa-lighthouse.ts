/**
 * Lighthouse on the PWA (issue 8, item 5): performance, accessibility and best-practices scores
 * of Landing (`/`, signed out) and Home (`/`, signed in, with data) against the targets
 * performance ≥ 95, accessibility 100, best practices 100.
 *
 *   npm run bench:lighthouse                   # builds pwa/ privately, 3 runs per page
 *   npm run bench:lighthouse -- --dist DIR     # measures an existing build (no build)
 *   npm run bench:lighthouse -- --runs 5       # runs per page (the median run is reported)
 *   npm run bench:lighthouse -- --lhr          # also keeps every full report (JSON) in results/
 *
 * The real sync server (its own process, a temporary DATA_DIR) serves the build on loopback.
 * A person with data is made through the REST API (bench/pwa/people.ts). Lighthouse 12 runs in
 * Debian's Chromium (/usr/bin/chromium or CHROMIUM_PATH) driven by puppeteer-core, with its
 * default mobile settings: a Moto G Power sized screen, **simulated** throttling (Lantern:
 * the page loads unthrottled and Lighthouse models a slow 4G link, 150 ms RTT, 1.6 Mbps, and a
 * 4× slower CPU).
 *
 * Pages:
 * - `landing`: a new browser profile, signed out; Lighthouse's usual storage reset.
 * - `home-cold`: signed in (session cookie) on a device that has nothing yet: no service worker,
 *   no HTTP cache, empty IndexedDB, so the first sync pulls the whole snapshot during the load.
 * - `home-warm`: the same person after one earlier visit: the service worker is installed and
 *   controls the page, Dexie holds the data; no storage reset. What a returning person sees.
 * After each Home run the page must show the friends' names (the synced data), else the run fails.
 *
 * Prints a table with the targets, writes bench/results/lighthouse-<time>.json, exits 1 when a
 * target is missed. `lighthouseFigures()` answers the same figures for `npm run bench`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from '../pwa/e2e/support/chromium';
import { loadAverage, serverEnv, startChild, type Child } from './lib/children';
import { buildPwa } from './lib/pwa-build';
import { table, type Figure } from './lib/report';
import { makeHomeWorld, type HomeWorld } from './pwa/people';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..');

export const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100 } as const;
type Category = keyof typeof TARGETS;
const CATEGORIES = Object.keys(TARGETS) as Category[];

export const PAGES = ['landing', 'home-cold', 'home-warm'] as const;
export type PageName = (typeof PAGES)[number];

export interface Metrics {
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
}

export interface FailedAudit {
  category: Category;
  id: string;
  title: string;
  score: number | null;
  /** Short description of what failed (items, savings). */
  detail: string;
}

export interface RunResult {
  scores: Record<Category, number>;
  metrics: Metrics;
  lcpElement: string;
  /**
   * Lighthouse's CPU benchmark of the machine during the run (higher is faster; a busy 2-core
   * machine scores low, and simulated throttling multiplies the CPU time it observed by 4).
   */
  benchmarkIndex: number;
  /** 1-minute load average when the run ended. */
  loadAverage: number;
  /** Network requests the run saw, and their transfer bytes. */
  requests: number;
  transferKb: number;
  warnings: string[];
  failed: FailedAudit[];
  /** Home only: the synced data was on screen when the run ended. */
  dataRendered?: boolean;
  /** Home only: a service worker controlled the page. */
  swControlled?: boolean;
}

export interface PageResult {
  page: PageName;
  url: string;
  runs: RunResult[];
  /** The run with the median performance score. */
  median: RunResult;
}

export interface LighthouseOptions {
  /** An existing build to measure; else pwa/ is built into a temporary directory. */
  dist?: string;
  runs?: number;
  pages?: readonly PageName[];
  /** Full Lighthouse reports go to `<lhrPrefix>-<page>-<run>.json`; none when undefined. */
  lhrPrefix?: string;
  log?: (line: string) => void;
}

// Lighthouse's result, as far as this bench reads it.
interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      numericValue?: number;
      displayValue?: string;
      details?: { type?: string; items?: Record<string, unknown>[] };
    }
  >;
  runWarnings: string[];
  environment?: { benchmarkIndex?: number };
  runtimeError?: { code: string; message: string };
}

function describeItems(items: Record<string, unknown>[] | undefined): string {
  // Insights nest their tables in a list; the first table holds the elements or requests.
  const first = items?.[0] as { type?: string; items?: Record<string, unknown>[] } | undefined;
  if (first && (first.type === 'table' || first.type === 'list') && first.items)
    return describeItems(first.items.filter((i) => (i.node as { type?: string })?.type !== 'text'));
  if (!items?.length) return '';
  const parts = items.slice(0, 4).flatMap((item) => {
    const node = item.node as { snippet?: string; explanation?: string } | undefined;
    if (node?.snippet) {
      const why = node.explanation?.split('\n').slice(0, 2).join(' ').slice(0, 200);
      return [`${node.snippet.slice(0, 120)}${why ? ` (${why})` : ''}`];
    }
    if (typeof item.url === 'string') return [item.url.replace(/^https?:\/\/[^/]+/, '')];
    if (typeof item.description === 'string') return [item.description.slice(0, 160)];
    if (typeof item.source === 'object' && item.source) {
      const src = item.source as { url?: string };
      return [`${src.url ?? ''} ${String(item.description ?? '')}`.trim()];
    }
    return [];
  });
  return `${parts.join(' | ')}${items.length > 4 ? ` (+${items.length - 4} more)` : ''}`;
}

function summarise(lhr: Lhr): Omit<RunResult, 'dataRendered' | 'swControlled'> {
  if (lhr.runtimeError)
    throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const num = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failed: FailedAudit[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.scoreDisplayMode === 'notApplicable') continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue;
      // Performance: metrics and insights that cost points; the others: any audit not passed.
      if (audit.score >= (category === 'performance' ? 0.9 : 1)) continue;
      failed.push({
        category,
        id: audit.id,
        title: audit.title,
        score: audit.score,
        detail: [audit.displayValue, describeItems(audit.details?.items)]
          .filter(Boolean)
          .join(' — '),
      });
    }
  }
  const lcpItems = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  // LH 12: a list of two tables (the element, then the LCP phases).
  const first = lcpItems[0] as { items?: { node?: { snippet?: string } }[] } | undefined;
  const lcpElement = first?.items?.[0]?.node?.snippet ?? '';
  const netItems = (lhr.audits['network-requests']?.details?.items ?? []) as {
    transferSize?: number;
  }[];
  return {
    scores,
    metrics: {
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      speedIndexMs: num('speed-index'),
    },
    lcpElement,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
    loadAverage: loadAverage(),
    requests: netItems.length,
    transferKb: netItems.reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1000,
    warnings: lhr.runWarnings.map(String),
    failed,
  };
}

/** Sets the person's session cookie (httpOnly, as the server set it) for `origin`. */
async function signIn(browser: Browser, origin: string, cookie: string): Promise<void> {
  const host = new URL(origin).hostname;
  await browser.setCookie(
    ...cookie.split('; ').map((pair) => {
      const i = pair.indexOf('=');
      return {
        name: pair.slice(0, i),
        value: pair.slice(i + 1),
        domain: host,
        path: '/',
        httpOnly: true,
        sameSite: 'Lax' as const,
      };
    }),
  );
}

/** Waits until every expected text is on the page (the first sync has landed and rendered). */
async function waitForData(page: Page, texts: string[], timeoutMs = 60_000): Promise<boolean> {
  const check = `(() => { const t = document.body ? document.body.innerText : ''; return ${JSON.stringify(texts)}.every((s) => t.includes(s)); })()`;
  try {
    await page.waitForFunction(check, { timeout: timeoutMs, polling: 200 });
    return true;
  } catch {
    return false;
  }
}

const swControlled = (page: Page) =>
  page.evaluate(
    'Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)',
  ) as Promise<boolean>;

async function runOnce(
  which: PageName,
  origin: string,
  world: HomeWorld,
  lhrFile: string | undefined,
): Promise<RunResult> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'pingme-lh-profile-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    userDataDir: profile,
    defaultViewport: null,
  });
  try {
    const page = await browser.newPage();
    const url = `${origin}/`;
    const flags: Parameters<typeof lighthouse>[1] = {
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      throttlingMethod: 'simulate',
      maxWaitForLoad: 60_000,
    };
    if (which !== 'landing') await signIn(browser, origin, world.me.cookie);
    if (which === 'home-cold') {
      // Nothing on the device but the session cookie: Dexie, service worker, caches all empty.
      flags.clearStorageTypes = [
        'file_systems',
        'shader_cache',
        'service_workers',
        'cache_storage',
        'indexeddb',
        'local_storage',
        'websql',
      ];
    }
    if (which === 'home-warm') {
      // An earlier visit: the service worker installs and takes control, the first sync fills
      // Dexie. Then Lighthouse loads the page again without resetting anything.
      await page.goto(url, { waitUntil: 'load' });
      if (!(await waitForData(page, world.expectedTexts)))
        throw new Error('home-warm: the earlier visit never showed the synced data');
      await page.waitForFunction('navigator.serviceWorker && navigator.serviceWorker.controller', {
        timeout: 60_000,
      });
      flags.disableStorageReset = true;
    }
    const result = await lighthouse(url, flags, undefined, page);
    if (!result) throw new Error('Lighthouse answered nothing');
    const lhr = result.lhr as unknown as Lhr;
    if (lhrFile) writeFileSync(lhrFile, JSON.stringify(result.lhr));
    const run: RunResult = summarise(lhr);
    if (which !== 'landing') {
      run.dataRendered = await waitForData(page, world.expectedTexts, 15_000);
      run.swControlled = await swControlled(page);
    } else {
      run.swControlled = await swControlled(page);
    }
    return run;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function medianRun(runs: RunResult[]): RunResult {
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Builds (unless given a dist), serves, seeds and runs Lighthouse; answers every page's runs. */
export async function runLighthouse(opts: LighthouseOptions = {}): Promise<PageResult[]> {
  const log = opts.log ?? ((s: string) => console.log(`[lighthouse] ${s}`));
  const runs = opts.runs ?? 3;
  const pages = opts.pages ?? PAGES;
  const work = mkdtempSync(path.join(os.tmpdir(), 'pingme-lighthouse-'));
  let dist = opts.dist ? path.resolve(opts.dist) : path.join(work, 'pwa');
  if (!opts.dist) buildPwa(log, dist);
  dist = path.resolve(dist);
  let server: Child | undefined;
  try {
    server = await startChild('server', serverEnv(path.join(work, 'data'), dist), { quiet: true });
    const origin = server.url;
    log(`server pid ${server.pid} on ${origin} serving ${dist}; load average ${loadAverage()}`);
    const world = await makeHomeWorld(origin);
    log(
      `Maya: ${world.counts.friends} friends, ${world.counts.pingsReceived} pings received, ${world.counts.pingsSent} sent, ${world.counts.prompts} custom prompts, a mood each way, 2 anchors, 1 request`,
    );
    const results: PageResult[] = [];
    for (const which of pages) {
      const done: RunResult[] = [];
      for (let i = 0; i < runs; i++) {
        const lhrFile = opts.lhrPrefix ? `${opts.lhrPrefix}-${which}-${i + 1}.json` : undefined;
        // A busy machine now and then loses a browser mid-run: one more try, then give up.
        const run = await runOnce(which, origin, world, lhrFile).catch((err: unknown) => {
          log(`${which} run ${i + 1}/${runs} failed (${String(err).split('\n')[0]}); again`);
          return runOnce(which, origin, world, lhrFile);
        });
        if (which !== 'landing' && !run.dataRendered)
          throw new Error(`${which}: the page did not show the synced data after the run`);
        log(
          `${which} run ${i + 1}/${runs}: perf ${run.scores.performance}, a11y ${run.scores.accessibility}, bp ${run.scores['best-practices']}; FCP ${Math.round(run.metrics.fcpMs)} ms, LCP ${Math.round(run.metrics.lcpMs)} ms, TBT ${Math.round(run.metrics.tbtMs)} ms, CLS ${run.metrics.cls.toFixed(3)}; benchmarkIndex ${Math.round(run.benchmarkIndex)}, load ${run.loadAverage}`,
        );
        done.push(run);
      }
      results.push({ page: which, url: `${origin}/`, runs: done, median: medianRun(done) });
    }
    return results;
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The results as the bench's figures (bench/lib/report.ts), targets included. */
export function toFigures(results: PageResult[]): Figure[] {
  const figures: Figure[] = [];
  for (const r of results) {
    const m = r.median;
    for (const c of CATEGORIES) {
      const target = TARGETS[c];
      figures.push({
        bench: 'lh',
        figure: `${r.page}: ${c}`,
        value: m.scores[c],
        unit: '',
        target: target === 100 ? '100' : `≥ ${target}`,
        pass: m.scores[c] >= target,
      });
    }
    const ref = (figure: string, value: number, unit: string) =>
      figures.push({ bench: 'lh', figure: `${r.page}: ${figure}`, value, unit, target: '' });
    ref('FCP', m.metrics.fcpMs, 'ms');
    ref('LCP', m.metrics.lcpMs, 'ms');
    ref('TBT', m.metrics.tbtMs, 'ms');
    ref('CLS', m.metrics.cls, '');
  }
  return figures;
}

/** For `npm run bench`: runs Lighthouse and answers its figures. */
export async function lighthouseFigures(opts: LighthouseOptions = {}): Promise<Figure[]> {
  return toFigures(await runLighthouse(opts));
}

function pagesTable(results: PageResult[]): string {
  const head = [
    'page',
    'perf',
    'a11y',
    'best pr.',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'perf runs',
    'result',
  ];
  const mark = (v: number, c: Category) => `${v}${v >= TARGETS[c] ? '' : ' ✗'}`;
  const rows = results.map((r) => {
    const m = r.median;
    const pass = CATEGORIES.every((c) => m.scores[c] >= TARGETS[c]);
    return [
      r.page,
      mark(m.scores.performance, 'performance'),
      mark(m.scores.accessibility, 'accessibility'),
      mark(m.scores['best-practices'], 'best-practices'),
      `${(m.metrics.fcpMs / 1000).toFixed(2)} s`,
      `${(m.metrics.lcpMs / 1000).toFixed(2)} s`,
      `${Math.round(m.metrics.tbtMs)} ms`,
      m.metrics.cls.toFixed(3),
      r.runs.map((x) => x.scores.performance).join(' '),
      pass ? 'pass' : 'FAIL',
    ];
  });
  rows.push([
    'target',
    `≥ ${TARGETS.performance}`,
    String(TARGETS.accessibility),
    String(TARGETS['best-practices']),
    '',
    '',
    '',
    '',
    '',
    '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string' },
      runs: { type: 'string', default: '3' },
      pages: { type: 'string', default: PAGES.join(',') },
      lhr: { type: 'boolean', default: false },
    },
  });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = path.join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const pages = values.pages.split(',').map((p) => p.trim()) as PageName[];
  for (const p of pages) if (!PAGES.includes(p)) throw new Error(`unknown page ${p}`);
  // Full reports: bench/results/lighthouse-<time>-<page>-<run>.json (gitignored like the rest).
  const lhrPrefix = values.lhr ? path.join(resultsDir, `lighthouse-${stamp}`) : undefined;
  const started = Date.now();
  const loadStart = loadAverage();
  const results = await runLighthouse({
    ...(values.dist ? { dist: values.dist } : {}),
    runs: Math.max(1, Number(values.runs)),
    pages,
    ...(lhrPrefix ? { lhrPrefix } : {}),
  });
  const figures = toFigures(results);
  console.log(
    '\nLighthouse 12.8.2, mobile, simulated throttling (150 ms RTT, 1.6 Mbps, CPU ×4); median run by performance score\n',
  );
  console.log(pagesTable(results));
  for (const r of results) {
    const failed = r.median.failed;
    if (!failed.length) continue;
    console.log(`\n${r.page} (median run): audits below target`);
    for (const f of failed)
      console.log(
        `  [${f.category}] ${f.id} (${f.score}): ${f.title}${f.detail ? ` — ${f.detail}` : ''}`,
      );
  }
  console.log('');
  console.log(table(figures));
  const file = path.join(resultsDir, `lighthouse-${stamp}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        stamp,
        lighthouse: '12.8.2',
        chromium: CHROMIUM,
        settings: { formFactor: 'mobile', throttlingMethod: 'simulate' },
        loadAverage: { start: loadStart, end: loadAverage() },
        seconds: Math.round((Date.now() - started) / 1000),
        targets: TARGETS,
        figures,
        results,
      },
      null,
      2,
    ),
  );
  console.log(
    `\nwrote ${path.relative(ROOT, file)}${lhrPrefix ? ` and the reports ${path.relative(ROOT, lhrPrefix)}-*.json` : ''}`,
  );
  const missed = figures.filter((f) => f.pass === false);
  if (missed.length) {
    console.log(`${missed.length} target(s) missed: ${missed.map((f) => f.figure).join(', ')}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(2);
  });
}
