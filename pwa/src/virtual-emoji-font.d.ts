/** The app's emoji font, made at build time by build/emoji-font.ts. */
declare module 'virtual:emoji-font' {
  export const EMOJI_FONT_URL: string;
  export const EMOJI_UNICODE_RANGE: string;
}
