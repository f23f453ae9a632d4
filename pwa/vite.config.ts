/**
 * Vite build of the PWA. The service worker (src/sw.ts) is compiled by vite-plugin-pwa in
 * injectManifest mode; the icons are generated from public/icon.svg at build time.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { minimal2023Preset } from '@vite-pwa/assets-generator/config';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { emojiFont } from './build/emoji-font.js';

/** Brand colours, also used by src/styles/theme.css. */
const THEME_COLOR = '#c2410c';
const BACKGROUND_COLOR = '#fff8f3';
/** `npm run dev -w pwa` proxies the API to a sync server started with `npm run dev -w sync-server`. */
const SYNC_SERVER = process.env.PINGME_SERVER ?? 'http://localhost:8080';
/**
 * What every start runs (docs/pwa.md, "Bundle size"); zod must share a chunk with csp.ts. Of
 * @tanstack only the router and its store: the list virtualiser rides with the screens using it.
 */
const VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](?!react-virtual|virtual-core)[\w-]+|dexie|dexie-react-hooks|zustand|zod|use-sync-external-store)[\\/]|[\\/]shared[\\/]src[\\/]csp\.ts$/;

/**
 * What a signed-in start on Home fetches besides the first download: Home's sections and dialogs,
 * the shell's bottom navigation and banner. With the Radix chunk below, two requests instead of
 * about 25 over the server's HTTP/1.1 (docs/performance.md, "Lighthouse"). The sync host stays
 * apart (a visitor's landing page fetches it after its first frame, with the toasts).
 */
const SIGNED_IN_START =
  /[\\/]pwa[\\/]src[\\/](screens[\\/]HomeScreen\.tsx|components[\\/](home|pings|tour)[\\/]|components[\\/](BottomNav|FriendRequestsBanner|Dialog|TextField|Avatar|Tooltip|Switch)\.tsx|dialogs[\\/](?!AssignPrompt|CreatePrompt|DeletePrompt|SendFromLibrary|usePickedFriends)|writes[\\/](pending|pings)\.ts|hooks[\\/]|notifications[\\/]|db[\\/]queries)[\\/]?/;
/** Radix and its helpers: one chunk, shared by the toasts (every screen) and the dialogs. */
const RADIX =
  /[\\/]node_modules[\\/](@radix-ui|@floating-ui|react-remove-scroll|react-remove-scroll-bar|aria-hidden|use-sidecar|use-callback-ref|react-style-singleton|get-nonce|detect-node-es|tslib)[\\/]/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build (after the service worker
 * is built), so the server sends them compressed: koa-send answers `x.js.br` or `x.js.gz` for
 * `x.js` when the browser accepts that encoding and the file exists. The service worker's precache
 * list ignores them (`globPatterns` names no `.br`/`.gz`). Source maps stay uncompressed on disk:
 * browsers fetch them only with DevTools open.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pingme-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
            e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
          );
        for (const file of walk(outDir)) {
          if (!/\.(js|css|html|svg|webmanifest|json|ico)$/.test(file)) continue;
          const bytes = readFileSync(file);
          if (bytes.length < 1024) continue;
          const br = brotliCompressSync(bytes, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 11,
              [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          });
          const gz = gzipSync(bytes, { level: 9 });
          if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
          if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}

/**
 * Writes `landing.html`: the built index.html with the visitor's Landing page already inside
 * #root (src/prerender/landing.tsx, rendered here with react-dom/server), so a first visit paints
 * before the first download has run. The server answers `GET /` with it when the request has no
 * session cookie (sync-server/src/middleware/static.ts); the app then renders over it as usual.
 * No script is added (the CSP forbids inline ones). Runs before `precompress`, which makes its
 * `.br`/`.gz` copies; the service worker does not precache it (`globIgnores`).
 */
function prerenderLanding(): Plugin {
  let root = '';
  let outDir = 'dist';
  return {
    name: 'pingme-prerender-landing',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const server = await createServer({
          configFile: false,
          root,
          plugins: [react(), EMOJI_FONT],
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const mod = (await server.ssrLoadModule('/src/prerender/landing.tsx')) as {
            renderLanding: () => Promise<string>;
          };
          // React hoists the images' preload hints into the markup: the page needs none.
          const markup = (await mod.renderLanding()).replace(/^(<link [^>]*>)+/, '');
          const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
          const empty = '<div id="root"></div>';
          if (!shell.includes(empty)) throw new Error('index.html has no empty #root');
          writeFileSync(
            join(outDir, 'landing.html'),
            shell.replace(empty, `<div id="root">${markup}</div>`),
          );
        } finally {
          await server.close();
        }
      },
    },
  };
}

/** One instance: the build and the landing's prerender share the font made once. */
const EMOJI_FONT = emojiFont();

/** Shown in Settings › App; PINGME_VERSION names a build (the update test builds one). */
const APP_VERSION =
  process.env.PINGME_VERSION ||
  (
    JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(APP_VERSION) },
  plugins: [
    react(),
    EMOJI_FONT,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // Never swap versions under someone's half-typed message: the app asks first.
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'PingMe',
        short_name: 'PingMe',
        description: 'One tap. Real emotion. Stay connected.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME_COLOR,
        background_color: BACKGROUND_COLOR,
      },
      pwaAssets: {
        image: 'public/icon.svg',
        overrideManifestIcons: true,
        includeHtmlHeadLinks: true,
        preset: {
          ...minimal2023Preset,
          maskable: { sizes: [512], padding: 0.3, resizeOptions: { background: '#e0492a' } },
          apple: { sizes: [180], padding: 0.3, resizeOptions: { background: '#e0492a' } },
        },
      },
      injectManifest: {
        rollupFormat: 'iife',
        // woff2: the emoji font, so emoji show offline too (fetched by the worker, not the page).
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // Visitors' first page only (prerenderLanding): navigations offline get index.html.
        globIgnores: ['**/node_modules/**/*', 'landing.html'],
      },
      devOptions: { enabled: false },
    }),
    prerenderLanding(),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': SYNC_SERVER,
      '/ws': { target: SYNC_SERVER.replace(/^http/, 'ws'), ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // React, the router, Dexie and zod: ~145 kB gzipped, precached once.
    chunkSizeWarningLimit: 500,
    rolldownOptions: {
      output: {
        // The libraries every start needs change less often than the app: a separate chunk stays
        // cached across releases. Other packages (most of Radix) go where rolldown puts them: into
        // the entry when a first screen needs them, else into the lazy screens' chunks.
        // shared/src/csp.ts rides in the vendor chunk, which runs before the entry's own code.
        // The app's own modules of the first download join the entry: 3 initial files instead of
        // 10 (seven of them under 3 kB), each a request of its own over the server's HTTP/1.1.
        codeSplitting: {
          groups: [
            { name: 'vendor', test: VENDOR },
            { name: 'app', tags: ['$initial'] },
            { name: 'radix', test: RADIX },
            { name: 'signed-in', test: SIGNED_IN_START },
          ],
        },
      },
    },
  },
});
