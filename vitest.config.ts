import { defineConfig } from 'vitest/config';

// Files that start whole clusters, kill processes or time a block interval: each wants the machine to itself, so
// they run one at a time after the rest.
const ALONE = [
  'scripts/test/build-cache.e2e.test.ts',
  'scripts/test/cluster.e2e.test.ts',
  'scripts/test/compiled.e2e.test.ts',
  'scripts/test/embedded-restart.e2e.test.ts',
  'scripts/test/gateway-kill.test.ts',
  'scripts/test/ledger-failover.test.ts',
  'scripts/test/ledger-kill.test.ts',
  'scripts/test/start-stop.e2e.test.ts',
  'services/chain-miner/test/batch-interval.test.ts',
  'services/chain-miner/test/scale-out.test.ts',
  'services/transparency/test/export-memory.http.test.ts',
];

const ALL = [
  'apps/*/src/**/*.test.ts',
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'services/*/test/**/*.test.ts',
  'scripts/test/**/*.test.ts',
];

// Most files spend their time waiting on PostgreSQL, NATS and child processes, so more files than cores run at
// once (TEST_WORKERS overrides it).
const WORKERS = Number(process.env.TEST_WORKERS ?? 2);

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "development" condition (compiled dist/ is the
  // default, for production): tests always run the sources, whatever NODE_ENV says.
  ssr: { resolve: { conditions: ['development', 'node'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ALL, exclude: ALONE, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      // The web app in headless Chromium against a cluster of its own per file; the app is built once first.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['apps/*/test/**/*.test.ts'],
          globalSetup: ['apps/web/test/support/build-app.ts'],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
