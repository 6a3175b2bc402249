import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));
const fixturesModule = fileURLToPath(new URL('./internal/fixtures/index.js', import.meta.url));
const testRuntimeModule = fileURLToPath(
  new URL('./internal/test-runtime/index.js', import.meta.url),
);

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of sibling packages, so a change is tested
    // without a rebuild. Tests of the CLI binary run the built output instead.
    alias: [
      { find: /^@compaction\/fixtures$/, replacement: fixturesModule },
      { find: /^@compaction\/test-runtime$/, replacement: testRuntimeModule },
      {
        find: /^@compaction\/([a-z-]+)\/test$/,
        replacement: `${packagesDir}$1/src/test/index.ts`,
      },
      {
        find: /^@compaction\/([a-z-]+)\/([a-z-]+)$/,
        replacement: `${packagesDir}$1/src/$2/index.ts`,
      },
      { find: /^@compaction\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/index.ts` },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'bench/**/*.test.ts',
      'internal/*/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
