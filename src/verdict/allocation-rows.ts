// The allocation verdicts of the A/B report's CPU rows, joined like the count verdicts
// (instruction-rows.ts): onto the rows already there, or as rows of their own when nothing else
// was measured.
import type { CaseResult, Spec } from '../spec/schema.js';
import { judgeAllocations, type AllocationFigures, type AllocationOptions } from './allocations.js';
import { untimedRow, type AbRow } from './row.js';

/** One CPU row's figures from the three allocation runs (src/run/alloc-ab.ts), null where a run has none. */
export interface AllocatedRow {
  caseId: string;
  label: string;
  base: AllocationFigures | null;
  baseAgain: AllocationFigures | null;
  head: AllocationFigures | null;
  /** Work per iteration, for the per-op figures of rows only the allocation runs saw. */
  work: CaseResult['work'];
  note?: string;
  /** The runner skipped the row (a client without the API): a skipped row, not a failed one. */
  skipped?: boolean;
}

const key = (caseId: string, label: string) => `${caseId}\u0000${label}`;

function allocationFields(r: AllocatedRow, o: AllocationOptions): Pick<AbRow, 'allocations' | 'allocationsNote'> {
  if (r.base && r.baseAgain && r.head) return { allocations: judgeAllocations(r.base, r.baseAgain, r.head, o) };
  return { allocationsNote: r.note ?? 'not measured' };
}

/** Rows already there get their allocation verdict; rows only the allocation runs saw are added. */
export function attachAllocationRows(rows: readonly AbRow[], measured: readonly AllocatedRow[], spec: Spec, o: AllocationOptions): AbRow[] {
  const byKey = new Map(measured.map((r) => [key(r.caseId, r.label), r]));
  const known = new Set(rows.map((r) => key(r.caseId, r.label)));
  const added = measured
    .filter((r) => !known.has(key(r.caseId, r.label)))
    .map((r): AbRow => {
      const fields = allocationFields(r, o);
      return { ...untimedRow(r, spec, fields.allocations !== undefined, fields.allocationsNote, r.work), ...fields };
    });
  return [
    ...rows.map((row) => {
      const m = byKey.get(key(row.caseId, row.label));
      return m ? { ...row, ...allocationFields(m, o) } : row;
    }),
    ...added,
  ];
}
