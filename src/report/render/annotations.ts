// The log annotations of an A/B: one warning line per regressed row, naming every evidence that
// flagged it (wall time, instruction counts, allocations), so a regression seen in counts alone is annotated too.
import type { MeasureKind } from '../../spec/measure.js';
import { flaggedRows, type AbRow } from '../../verdict/index.js';
import { formatAmountChange, formatP, formatTimeChange } from '../units.js';

function evidenceText(r: AbRow, by: MeasureKind): string {
  if (by === 'wall') return `wall time ${formatTimeChange(r.ratio ?? 1)} (q ${formatP(r.q ?? 1)})`;
  const spread = (v: { spread: number }) => `A/A spread ${(v.spread * 100).toFixed(3)}%`;
  if (by === 'instructions') return `instructions ${formatAmountChange(r.instructions!.ratio)} (${spread(r.instructions!)})`;
  const a = r.allocations!;
  return `allocations ${formatAmountChange(a.bytes.ratio, 'bytes')}${a.allocs ? `, ${formatAmountChange(a.allocs.ratio, 'allocs')}` : ''} (${spread(a.bytes)})`;
}

export function regressionAnnotations(rows: readonly AbRow[]): string[] {
  return flaggedRows(rows, 'regression').map(({ row, by }) => `regression: ${row.caseId} [${row.label}]: ${by.map((e) => evidenceText(row, e)).join(', ')}`);
}
