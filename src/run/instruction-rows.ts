// The count verdicts joined onto the A/B report's rows (one row per case x param label), and,
// when only instructions were measured, the rows made from the counts alone.
import type { AbRow } from '../verdict/index.js';
import type { InstructionAbOutcome, InstructionRow } from './count-ab.js';
import type { Spec } from '../spec/schema.js';

const key = (caseId: string, label: string) => `${caseId}\u0000${label}`;

function instructionFields(r: InstructionRow): Pick<AbRow, 'instructions' | 'instructionsNote'> {
  return r.verdict ? { instructions: r.verdict } : { instructionsNote: r.note ?? 'not counted' };
}

export function attachInstructionRows(rows: readonly AbRow[], counts: InstructionAbOutcome): AbRow[] {
  const byKey = new Map(counts.rows.map((r) => [key(r.caseId, r.label), r]));
  return rows.map((row) => {
    const c = byKey.get(key(row.caseId, row.label));
    return c ? { ...row, ...instructionFields(c) } : row;
  });
}

export function rowsFromCounts(counts: InstructionAbOutcome, spec: Spec): AbRow[] {
  const caseOf = new Map(spec.cases.map((c) => [c.id, c]));
  return counts.rows.map((r) => {
    const c = caseOf.get(r.caseId);
    return {
      caseId: r.caseId, label: r.label, group: c?.group ?? 'unknown', kind: c?.kind ?? 'cpu',
      status: r.verdict ? 'ok' : 'failed', work: {}, rounds: 0,
      ...(r.verdict ? {} : { note: r.note }),
      ...instructionFields(r),
    };
  });
}
