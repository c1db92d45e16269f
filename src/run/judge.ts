// Paired rows -> verdict rows: the paired-rounds design per row, then Benjamini–Hochberg across
// every compared row of the report (docs/design.md, "Statistics and verdicts").
import type { AbRow } from '../report/ab.js';
import type { Spec } from '../spec/schema.js';
import { median, pairedRounds, verdicts, type Comparison } from '../stats/index.js';
import type { PairedRow } from './pairs.js';

export interface JudgeOptions {
  alpha: number;
  threshold: number;
}

export function judgeRows(rows: readonly PairedRow[], spec: Spec, o: JudgeOptions): AbRow[] {
  const groupOf = new Map(spec.cases.map((c) => [c.id, c.group]));
  const compared: Array<{ index: number } & Pick<Comparison, 'p' | 'ratio' | 'minP' | 'ci'>> = [];
  const out: AbRow[] = rows.map((r, index) => {
    const row: AbRow = {
      caseId: r.caseId,
      label: r.label,
      group: groupOf.get(r.caseId) ?? 'unknown',
      kind: r.kind,
      status: r.status,
      work: r.work,
      rounds: r.base.length,
    };
    if (r.note) row.note = r.note;
    if (r.status !== 'ok') return row;
    row.baseMedianNs = median(r.base);
    row.headMedianNs = median(r.head);
    const c = pairedRounds.compareLogRatios(r.logRatios);
    compared.push({ index, p: c.p, ratio: c.ratio, minP: c.minP, ci: c.ci });
    return row;
  });
  for (const j of verdicts(compared, o)) {
    const row = out[j.index]!;
    row.ratio = j.ratio;
    row.ci = j.ci;
    row.p = j.p;
    row.q = j.q;
    row.verdict = j.verdict;
    if (j.note) row.note = j.note;
  }
  return out;
}
