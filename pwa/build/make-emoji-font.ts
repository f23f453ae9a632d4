/**
 * Makes pwa/fonts/pingme-emoji.woff2 and .json (build/emoji-font.ts says why they are committed):
 * `npx tsx pwa/build/make-emoji-font.ts` after adding an emoji to the app. Needs fontTools
 * (`apt-get install python3-fonttools python3-brotli`).
 */
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMOJI_FONT_FILE, EMOJI_LIST_FILE, appEmoji } from './emoji-font';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const points = appEmoji(root);
const full = createRequire(import.meta.url).resolve(
  '@fontsource/noto-color-emoji/files/noto-color-emoji-emoji-400-normal.woff2',
);
const python = process.env.PYTHON ?? '/usr/bin/python3';
const res = spawnSync(
  python,
  [
    '-m',
    'fontTools.subset',
    full,
    `--unicodes=${points.map((p) => p.toString(16)).join(',')}`,
    '--flavor=woff2',
    // The SVG copies of the glyphs: Chromium, Firefox and Safari draw COLR.
    '--drop-tables+=SVG',
    `--output-file=${EMOJI_FONT_FILE}`,
  ],
  { stdio: 'inherit' },
);
if (res.status !== 0)
  throw new Error(
    `fontTools failed (${res.status}): apt-get install python3-fonttools python3-brotli`,
  );
writeFileSync(EMOJI_LIST_FILE, `${JSON.stringify({ codePoints: points })}\n`);
console.log(`${points.length} code points, ${statSync(EMOJI_FONT_FILE).size} bytes`);
