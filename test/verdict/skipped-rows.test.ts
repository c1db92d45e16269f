// A row the runner skipped (a client without the API) stays skipped when counts or allocations
// are the only evidence: it is not a failed row, which would fail the run under fail-on.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/spec/load.js';
import { attachAllocationRows, countRows, rowsFromCounts, INSTRUCTION_DEFAULTS, ALLOCATION_DEFAULTS } from '../../src/verdict/index.js';

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

describe('rows only counts or allocations saw', () => {
  it('are skipped where the runner skipped them, failed where a run lost them', () => {
    const counted = rowsFromCounts([SKIPPED, LOST], spec, INSTRUCTION_DEFAULTS);
    const allocated = attachAllocationRows(
      [],
      [
        { ...SKIPPED, work: {} },
        { ...LOST, work: {} },
      ],
      spec,
      ALLOCATION_DEFAULTS,
    );
    for (const rows of [counted, allocated]) {
      expect(rows.map((r) => [r.caseId, r.status])).toEqual([
        ['cpu.bmt.encrypted-file-root', 'skipped'],
        ['cpu.bmt.file-root', 'failed'],
      ]);
      expect(countRows(rows)).toMatchObject({ skipped: 1, failed: 1 });
    }
  });
});
