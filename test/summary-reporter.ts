// Prints the run's closing lines for CI logs and for a person reading the end of `npm test`, whatever
// the default reporter's formatting: "vitest: N passed, N failed, N skipped", then which clients the
// cross-client tests built and ran, and, loudly, each client they could not test, why, and the fix
// (test/clients.ts decides both lists; a green run without bee-go says so instead of hiding it), and
// whether the net tests had real Bee nodes (test/bee/real-bee-archives.ts) or what they skipped.
import type { Reporter, TestModule } from 'vitest/node';
import { BEE_RELEASES, realBeeAvailability } from './bee/real-bee-archives.js';
import { testClients, type MissingClient, type TestClient } from './clients.js';

const LABEL = { js: 'bee-js', go: 'bee-go', rs: 'bee-rs' } as const;

/** The closing lines about clients (exported for its test). */
export function clientLines(clients: { tested: readonly TestClient[]; missing: readonly MissingClient[] }): string[] {
  const tested = clients.tested.map((c) => `${LABEL[c.runner]} (${c.source === 'registry' ? 'registry release' : `checkout ${c.source}`})`);
  return [`clients tested: ${tested.join(', ') || 'none'}`, ...clients.missing.map((m) => `!!! ${LABEL[m.runner]} NOT TESTED: ${m.reason}. Fix: ${m.fix}`)];
}

/** The closing line about real Bee nodes (exported for its test). */
export function realBeeLine(a: ReturnType<typeof realBeeAvailability>): string {
  if (a.ok) return `real Bee nodes: ${BEE_RELEASES.map((r) => `v${r}`).join(', ')} from ../shared/bee`;
  return `!!! REAL BEE NODES NOT TESTED: the net tests against real nodes skipped: ${a.reason}. Fix: ${a.fix}`;
}

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
    process.stdout.write(
      `\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n${[...clientLines(testClients()), realBeeLine(realBeeAvailability())].join('\n')}\n`,
    );
  }
}
