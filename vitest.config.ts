import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The ceiling for every project; e2e stays one file at a time (fileParallelism: false).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/src/**/*.test.ts', 'examples/plugins/*/src/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 60_000,
          // Two files at once (vitest's default on 2 vCPUs is one): unit tests name their own namespaces,
          // ports and processes (run-scoped), so none asserts machine-wide state another file could change.
          maxWorkers: 2,
        },
      },
      {
        test: {
          // Type tests (*.test-d.ts) pin the plugin contract; vitest runs TypeScript's own checker over them.
          name: 'types',
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ['packages/*/src/**/*.test-d.ts'],
            tsconfig: 'tsconfig.test-d.json',
          },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // End-to-end runs use real namespaces and ports; run files one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
