// The row every A/B report is made of, whichever design judged it, and its headline counts.
import type { Verdict } from '../stats/index.js';
import type { CaseResult, Kind } from '../spec/schema.js';

export type AbStatus = 'ok' | 'skipped' | 'failed' | 'new' | 'missing';

export interface AbRow {
  caseId: string;
  label: string;
  group: string;
  kind: Kind;
  status: AbStatus;
  /** Skip reason, error, or a statistical note such as "too few rounds". */
  note?: string;
  /** Median over rounds of the per-round medians, ns per iteration. */
  baseMedianNs?: number;
  headMedianNs?: number;
  /** Work per iteration (the same on both sides). */
  work: { ops?: number; bytes?: number };
  /** head / base time (Hodges–Lehmann estimate). */
  ratio?: number;
  /** 95% interval of ratio. */
  ci?: [number, number];
  p?: number;
  /** Benjamini–Hochberg q across the rows of this report. */
  q?: number;
  verdict?: Verdict;
  /** Rounds (paired) or history runs the verdict used. */
  rounds: number;
  /** Paired design: rounds the case was run in, when some of them could not be used (see note). */
  roundsRun?: number;
}

/** One row of a same-job A/B before judging: the paired rounds of both sides (src/run/pairs.ts). */
export interface PairedRow {
  caseId: string;
  label: string;
  kind: Kind;
  status: AbStatus;
  note?: string;
  /** Per paired round, in round order: each side's median iteration (ns). */
  base: number[];
  head: number[];
  /** Per paired round: ln(head / base) from the round's iteration pairs (roundLogRatio). */
  logRatios: number[];
  /** Rounds this row's case was run in; logRatios.length of them were used. */
  roundsRun: number;
  /** One line per round run but not used: "round 3: head killed after its budget of 60 s". */
  unused: string[];
  work: CaseResult['work'];
  param: CaseResult['param'];
}

export interface AbCounts {
  regressions: number;
  improvements: number;
  unchanged: number;
  skipped: number;
  new: number;
  failed: number;
  missing: number;
}

export function countRows(rows: readonly AbRow[]): AbCounts {
  const c: AbCounts = { regressions: 0, improvements: 0, unchanged: 0, skipped: 0, new: 0, failed: 0, missing: 0 };
  for (const r of rows) {
    if (r.status === 'ok') {
      if (r.verdict === 'regression') c.regressions++;
      else if (r.verdict === 'improvement') c.improvements++;
      else c.unchanged++;
    } else if (r.status === 'skipped') c.skipped++;
    else if (r.status === 'new') c.new++;
    else if (r.status === 'failed') c.failed++;
    else c.missing++;
  }
  return c;
}
