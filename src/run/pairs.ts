// Turning A/B runs into paired rounds per row (case x param label): per round the median of each
// side's timed iterations (what the report shows) and the round's log-ratio from its lock-step
// iteration pairs (what the test uses); a round counts only when both sides are ok in it, and each
// round left out is named with its reason (the report says "n of R rounds used").
import { median, roundLogRatio } from '../stats/index.js';
import type { CaseResult } from '../spec/schema.js';
import type { PairedRow } from '../verdict/index.js';
import type { RoundsOutcome } from './rounds.js';
import type { Side } from './side.js';

interface SideView {
  byRound: Map<number, CaseResult>;
  problems: string[];
}

const rowKey = (caseId: string, label: unknown) => `${caseId}\u0000${String(label)}`;

function firstReason(entries: Iterable<CaseResult>, status: 'skipped' | 'failed'): string | undefined {
  for (const e of entries) if (e.status === status) return status === 'skipped' ? e.skip_reason : e.error;
  return undefined;
}

export function pairRows(outcome: RoundsOutcome): PairedRow[] {
  const rows: PairedRow[] = [];
  for (const c of outcome.cases) {
    // label -> side -> view
    const views = new Map<string, Record<Side, SideView>>();
    const order: string[] = [];
    const runProblems: Record<Side, Map<number, string>> = { base: new Map(), head: new Map() };
    const roundsRun = [...new Set(c.runs.map((r) => r.round))].sort((x, y) => x - y);
    for (const run of c.runs) {
      if (run.problem) runProblems[run.side].set(run.round, run.problem);
      for (const entry of run.result?.cases ?? []) {
        if (entry.id !== c.caseId) continue;
        const key = rowKey(entry.id, entry.param.label);
        if (!views.has(key)) {
          views.set(key, { base: { byRound: new Map(), problems: [] }, head: { byRound: new Map(), problems: [] } });
          order.push(key);
        }
        views.get(key)![run.side].byRound.set(run.round, entry);
      }
    }
    if (order.length === 0) {
      const problem = (side: Side) => [...runProblems[side]].map(([r, p]) => `${side} round ${r + 1}: ${p}`)[0];
      const why = problem('head') ?? problem('base') ?? 'no runner produced this case';
      rows.push({
        caseId: c.caseId,
        label: '',
        kind: c.caseId.startsWith('net.') ? 'net' : 'cpu',
        status: 'failed',
        note: why,
        base: [],
        head: [],
        logRatios: [],
        roundsRun: roundsRun.length,
        unused: [],
        work: {},
        param: {},
      });
      continue;
    }
    for (const key of order) rows.push(pairOne(views.get(key)!, runProblems, roundsRun));
  }
  return rows;
}

/** Why round r of a row gave no pair: the first side (head first) that was not ok in it. */
function unusedWhy(v: Record<Side, SideView>, runProblems: Record<Side, Map<number, string>>, r: number): string {
  for (const side of ['head', 'base'] as const) {
    const e = v[side].byRound.get(r);
    if (e?.status === 'ok' && e.samples_ns.length > 0) continue;
    const why = e?.status === 'failed' ? e.error : e?.status === 'skipped' ? `skipped: ${e.skip_reason}` : runProblems[side].get(r);
    return `${side} ${why ?? 'gave no samples'}`;
  }
  return 'no iteration above 0 ns on both sides (below the clock resolution)';
}

function pairOne(v: Record<Side, SideView>, runProblems: Record<Side, Map<number, string>>, roundsRun: readonly number[]): PairedRow {
  const any = v.head.byRound.values().next().value ?? v.base.byRound.values().next().value!;
  const row: PairedRow = {
    caseId: any.id,
    label: String(any.param.label ?? ''),
    kind: any.kind,
    status: 'ok',
    base: [],
    head: [],
    logRatios: [],
    roundsRun: roundsRun.length,
    unused: [],
    work: any.work,
    param: any.param,
  };
  for (const r of roundsRun) {
    const b = v.base.byRound.get(r);
    const h = v.head.byRound.get(r);
    const ratio =
      b?.status === 'ok' && h?.status === 'ok' && b.samples_ns.length > 0 && h.samples_ns.length > 0 ? roundLogRatio(b.samples_ns, h.samples_ns) : null;
    if (ratio === null) {
      row.unused.push(`round ${r + 1}: ${unusedWhy(v, runProblems, r)}`);
      continue;
    }
    row.base.push(median(b!.samples_ns));
    row.head.push(median(h!.samples_ns));
    row.logRatios.push(ratio);
  }
  if (row.base.length > 0) return row;
  const headOk = [...v.head.byRound.values()].some((e) => e.status === 'ok');
  const baseOk = [...v.base.byRound.values()].some((e) => e.status === 'ok');
  const headFailed = firstReason(v.head.byRound.values(), 'failed') ?? first(runProblems.head);
  if (headOk && !baseOk) {
    const why = firstReason(v.base.byRound.values(), 'skipped') ?? firstReason(v.base.byRound.values(), 'failed') ?? first(runProblems.base);
    return { ...row, status: 'new', note: why ? `base: ${why}` : 'not in base' };
  }
  // The head failed (crash, timeout, bad output) where the base succeeded: a failure of the PR.
  if (baseOk && !headOk && headFailed) return { ...row, status: 'failed', note: `head failed where base succeeded: ${headFailed}` };
  if (baseOk && !headOk) {
    const why = firstReason(v.head.byRound.values(), 'skipped');
    return { ...row, status: 'missing', note: why ? `head: ${why}` : 'not in head' };
  }
  const failed = firstReason(v.head.byRound.values(), 'failed') ?? firstReason(v.base.byRound.values(), 'failed');
  if (failed) return { ...row, status: 'failed', note: failed };
  const skipped = firstReason(v.head.byRound.values(), 'skipped') ?? firstReason(v.base.byRound.values(), 'skipped');
  if (skipped) return { ...row, status: 'skipped', note: skipped };
  // Both sides ran but no round had an iteration above 0 ns on both sides.
  return { ...row, status: 'failed', note: row.unused[0] ?? first(runProblems.head) ?? 'no paired round' };
}

const first = (m: Map<number, string>) => m.values().next().value;
