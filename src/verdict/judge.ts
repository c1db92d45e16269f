// Paired rows -> verdict rows: the paired-rounds design per row, then Benjamini–Hochberg across
// every compared row of the report (docs/design.md, "Statistics and verdicts"). applyVerdicts is the write-back both
// designs share.
import type { Spec } from '../spec/schema.js';
import { median, pairedRounds, type Comparison } from '../stats/index.js';
import { WALL_KIND } from '../spec/measure.js';
import { withVerdicts, type AbRow, type PairedRow, type WallVerdict } from './row.js';
import { judgeWall, type WallOptions } from './wall.js';

export type JudgeOptions = WallOptions;

/** What a design computed for one row, by its index in the report's rows. */
export type Compared = { index: number } & Pick<Comparison, 'p' | 'ratio' | 'minP' | 'ci' | 'intervalHolds' | 'identical' | 'design'>;

/** The fields of a comparison the verdict uses. */
export const comparedFields = ({ p, ratio, minP, ci, intervalHolds, identical, design }: Comparison) => ({
  p,
  ratio,
  minP,
  ci,
  intervalHolds,
  identical,
  design,
});

/**
 * BH across the compared rows, then each row gets its wall-time verdict (base and head medians,
 * ratio, p, q, verdict, its interval when it is a true 95% interval, else none is shown), and the
 * verdict's note before any note it had.
 */
export function applyVerdicts(rows: AbRow[], baseMedians: ReadonlyMap<number, number>, compared: readonly Compared[], o: JudgeOptions): AbRow[] {
  for (const j of judgeWall(compared, o)) {
    const row = rows[j.index]!;
    const base = baseMedians.get(j.index)!;
    // The head figure is the base figure moved by the verdict's own estimate, so the two columns
    // and the change always agree: pooled head and base medians can land on different load modes
    // when the machine's load shifts between rounds, and then describe the load, not the code.
    const wall: WallVerdict = { baseMedianNs: base, headMedianNs: base * j.ratio, ratio: j.ratio, p: j.p, q: j.q, verdict: j.verdict };
    if (j.intervalHolds) {
      wall.ci = j.ci;
      wall.ciHalfWidth = (j.ci[1] - j.ci[0]) / 2;
    }
    row.evidence = { ...row.evidence, [WALL_KIND]: { judged: wall } };
    if (j.note) row.note = row.note ? `${j.note}; ${row.note}` : j.note;
  }
  return rows;
}

/** "10 of 12 rounds used (round 3: head killed ...; round 7: ...)", clipped to the first few reasons. */
function unusedNote(r: PairedRow): string {
  const shown = r.unused.slice(0, 3).join('; ');
  const more = r.unused.length > 3 ? `; ${r.unused.length - 3} more` : '';
  return `${r.logRatios.length} of ${r.roundsRun} rounds used (${shown}${more})`;
}

export const groupsOf = (spec: Spec) => new Map(spec.cases.map((c) => [c.id, c.group]));

/** The same-job A/B: Wilcoxon signed-rank and Hodges–Lehmann on each row's round log-ratios. */
export function judgePaired(rows: readonly PairedRow[], spec: Spec, o: JudgeOptions): AbRow[] {
  const groupOf = groupsOf(spec);
  const compared: Compared[] = [];
  const baseMedians = new Map<number, number>();
  const out: AbRow[] = rows.map((r, index) => {
    const row: AbRow = {
      caseId: r.caseId,
      label: r.label,
      group: groupOf.get(r.caseId) ?? 'unknown',
      kind: r.kind,
      status: r.status,
      work: r.work,
      rounds: r.base.length,
      evidence: {},
    };
    if (r.note) row.note = r.note;
    if (r.status !== 'ok') return row;
    if (r.unused.length > 0) {
      row.roundsRun = r.roundsRun;
      row.note = unusedNote(r);
    }
    baseMedians.set(index, median(r.base));
    compared.push({ index, ...comparedFields(pairedRounds.compareLogRatios(r.logRatios)) });
    return row;
  });
  return withVerdicts(applyVerdicts(out, baseMedians, compared, o));
}
