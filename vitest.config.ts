import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // Runner tests time real work on 2 cores; running files in parallel would distort them.
    fileParallelism: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
