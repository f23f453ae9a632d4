/**
 * The app's own emoji font (docs/pwa.md, "Emoji"). pwa/fonts/pingme-emoji.woff2 holds every emoji
 * written in the app's sources (pwa/src, shared/src, the server's db layer with the default
 * prompts), cut out of Noto Color Emoji (@fontsource/noto-color-emoji, SIL OFL) with its colour
 * (COLRv1) layers, and pwa/fonts/pingme-emoji.json lists their code points. Both are made by
 * `npx tsx pwa/build/make-emoji-font.ts` (it needs fontTools: `apt-get install python3-fonttools
 * python3-brotli`; no npm subsetter keeps COLRv1) and committed; build/emoji-font.test.ts fails
 * when the sources show an emoji the font lacks.
 *
 * The build copies the font to a content-hashed name under assets/; the app imports
 * `virtual:emoji-font` for its URL and unicode-range and adds the face after its first frame
 * (src/emoji-font.ts), so the first download does not grow and the file is fetched only when an
 * emoji is on screen.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const VIRTUAL = 'virtual:emoji-font';
const RESOLVED = `\0${VIRTUAL}`;
/** Joiner and emoji presentation selector: needed inside sequences like ❤️ and 🕊️. */
const JOINERS = [0x200d, 0xfe0f];
const FONTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fonts');
export const EMOJI_FONT_FILE = join(FONTS, 'pingme-emoji.woff2');
export const EMOJI_LIST_FILE = join(FONTS, 'pingme-emoji.json');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** Every emoji code point in the app's sources (never ASCII: digits and # stay in the text font). */
export function appEmoji(root: string): number[] {
  const dirs = ['pwa/src', 'shared/src', 'sync-server/src/db']
    .map((d) => resolve(root, d))
    .filter((d) => existsSync(d));
  const points = new Set<number>(JOINERS);
  for (const file of dirs.flatMap(sourceFiles))
    for (const [ch] of readFileSync(file, 'utf8').matchAll(/\p{Extended_Pictographic}/gu))
      points.add(ch.codePointAt(0)!);
  return [...points].filter((p) => p > 0x7f).sort((a, b) => a - b);
}

/** The code points the committed font covers (pwa/fonts/pingme-emoji.json). */
export function fontEmoji(): number[] {
  return (JSON.parse(readFileSync(EMOJI_LIST_FILE, 'utf8')) as { codePoints: number[] }).codePoints;
}

export function emojiFont(): Plugin {
  const source = readFileSync(EMOJI_FONT_FILE);
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 10);
  const fileName = `assets/pingme-emoji-${hash}.woff2`;
  const range = fontEmoji()
    .map((p) => `U+${p.toString(16)}`)
    .join(',');
  let building = false;
  return {
    name: 'pingme-emoji-font',
    configResolved(config) {
      building = config.command === 'build';
    },
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      if (building) this.emitFile({ type: 'asset', fileName, source });
      return (
        `export const EMOJI_FONT_URL = ${JSON.stringify(`/${fileName}`)};\n` +
        `export const EMOJI_UNICODE_RANGE = ${JSON.stringify(range)};\n`
      );
    },
    configureServer(server) {
      // `vite dev`: the same file at the same path.
      server.middlewares.use((req, res, next) => {
        if (req.url !== `/${fileName}`) return next();
        res.setHeader('Content-Type', 'font/woff2');
        res.end(source);
      });
    },
  };
}
