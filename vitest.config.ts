import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // Runner tests time real work on 2 cores; running files in parallel would distort them.
    fileParallelism: false,
    reporters: ['default', './test/summary-reporter.ts'],
    // A temporary folder for the real Bee binaries the net tests unpack (test/bee/real-node.ts).
    globalSetup: ['./test/bee/real-node-setup.ts'],
  },
});
