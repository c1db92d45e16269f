// The instruction-count verdicts of the A/B report's rows (one row per case x param label): each
// CPU row the three counting runs measured is judged (instructions.ts), then joined onto the
// wall-time rows or, when only instructions were measured, made into rows of its own.
import type { Spec } from '../spec/schema.js';
import { judgeInstructions, type InstructionOptions } from './instructions.js';
import { untimedRow, type AbRow } from './row.js';

/** One CPU row's counts from the three counting runs (src/run/count-ab.ts), null where a run has none. */
export interface CountedRow {
  caseId: string;
  label: string;
  base: number[] | null;
  baseAgain: number[] | null;
  head: number[] | null;
  /** Why a run has no counts for this row (skipped, not counted in ...). */
  note?: string;
  /** The runner skipped the row (a client without the API): a skipped row, not a failed one. */
  skipped?: boolean;
}

const key = (caseId: string, label: string) => `${caseId}\u0000${label}`;

function instructionFields(r: CountedRow, o: InstructionOptions): Pick<AbRow, 'instructions' | 'instructionsNote'> {
  if (r.base && r.baseAgain && r.head) return { instructions: judgeInstructions(r.base, r.baseAgain, r.head, o) };
  return { instructionsNote: r.note ?? 'not counted' };
}

export function attachInstructionRows(rows: readonly AbRow[], counted: readonly CountedRow[], o: InstructionOptions): AbRow[] {
  const byKey = new Map(counted.map((r) => [key(r.caseId, r.label), r]));
  return rows.map((row) => {
    const c = byKey.get(key(row.caseId, row.label));
    return c ? { ...row, ...instructionFields(c, o) } : row;
  });
}

export function rowsFromCounts(counted: readonly CountedRow[], spec: Spec, o: InstructionOptions): AbRow[] {
  return counted.map((r) => {
    const fields = instructionFields(r, o);
    return { ...untimedRow(r, spec, fields.instructions !== undefined, fields.instructionsNote, {}), ...fields };
  });
}
