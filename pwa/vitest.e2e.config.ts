/**
 * Browser tests: one built PWA (pwa/dist), one real sync server and one Chromium for the whole
 * run (e2e/global-setup.ts); each test opens its own browser context.
 * Run from the root after `npm run build -w pwa`:  npx vitest run --config pwa/vitest.e2e.config.ts
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'pwa-e2e',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A page on a loaded two-core CI machine may take seconds to show what a poll waits for.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // Two cores: two test files at a time share the one browser and the one server.
    maxWorkers: 2,
  },
});
