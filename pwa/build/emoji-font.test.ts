// @vitest-environment node
/** The committed emoji font covers every emoji the app's sources show (build/emoji-font.ts). */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMOJI_FONT_FILE, appEmoji, fontEmoji } from './emoji-font';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The known-table index of each entry of a WOFF2 table directory (63: a tag of its own). */
function woff2TableIndexes(font: Buffer): number[] {
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (;;) {
      const byte = font[at++]!;
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
  };
  const indexes: number[] = [];
  for (let i = font.readUInt16BE(12); i > 0; i--) {
    const flags = font[at++]!;
    const index = flags & 0x3f;
    if (index === 63) at += 4;
    base128(); // original length
    const transformed = index === 10 || index === 11 ? flags >> 6 === 0 : flags >> 6 !== 0;
    if (transformed) base128(); // transformed length
    indexes.push(index);
  }
  return indexes;
}

describe('the emoji font', () => {
  it('has every emoji of the sources (else: npx tsx pwa/build/make-emoji-font.ts)', () => {
    const missing = appEmoji(root).filter((p) => !fontEmoji().includes(p));
    expect(missing.map((p) => String.fromCodePoint(p))).toEqual([]);
  });

  it('is a woff2 file with colour layers (COLR and CPAL tables)', () => {
    const font = readFileSync(EMOJI_FONT_FILE);
    expect(font.subarray(0, 4).toString('latin1')).toBe('wOF2');
    // WOFF2's table directory names COLR and CPAL by their known-table indexes, 34 and 35.
    const tables = woff2TableIndexes(font);
    expect(tables).toContain(34);
    expect(tables).toContain(35);
  });
});
