/**
 * The PWA's download size (issue 8): how much JavaScript and CSS a first visit must fetch before
 * the app can start, gzipped and brotli-compressed, against the target of < 170 kB gzipped JS.
 *
 *   npm run bench:pwa-size                      # builds pwa/ into <tmp>/pwa-size, then measures
 *   npm run bench:pwa-size -- --dist DIR        # measures an existing build (no build)
 *   npm run bench:pwa-size -- --out DIR         # builds into DIR instead (then measures it)
 *
 * "Initial" = the entry script(s) of index.html, every `modulepreload` link there, and whatever
 * those chunks import statically (followed transitively; `import()` is lazy and not counted).
 * CSS: the stylesheets index.html links. Lazy chunks and the service worker are listed apart.
 * Sizes are in kB = 1000 bytes, as Vite prints them. Writes bench/results/pwa-size-<time>.json.
 * Exits 1 when the initial JS is over the target.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildPwa } from './lib/pwa-build';
import type { Figure } from './lib/report';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Issue 8: initial JavaScript under 170 kB gzipped. */
export const TARGET_GZIP_KB = 170;

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

interface FileRow extends Sizes {
  file: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function sizes(bytes: Buffer): Sizes {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  };
}

/** `src`/`href` of the tags in index.html that match `tag` and carry `attr="value"`. */
function htmlRefs(html: string, tag: RegExp): string[] {
  return [...html.matchAll(tag)].map((m) => m[1]!);
}

/** Static imports (and re-exports) of a built ES module; `import("...")` is left out. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    // import x from"./a.js"  import{a as b}from"./a.js"  import*as n from"./a.js"  export{a}from"./a.js"
    /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s*[\w$]+|\{[^}]*\})?\s*from\s*["']([^"']+)["']/g,
    // import"./a.js" (side effect only)
    /(?:^|[^\w$.])import\s*["']([^"']+)["']/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.add(m[1]!);
  return [...found].filter((s) => s.startsWith('.') || s.startsWith('/'));
}

function walk(dir: string, ext: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p, ext, base);
    return e.name.endsWith(ext) ? [relative(base, p).split('\\').join('/')] : [];
  });
}

export function measure(dist: string) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const toFile = (url: string) => url.replace(/^\//, '');
  const entries = htmlRefs(html, /<script[^>]*type="module"[^>]*src="([^"]+)"/g).map(toFile);
  const preloads = htmlRefs(html, /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g).map(toFile);
  const css = htmlRefs(html, /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g).map(toFile);

  // The entry's static import graph, plus what index.html preloads.
  const initial = new Set<string>();
  const queue = [...entries, ...preloads];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (initial.has(file)) continue;
    initial.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const spec of staticImports(code)) {
      queue.push(
        spec.startsWith('/')
          ? toFile(spec)
          : posix.normalize(posix.join(posix.dirname(file), spec)),
      );
    }
  }

  const row = (file: string): FileRow => ({ file, ...sizes(readFileSync(join(dist, file))) });
  const sum = (rows: FileRow[]): Sizes => ({
    raw: rows.reduce((a, r) => a + r.raw, 0),
    gzip: rows.reduce((a, r) => a + r.gzip, 0),
    brotli: rows.reduce((a, r) => a + r.brotli, 0),
  });

  const allJs = walk(dist, '.js').filter((f) => f !== 'sw.js' && !f.startsWith('workbox-'));
  const initialJs = [...initial].map(row).sort((a, b) => b.gzip - a.gzip);
  const lazyJs = allJs
    .filter((f) => !initial.has(f))
    .map(row)
    .sort((a, b) => b.gzip - a.gzip);
  const initialCss = css.map(row);
  const lazyCss = walk(dist, '.css')
    .filter((f) => !css.includes(f))
    .map(row);
  const sw = existsSync(join(dist, 'sw.js')) ? row('sw.js') : undefined;

  return {
    entries,
    initialJs,
    initialJsTotal: sum(initialJs),
    initialCss,
    initialCssTotal: sum(initialCss),
    lazyJs,
    lazyJsTotal: sum(lazyJs),
    lazyCss,
    lazyCssTotal: sum(lazyCss),
    sw,
  };
}

const kb = (n: number) => (n / 1000).toFixed(2);

function print(title: string, rows: FileRow[], total?: Sizes): void {
  const head = ['file', 'raw kB', 'gzip kB', 'brotli kB'];
  const body = rows.map((r) => [r.file, kb(r.raw), kb(r.gzip), kb(r.brotli)]);
  if (total) body.push(['= total', kb(total.raw), kb(total.gzip), kb(total.brotli)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`${title}\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of body) console.log(line(r));
  console.log('');
}

function main(): void {
  let dist = arg('--dist');
  if (dist) {
    dist = resolve(dist);
  } else {
    dist = resolve(arg('--out') ?? join(tmpdir(), 'pwa-size'));
    buildPwa((line) => console.log(`${line}\n`), dist);
  }
  const m = measure(dist);

  print(
    'Initial JavaScript (index.html entry + modulepreload + static imports)',
    m.initialJs,
    m.initialJsTotal,
  );
  print('Initial CSS (index.html stylesheets)', m.initialCss, m.initialCssTotal);
  print(
    `Lazy JavaScript (${m.lazyJs.length} chunks, loaded on first visit of a screen; precached by the service worker)`,
    m.lazyJs.slice(0, 12),
    m.lazyJsTotal,
  );
  if (m.lazyCss.length > 0) print('Lazy CSS', m.lazyCss, m.lazyCssTotal);
  if (m.sw) print('Service worker', [m.sw]);

  const gzipKb = m.initialJsTotal.gzip / 1000;
  const pass = gzipKb < TARGET_GZIP_KB;
  console.log(
    `initial JS ${gzipKb.toFixed(2)} kB gzipped (${kb(m.initialJsTotal.brotli)} kB brotli), ` +
      `target < ${TARGET_GZIP_KB} kB: ${pass ? 'pass' : 'FAIL'}`,
  );

  const at = new Date().toISOString();
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `pwa-size-${at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ at, dist, targetGzipKb: TARGET_GZIP_KB, pass, ...m }, null, 2)}\n`,
  );
  console.log(`wrote ${relative(ROOT, file)}`);
  if (!pass) process.exitCode = 1;
}

/** For `npm run bench`: the download sizes of a built PWA as figures. */
export function sizeFigures(dist: string): Figure[] {
  const m = measure(dist);
  const gzipKb = m.initialJsTotal.gzip / 1000;
  const figure = (name: string, bytes: number): Figure => ({
    bench: '5',
    figure: name,
    value: Math.round(bytes / 10) / 100,
    unit: 'kB',
    target: '',
  });
  return [
    {
      bench: '5',
      figure: 'initial JS, gzip',
      value: Math.round(gzipKb * 100) / 100,
      unit: 'kB',
      target: `< ${TARGET_GZIP_KB} kB`,
      pass: gzipKb < TARGET_GZIP_KB,
    },
    figure('initial JS, brotli', m.initialJsTotal.brotli),
    figure('initial CSS, gzip', m.initialCssTotal.gzip),
    figure('initial CSS, brotli', m.initialCssTotal.brotli),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
