/**
 * Unicode rules for what people name themselves (docs/security.md, "Names and handles"):
 * text is stored in NFC, so one name has one spelling; bidirectional controls are removed from
 * names and handles, so a name cannot reverse the text around it wherever it is shown ("Sent to
 * {name}"); and a name must show at least one visible character, so nobody is called by
 * nothing (U+200B, U+2060, U+FEFF, a lone combining mark). Pure functions; the zod schemas in
 * schemas/ apply them, so the PWA's forms and every server route share them.
 */

/**
 * U+061C ARABIC LETTER MARK, U+200E/U+200F LRM/RLM, U+202A-U+202E embeddings and overrides,
 * U+2066-U+2069 isolates.
 */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * One visible character: anything but spaces, default-ignorable code points (zero-width
 * characters, fillers, variation selectors), marks (which only decorate another character),
 * control, format, private-use and unassigned code points, and the blank braille pattern.
 */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{C}\u2800]/u;

/** NFC, without bidirectional controls. */
export function cleanName(text: string): string {
  return text.normalize('NFC').replace(BIDI_CONTROLS, '');
}

/** Whether the text shows at least one character a reader can see. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text);
}
