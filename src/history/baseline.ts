// The baseline a run is judged against from the branch's history: per row, the medians of the
// branch's last N runs of the same runner and profile, newest first (src/verdict judgeHistory).
import type { Result } from '../spec/schema.js';
import type { HistoryRecord } from './schema.js';

export interface BaselineOptions {
  branch: string;
  /** How many of the branch's most recent runs form the baseline. */
  lastRuns: number;
}

/** (case, label) -> the medians of that row in the branch's last N runs of this runner. */
export type Baseline = (caseId: string, label: string) => number[];

export function branchBaseline(records: readonly HistoryRecord[], head: Pick<Result, 'runner' | 'spec'>, o: BaselineOptions): Baseline {
  const runs = records
    .filter((r) => r.runner === head.runner && r.branch === o.branch && r.spec.profile === head.spec.profile)
    .sort((a, b) => Date.parse(b.commit.timestamp) - Date.parse(a.commit.timestamp));
  return (caseId, label) =>
    runs
      .flatMap((r) => r.cases.filter((c) => c.id === caseId && c.label === label && c.status === 'ok' && c.median_ns))
      .slice(0, o.lastRuns)
      .map((c) => c.median_ns!);
}
