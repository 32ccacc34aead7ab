import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // No time limits: correctness must not depend on how loaded the machine is (two cores shared by many jobs
    // made a fixed limit fail a passing suite). A hang is caught by the CI job's own limit.
    testTimeout: 0,
    hookTimeout: 0,
    // Two cores: property tests are CPU-bound, more workers only thrash.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
