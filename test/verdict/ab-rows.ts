// Test rows in the A/B row's shape (src/verdict/row.ts): a row judged on wall time, and a row's
// verdict set as judgeAb sets it (withVerdicts), so the report tests build rows the pipeline could make.
import { withVerdicts, type AbRow, type RowEvidence, type Verdict, type WallVerdict } from '../../src/verdict/index.js';

/** Wall time's verdict: base 1 ms per iteration, head moved by `ratio`, a ±3% interval, q = p. */
export function wallVerdict(ratio: number, p: number, verdict: Verdict, extra: Partial<WallVerdict> = {}): WallVerdict {
  return {
    baseMedianNs: 1e6,
    headMedianNs: 1e6 * ratio,
    ratio,
    ci: [ratio * 0.97, ratio * 1.03],
    p,
    q: p,
    verdict,
    ...extra,
  };
}

/** A row with the given evidence, its own verdict derived from it. */
export function judgedRow(caseId: string, evidence: RowEvidence, extra: Partial<AbRow> = {}): AbRow {
  return withVerdicts([{ caseId, label: 'quick', group: 'cpu', kind: 'cpu', status: 'ok', work: { ops: 1000 }, rounds: 10, evidence, ...extra }])[0]!;
}

/** An ok CPU row judged on wall time alone. */
export const wallRow = (caseId: string, ratio: number, p: number, verdict: Verdict, extra: Partial<AbRow> = {}): AbRow =>
  judgedRow(caseId, { wall: { judged: wallVerdict(ratio, p, verdict) } }, extra);
