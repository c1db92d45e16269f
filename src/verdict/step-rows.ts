// The verdicts of a deterministic evidence (instructions, allocations, cycles) on the A/B report's rows,
// one row per case x param label: each CPU row the three runs (base, base again, head) measured is
// judged by the evidence's rule, then joined onto the rows already there (the wall-time rows, an
// earlier evidence's), or made into a row of its own when nothing else saw it.
import type { CaseResult, Spec } from '../spec/schema.js';
import type { DeterministicKind } from '../spec/measure.js';
import { untimedRow, type AbRow, type DeterministicVerdicts, type EvidenceVerdict } from './row.js';

/** One CPU row's figures from the three runs of a deterministic A/B, null where a run has none. */
export interface StepRow<F> {
  caseId: string;
  label: string;
  base: F | null;
  baseAgain: F | null;
  head: F | null;
  /** Work per iteration, for the per-op figures of rows only this evidence saw. */
  work: CaseResult['work'];
  /** Why a run has no figures for this row (skipped, not counted in ...). */
  note?: string;
  /** The runner skipped the row (a client without the API): a skipped row, not a failed one. */
  skipped?: boolean;
}

/** How one evidence's verdict lands on a row: its rule, the row fields it fills, the note without figures. */
export interface StepRule<K extends DeterministicKind, F> {
  kind: K;
  judge: (base: F, baseAgain: F, head: F) => DeterministicVerdicts[K];
  /** "not counted", "not measured": the note of a row with no figures and no reason. */
  missing: string;
}

const key = (caseId: string, label: string) => `${caseId}\u0000${label}`;

function entryOf<K extends DeterministicKind, F>(r: StepRow<F>, rule: StepRule<K, F>): EvidenceVerdict<K> {
  if (r.base && r.baseAgain && r.head) return { judged: rule.judge(r.base, r.baseAgain, r.head) } as EvidenceVerdict<K>;
  return { note: r.note ?? rule.missing };
}

/** Rows already there get the evidence's verdict (or why none); rows only this evidence saw are added. */
export function attachStepRows<K extends DeterministicKind, F>(
  rows: readonly AbRow[],
  measured: readonly StepRow<F>[],
  spec: Spec,
  rule: StepRule<K, F>,
): AbRow[] {
  const byKey = new Map(measured.map((r) => [key(r.caseId, r.label), r]));
  const known = new Set(rows.map((r) => key(r.caseId, r.label)));
  const added = measured
    .filter((r) => !known.has(key(r.caseId, r.label)))
    .map((r): AbRow => {
      const entry = entryOf(r, rule);
      return { ...untimedRow(r, spec, entry.judged !== undefined, entry.note, r.work), evidence: { [rule.kind]: entry } };
    });
  return [
    ...rows.map((row) => {
      const m = byKey.get(key(row.caseId, row.label));
      return m ? { ...row, evidence: { ...row.evidence, [rule.kind]: entryOf(m, rule) } } : row;
    }),
    ...added,
  ];
}
