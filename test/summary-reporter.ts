/**
 * Prints, after vitest's own summary, the slowest test files (so CI logs show where the suite's time goes and the
 * 20-minute budget can be watched) and one plain closing line, `N passed, N failed, N skipped`, so CI logs state the
 * test count in a runner-independent form.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the log lists. */
const SLOWEST = 15;

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
    const timed = testModules.map((m) => ({ file: m.moduleId, s: m.diagnostic().duration / 1000 }));
    timed.sort((a, b) => b.s - a.s);
    const total = timed.reduce((sum, t) => sum + t.s, 0);
    const cwd = process.cwd() + '/';
    const lines = timed.slice(0, SLOWEST).map((t) => `  ${t.s.toFixed(1).padStart(7)} s  ${t.file.startsWith(cwd) ? t.file.slice(cwd.length) : t.file}`);
    // Printed after the default reporter's output.
    setImmediate(() => {
      console.log(`\nslowest test files (of ${timed.length}; ${total.toFixed(0)} s of test time in all, over the workers):\n${lines.join('\n')}`);
      console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
    });
  }
}
