// A/B against the branch's history (the action's `baseline: history`): the head's single run
// judged against the base branch's recorded runs (src/verdict judgeHistory), reported like any A/B.
import { branchBaseline } from '../history/baseline.js';
import { withCurrentIds } from '../history/case-ids.js';
import { caseAliases } from '../spec/aliases.js';
import type { HistoryRecord } from '../history/schema.js';
import type { AbReportInput } from '../report/model/ab.js';
import { loadSpec } from '../spec/load.js';
import type { RunSize, Result } from '../spec/schema.js';
import { judgeHistory } from '../verdict/index.js';
import { clientText, writeAbReport, type AbReport } from './report.js';

export interface HistoryAbOptions {
  specFile: string;
  profile: RunSize;
  outDir: string;
  /** The base branch whose records are the baseline, and how many of its runs. */
  branch: string;
  lastRuns: number;
  alpha: number;
  threshold: number;
  headLabel: string;
  marker: string;
  trendUrl?: string;
}

export function historyAbReport(head: Result, records: readonly HistoryRecord[], o: HistoryAbOptions): AbReport {
  const { spec, hash } = loadSpec(o.specFile);
  // Records written before a case was renamed are read under its current id (the spec's formerly).
  const aliases = caseAliases(spec);
  const baseline = branchBaseline(
    records.map((r) => withCurrentIds(r, aliases)),
    head,
    { branch: o.branch, lastRuns: o.lastRuns },
  );
  const { rows, runs } = judgeHistory(head, baseline, spec, { branch: o.branch, alpha: o.alpha, threshold: o.threshold });
  const input: AbReportInput = {
    title: `bee-bench: ${head.runner} ${o.branch} history → ${o.headLabel}`,
    marker: o.marker,
    runner: head.runner,
    baseLabel: o.branch,
    headLabel: o.headLabel,
    rows,
    alpha: o.alpha,
    threshold: o.threshold,
    rounds: 0,
    profile: o.profile,
    env: {
      host: head.host,
      clientBase: `${o.branch} history (${runs} run${runs === 1 ? '' : 's'})`,
      clientHead: clientText(head, 'head'),
      specHash: hash,
      wallTimeMs: 0,
    },
    baseline: { kind: 'history', branch: o.branch, runs },
    ...(o.trendUrl ? { trendUrl: o.trendUrl } : {}),
  };
  return writeAbReport(o.outDir, input, { baseline: { branch: o.branch, runs } });
}
