import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a two-core machine, where most
    // files wait on a server process, a database or a socket and leave the cores 40 % idle.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'sync-server',
          root: 'sync-server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.pg.test.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        // The same route, authorization-matrix and fuzz tests on PostgreSQL (one throw-away
        // cluster for the run, test/postgres-setup.ts), and the tests of several nodes on one
        // database (*.pg.test.ts), which run here only.
        test: {
          name: 'sync-server-pg',
          root: 'sync-server',
          include: [
            'src/routes/**/*.test.ts',
            'test/authorization-matrix.test.ts',
            'test/fuzz.test.ts',
            '**/*.pg.test.ts',
          ],
          env: { PINGME_TEST_BACKEND: 'postgres' },
          globalSetup: ['test/postgres-setup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
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
      {
        // The same property-based convergence test against two server processes on one
        // PostgreSQL database behind a round-robin balancer (sync-server/test/
        // server-control-cluster.ts): kills take one node down at a time.
        test: {
          name: 'sync-fault-pg',
          root: 'pwa',
          include: ['src/**/*.fault.test.ts'],
          environment: 'node',
          globalSetup: ['../sync-server/test/server-control-cluster.ts'],
          testTimeout: 900_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
