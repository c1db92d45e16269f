// A default-branch run judged against that branch's own history: the same unpaired design as a
// PR's `baseline: history` (Mann–Whitney per row against the medians of the branch's last N runs,
// Benjamini–Hochberg across rows). Records of the commit being judged are left out, so a rerun is
// never compared with itself; the newest other run is the last one before this, the start of the
// commit range an alert names.
import { branchBaseline } from '../history/baseline.js';
import type { HistoryRecord } from '../history/schema.js';
import { judgeHistory, type AbRow } from '../verdict/index.js';
import type { Result, Spec } from '../spec/schema.js';

export interface BranchJudgeOptions {
  branch: string;
  /** The commit this run measured. */
  sha: string;
  lastRuns: number;
  alpha: number;
  threshold: number;
}

export interface PreviousRun {
  sha: string;
  url?: string;
}

export interface BranchJudgement {
  rows: AbRow[];
  /** How many past runs the baseline used (the most of any row). */
  runs: number;
  /** The branch's newest recorded run of another commit, for this runner and profile. */
  previous?: PreviousRun;
}

export function judgeAgainstBranch(result: Result, records: readonly HistoryRecord[], spec: Spec, o: BranchJudgeOptions): BranchJudgement {
  const past = records.filter((r) => r.commit.sha !== o.sha);
  const baseline = branchBaseline(past, result, { branch: o.branch, lastRuns: o.lastRuns });
  const { rows, runs } = judgeHistory(result, baseline, spec, { branch: o.branch, alpha: o.alpha, threshold: o.threshold });
  const newest = past
    .filter((r) => r.runner === result.runner && r.branch === o.branch && r.spec.profile === result.spec.profile)
    .sort((a, b) => Date.parse(b.commit.timestamp) - Date.parse(a.commit.timestamp))[0];
  return { rows, runs, ...(newest ? { previous: { sha: newest.commit.sha, ...(newest.run.url ? { url: newest.run.url } : {}) } } : {}) };
}
