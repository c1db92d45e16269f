// The log annotations of an A/B: one warning line per regressed row, naming every evidence that
// flagged it (wall time, instruction counts), so a regression seen in counts alone is annotated too.
import { flaggedRows, type AbRow, type Evidence } from '../verdict/index.js';
import { formatChange, formatP } from './units.js';

function evidenceText(r: AbRow, by: Evidence): string {
  if (by === 'wall time') return `wall time ${formatChange(r.ratio ?? 1)} (q ${formatP(r.q ?? 1)})`;
  return `instructions ${formatChange(r.instructions!.ratio)} (A/A spread ${(r.instructions!.spread * 100).toFixed(3)}%)`;
}

export function regressionAnnotations(rows: readonly AbRow[]): string[] {
  return flaggedRows(rows, 'regression').map(({ row, by }) => `regression: ${row.caseId} [${row.label}]: ${by.map((e) => evidenceText(row, e)).join(', ')}`);
}
