/**
 * Adds the app's emoji font (build/emoji-font.ts) as the face 'PingMe Emoji', first in the font
 * stack (styles/theme.css) for exactly the app's own emoji, so they look the same on every device
 * and are not empty boxes where the device has no colour emoji font. Added after the first frame:
 * the browser downloads the file only when one of those emoji is on screen.
 */
import { EMOJI_FONT_URL, EMOJI_UNICODE_RANGE } from 'virtual:emoji-font';

export function addEmojiFont(): void {
  if (!('fonts' in document) || typeof FontFace === 'undefined') return;
  const face = new FontFace('PingMe Emoji', `url(${EMOJI_FONT_URL}) format('woff2')`, {
    unicodeRange: EMOJI_UNICODE_RANGE,
    display: 'swap',
  });
  document.fonts.add(face);
}
