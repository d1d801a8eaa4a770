import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages export their TypeScript sources under the "development" condition (compiled dist/ is the
  // default, for production): tests always run the sources, whatever NODE_ENV says.
  ssr: { resolve: { conditions: ['development', 'module', 'node'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
