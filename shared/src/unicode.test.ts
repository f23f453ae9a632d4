import { describe, expect, it } from 'vitest';
import { BIDI_CONTROLS, cleanName, hasVisibleCharacter } from './unicode';

describe('cleanName', () => {
  it('normalises to NFC: a decomposed é becomes the single code point', () => {
    expect(cleanName('Rene\u0301e')).toBe('Ren\u00e9e');
    expect(cleanName('Ren\u00e9e')).toBe('Ren\u00e9e');
  });

  it.each([
    ['U+202E RIGHT-TO-LEFT OVERRIDE', 'Eve\u202Egnp.exe', 'Evegnp.exe'],
    ['U+202A-U+202D embeddings and overrides', '\u202Aa\u202Bb\u202Cc\u202Dd', 'abcd'],
    ['U+2066-U+2069 isolates', '\u2066x\u2067y\u2068z\u2069', 'xyz'],
    ['U+200E/U+200F marks', '\u200Eleft\u200Fright', 'leftright'],
    ['U+061C ARABIC LETTER MARK', 'س\u061Cلمى', 'سلمى'],
  ])('strips %s', (_name, input, output) => {
    expect(cleanName(input)).toBe(output);
    expect(cleanName(input)).not.toMatch(BIDI_CONTROLS);
  });

  it('keeps right-to-left letters themselves', () => {
    expect(cleanName('שרה')).toBe('שרה');
  });
});

describe('hasVisibleCharacter', () => {
  it.each([
    ['U+200B ZERO WIDTH SPACE', '\u200B'],
    ['U+2060 WORD JOINER', '\u2060\u2060'],
    ['U+FEFF BYTE ORDER MARK', '\uFEFF'],
    ['U+200C/U+200D joiners', '\u200C\u200D'],
    ['combining marks alone', '\u0301\u0308'],
    ['U+3164 HANGUL FILLER', '\u3164'],
    ['U+2800 BRAILLE PATTERN BLANK', '\u2800'],
    ['U+00A0 and U+3000 spaces', '\u00A0\u3000'],
    ['a variation selector', '\uFE0F'],
    ['U+00AD SOFT HYPHEN', '\u00AD'],
  ])('is false for %s', (_name, text) => {
    expect(hasVisibleCharacter(text)).toBe(false);
  });

  it.each([['Ada'], ['é'], ['\u200BZoë'], ['李'], ['😊'], ['ß'], ['O’Neil']])(
    'is true for %s',
    (text) => {
      expect(hasVisibleCharacter(text)).toBe(true);
    },
  );
});
