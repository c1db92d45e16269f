// PRs that opt out of building the base are judged against the branch's history instead
// (docs/design.md, "Against the branch history"): per row, the head run's iterations against the medians of the last N runs
// of the base branch for the same runner, unpaired (Mann–Whitney, two-sample Hodges–Lehmann), then
// Benjamini–Hochberg across rows. Cross-machine: the report says so.
import type { Result, Spec } from '../spec/schema.js';
import { median, unpairedHistory } from '../stats/index.js';
import { applyVerdicts, comparedFields, groupsOf, type Compared, type JudgeOptions } from './judge.js';
import { withVerdicts, type AbRow } from './row.js';

export interface HistoryOptions extends JudgeOptions {
  /** The branch the baseline comes from (named when a row has none). */
  branch: string;
}

/** Per row, the medians of the branch's last runs (src/history/baseline.ts branchBaseline). */
export type BaselineValues = (caseId: string, label: string) => number[];

/** The head run against the branch's history; `runs` is the most history runs any row had. */
export function judgeHistory(head: Result, baseline: BaselineValues, spec: Spec, o: HistoryOptions): { rows: AbRow[]; runs: number } {
  const groupOf = groupsOf(spec);
  const compared: Compared[] = [];
  const baseMedians = new Map<number, number>();
  let runs = 0;
  const rows = head.cases.map((c, index): AbRow => {
    const label = String(c.param.label ?? '');
    const row: AbRow = { caseId: c.id, label, group: groupOf.get(c.id) ?? 'unknown', kind: c.kind, status: 'ok', work: c.work, rounds: 0, evidence: {} };
    if (c.status !== 'ok') return { ...row, status: c.status, note: c.skip_reason ?? c.error ?? c.status };
    const base = baseline(c.id, label);
    if (base.length === 0) return { ...row, status: 'new', note: `no history on ${o.branch} for this row` };
    // A 0 ns iteration (below the clock's resolution) has no log: it is left out, as in a round.
    const samples = c.samples_ns.filter((v) => v > 0 && Number.isFinite(v));
    if (samples.length === 0) return { ...row, status: 'failed', note: 'no iteration above 0 ns (below the clock resolution)' };
    runs = Math.max(runs, base.length);
    row.rounds = base.length;
    baseMedians.set(index, median(base));
    compared.push({ index, ...comparedFields(unpairedHistory.compare(base, samples)) });
    return row;
  });
  return { rows: withVerdicts(applyVerdicts(rows, baseMedians, compared, o)), runs };
}
