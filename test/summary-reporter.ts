// Prints one plain closing line ("vitest: N passed, N failed, N skipped") that CI logs can be
// read by, whatever the default reporter's formatting.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      // A file that failed to load has no tests to count: it is one failure.
      if (m.errors().length > 0 && m.children.size === 0) failed++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        // A test skipped because its suite's hook failed did not pass: count it as failed.
        if (state === 'passed') passed++;
        else if (state === 'failed' || t.parent.state() === 'failed') failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
