import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'sync-server',
          root: 'sync-server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        // Unit tests of the PWA; its browser tests run with pwa/vitest.e2e.config.ts.
        test: {
          name: 'pwa',
          root: 'pwa',
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          exclude: ['src/**/*.fault.test.ts'],
          environment: 'happy-dom',
        },
      },
      {
        // The PWA's sync code (fake-indexeddb, Node's fetch) against the real server in its own
        // process, which the tests kill and restart (sync-server/test/server-control.ts).
        test: {
          name: 'sync-fault',
          root: 'pwa',
          include: ['src/**/*.fault.test.ts'],
          environment: 'node',
          globalSetup: ['../sync-server/test/server-control.ts'],
          // Above the property run's own time limit (420 s) plus one run that began just before it.
          testTimeout: 900_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
