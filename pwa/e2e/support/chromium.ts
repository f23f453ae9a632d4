/**
 * Debian's Chromium (no browser download is possible here) and the flags it is launched with: by
 * the browser tests (playwright-core) and by the benches (bench/device, bench/pwa-lighthouse).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
