// A row the runner skipped (a client without the API) stays skipped when counts or allocations
// are the only evidence: it is not a failed row, which would fail the run under fail-on.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/spec/load.js';
import { deterministicEvidence } from '../../src/evidence/index.js';
import type { DeterministicKind } from '../../src/spec/measure.js';
import { attachStepRows, countRows } from '../../src/verdict/index.js';

const { spec } = loadSpec(join(process.cwd(), 'spec', 'bench-spec.json'));
const SKIPPED = {
  caseId: 'cpu.bmt.encrypted-file-root',
  label: 'quick',
  base: null,
  baseAgain: null,
  head: null,
  skipped: true,
  note: 'skipped: no offline encrypting chunker',
};
const LOST = { caseId: 'cpu.bmt.file-root', label: 'quick', base: null, baseAgain: null, head: null, note: 'not measured in head' };

/** The rows of one deterministic evidence alone, by its own rule at its default threshold. */
function rowsOf<K extends DeterministicKind>(kind: K) {
  const ev = deterministicEvidence(kind);
  const rule = { kind, judge: ev.judge(ev.defaultThreshold), missing: `not ${ev.verb}` };
  return attachStepRows(
    [],
    [
      { ...SKIPPED, work: {} },
      { ...LOST, work: {} },
    ],
    spec,
    rule,
  );
}

describe('rows only counts or allocations saw', () => {
  it('are skipped where the runner skipped them, failed where a run lost them', () => {
    for (const rows of [rowsOf('instructions'), rowsOf('allocations')]) {
      expect(rows.map((r) => [r.caseId, r.status])).toEqual([
        ['cpu.bmt.encrypted-file-root', 'skipped'],
        ['cpu.bmt.file-root', 'failed'],
      ]);
      expect(countRows(rows)).toMatchObject({ skipped: 1, failed: 1 });
    }
  });
});
