/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary, so CI logs
 * state the test count in a runner-independent form.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0, failed = 0, skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    // Printed after the default reporter's output.
    setTimeout(() => console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`), 0);
  }
}
