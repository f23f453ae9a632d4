/** The app's version, fixed at build time (vite.config.ts `define`; PINGME_VERSION overrides). */
declare const __APP_VERSION__: string;
