import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files that start whole clusters, kill processes or time a block interval: each wants the machine to itself, so
// they run one at a time after the rest.
const ALONE = [
  // Counts the memory arenas of child processes, which compete with the workers beside it for the cores.
  'packages/db/test/pglite-memory.test.ts',
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

// Most files spend their time waiting on PostgreSQL, NATS, child processes and the browser, so twice as many files as
// this machine's two cores run at once (TEST_WORKERS overrides it; ADR 253).
const WORKERS = Number(process.env.TEST_WORKERS ?? 4);

/**
 * Vitest's own order (longest or largest first, one project after the other) would hand every worker a browser file
 * at once: each drives Chromium against a platform of its own, the heaviest files there are. This spreads the browser
 * files evenly through the first two thirds of the shared files, so about half the workers drive a browser at any time
 * and the rest run the lighter files beside them, and none is left to start near the end.
 */
class SpreadBrowserFiles extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter((f) => f.project.name === 'browser');
    const rest = sorted.filter((f) => f.project.name !== 'browser');
    if (browser.length === 0) return sorted;
    const beside = rest.filter(
      (f) => f.project.config.sequence.groupOrder === browser[0]!.project.config.sequence.groupOrder,
    );
    const gap = Math.floor((beside.length * 2) / 3 / browser.length);
    const out: TestSpecification[] = [];
    for (const file of browser) out.push(file, ...rest.splice(0, gap));
    return [...out, ...rest];
  }
}

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "development" condition (compiled dist/ is the
  // default, for production): tests always run the sources, whatever NODE_ENV says.
  ssr: { resolve: { conditions: ['development', 'node'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    sequence: { sequencer: SpreadBrowserFiles },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ALL, exclude: ALONE, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      // The web app in headless Chromium against a cluster of its own per file; the app is built once first. Same
      // workers as `shared` (one group): the sequencer above spreads these files among the shared ones.
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
