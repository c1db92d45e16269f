// A default-branch run judged against that branch's own history. Rows whose run counted
// instructions, where the branch's previous run counted them too, are judged on counts: this
// run's count per work unit against the previous run's, with the count rule of a PR
// (src/verdict/steps.ts countVerdict) and the row's A/A spread as the previous record
// stored it (else the 0.05% every count step uses, src/history/count-steps.ts). That is deterministic:
// no window, no noise, and the commit range is exactly previous..this. Other rows (net rows, rows
// without counts) keep the wall-time design of a PR's `baseline: history` (Mann–Whitney per row
// against the medians of the branch's last N runs, Benjamini–Hochberg across rows). Records of the
// commit being judged are left out, so a rerun is never compared with itself; the newest other
// run is the last one before this, the start of the commit range an alert names.
import { branchBaseline } from '../history/baseline.js';
import { withCurrentIds } from '../history/case-ids.js';
import { caseAliases } from '../spec/aliases.js';
import { countFigures, workUnits } from '../history/record.js';
import type { HistoryRecord, RecordCase } from '../history/schema.js';
import { DEFAULT_COUNT_SPREAD } from '../history/count-steps.js';
import { judgeHistory, withVerdicts, type AbRow } from '../verdict/index.js';
import { countVerdict, INSTRUCTION_DEFAULTS, type StepVerdict } from '../verdict/steps.js';
import type { CaseResult, Result, Spec } from '../spec/schema.js';

export interface BranchJudgeOptions {
  branch: string;
  /** The commit this run measured. */
  sha: string;
  lastRuns: number;
  alpha: number;
  threshold: number;
  /** The count rule's floor (default INSTRUCTION_DEFAULTS): a row's threshold is the larger of it and ten A/A spreads. */
  instructionThreshold?: number;
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
  /** Rows judged on counts against the previous run. */
  counted: number;
}

/** The count verdict of one row against the previous run's case; undefined when either side has no count. */
function countJudgement(head: CaseResult, prev: RecordCase | undefined, floor: number): StepVerdict | undefined {
  const now = countFigures(head);
  const before = prev?.status === 'ok' ? prev.instructions : undefined;
  if (!now || !before || head.status !== 'ok') return undefined;
  const ratio = now.median / workUnits(head.work) / (before.median / workUnits(prev!.work));
  const spread = before.aa_spread ?? DEFAULT_COUNT_SPREAD;
  return { base: before.median, head: now.median, ratio, spread, ...countVerdict(ratio, spread, { floor }) };
}

export function judgeAgainstBranch(result: Result, records: readonly HistoryRecord[], spec: Spec, o: BranchJudgeOptions): BranchJudgement {
  // Records written before a case was renamed are read under its current id (the spec's formerly).
  const aliases = caseAliases(spec);
  const past = records.filter((r) => r.commit.sha !== o.sha).map((r) => withCurrentIds(r, aliases));
  const baseline = branchBaseline(past, result, { branch: o.branch, lastRuns: o.lastRuns });
  const judged = judgeHistory(result, baseline, spec, { branch: o.branch, alpha: o.alpha, threshold: o.threshold });
  const newest = past
    .filter((r) => r.runner === result.runner && r.branch === o.branch && r.spec.profile === result.spec.profile)
    .sort((a, b) => Date.parse(b.commit.timestamp) - Date.parse(a.commit.timestamp))[0];
  const floor = o.instructionThreshold ?? INSTRUCTION_DEFAULTS.floor;
  let counted = 0;
  const rows = judged.rows.map((row, i): AbRow => {
    const head = result.cases[i]!;
    const prev = newest?.cases.find((c) => c.id === row.caseId && c.label === row.label);
    const v = row.status === 'ok' || row.status === 'new' ? countJudgement(head, prev, floor) : undefined;
    if (!v) return row;
    counted++;
    // Counts decide this row: wall time's verdict gives way to a note saying so.
    const { note: _note, ...rest } = row;
    return {
      ...rest,
      status: 'ok',
      rounds: Math.max(row.rounds, 1),
      evidence: { wall: { note: 'counts decide this row (against the previous run)' }, instructions: { judged: v } },
    };
  });
  return {
    rows: withVerdicts(rows),
    runs: judged.runs,
    counted,
    ...(newest ? { previous: { sha: newest.commit.sha, ...(newest.run.url ? { url: newest.run.url } : {}) } } : {}),
  };
}
