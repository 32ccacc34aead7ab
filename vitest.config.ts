import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: property tests are CPU-bound, more workers only thrash.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
