// The log annotations of an A/B: one warning line per regressed row, naming every evidence that
// flagged it with its change (src/evidence/views.ts), so a regression seen in counts alone is annotated too.
import { VIEWS, figureOf, type EvidenceFigure, type EvidenceView } from '../../evidence/views.js';
import { flaggedRows, type AbRow } from '../../verdict/index.js';
import { formatP } from '../units.js';
import { changesText } from './ab-comment.js';

/** What the change was held against: wall time's q, a deterministic evidence's A/A spread. */
const basisText = (f: EvidenceFigure) => (f.q !== undefined ? `q ${formatP(f.q)}` : `A/A spread ${((f.spread ?? 0) * 100).toFixed(3)}%`);

export function regressionAnnotations(rows: readonly AbRow[]): string[] {
  return flaggedRows(rows, 'regression').map(
    ({ row, by }) =>
      `regression: ${row.caseId} [${row.label}]: ${by
        .map((k) => {
          const v = VIEWS[k];
          const f = figureOf(row, v as EvidenceView);
          return f ? `${v.label} ${changesText(f)} (${basisText(f)})` : v.label;
        })
        .join(', ')}`,
  );
}
