import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/src/**/*.test.ts', 'examples/plugins/*/src/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 60_000,
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
