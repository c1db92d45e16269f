// Turning A/B runs into paired rounds per row (case x param label): per round the median of each
// side's timed iterations (what the report shows) and the round's log-ratio from its lock-step
// iteration pairs (what the test uses); a round counts only when both sides are ok in it.
import { median, roundLogRatio } from '../stats/index.js';
import type { CaseResult } from '../spec/schema.js';
import type { PairedRow } from '../verdict/index.js';
import type { AbOutcome, Side } from './ab.js';

interface SideView {
  byRound: Map<number, CaseResult>;
  problems: string[];
}

const rowKey = (caseId: string, label: unknown) => `${caseId}\u0000${String(label)}`;

function firstReason(entries: Iterable<CaseResult>, status: 'skipped' | 'failed'): string | undefined {
  for (const e of entries) if (e.status === status) return status === 'skipped' ? e.skip_reason : e.error;
  return undefined;
}

export function pairRows(outcome: AbOutcome): PairedRow[] {
  const rows: PairedRow[] = [];
  for (const c of outcome.cases) {
    // label -> side -> view
    const views = new Map<string, Record<Side, SideView>>();
    const order: string[] = [];
    const runProblems: Record<Side, string[]> = { base: [], head: [] };
    for (const run of c.runs) {
      if (run.problem) runProblems[run.side].push(`round ${run.round + 1}: ${run.problem}`);
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
      const why = [...runProblems.head, ...runProblems.base][0] ?? 'no runner produced this case';
      rows.push({ caseId: c.caseId, label: '', kind: c.caseId.startsWith('net.') ? 'net' : 'cpu', status: 'failed', note: why, base: [], head: [], logRatios: [], work: {}, param: {} });
      continue;
    }
    for (const key of order) rows.push(pairOne(views.get(key)!, runProblems));
  }
  return rows;
}

function pairOne(v: Record<Side, SideView>, runProblems: Record<Side, string[]>): PairedRow {
  const any = v.head.byRound.values().next().value ?? v.base.byRound.values().next().value!;
  const row: PairedRow = {
    caseId: any.id, label: String(any.param.label ?? ''), kind: any.kind, status: 'ok',
    base: [], head: [], logRatios: [], work: any.work, param: any.param,
  };
  const rounds = [...new Set([...v.base.byRound.keys(), ...v.head.byRound.keys()])].sort((a, b) => a - b);
  for (const r of rounds) {
    const b = v.base.byRound.get(r);
    const h = v.head.byRound.get(r);
    if (b?.status === 'ok' && h?.status === 'ok' && b.samples_ns.length > 0 && h.samples_ns.length > 0) {
      row.base.push(median(b.samples_ns));
      row.head.push(median(h.samples_ns));
      row.logRatios.push(roundLogRatio(b.samples_ns, h.samples_ns));
    }
  }
  if (row.base.length > 0) return row;
  const headOk = [...v.head.byRound.values()].some((e) => e.status === 'ok');
  const baseOk = [...v.base.byRound.values()].some((e) => e.status === 'ok');
  if (headOk && !baseOk) {
    const why = firstReason(v.base.byRound.values(), 'skipped') ?? firstReason(v.base.byRound.values(), 'failed') ?? runProblems.base[0];
    return { ...row, status: 'new', note: why ? `base: ${why}` : 'not in base' };
  }
  if (baseOk && !headOk) {
    const why = firstReason(v.head.byRound.values(), 'failed') ?? firstReason(v.head.byRound.values(), 'skipped') ?? runProblems.head[0];
    return { ...row, status: 'missing', note: why ? `head: ${why}` : 'not in head' };
  }
  const failed = firstReason(v.head.byRound.values(), 'failed') ?? firstReason(v.base.byRound.values(), 'failed');
  if (failed) return { ...row, status: 'failed', note: failed };
  const skipped = firstReason(v.head.byRound.values(), 'skipped') ?? firstReason(v.base.byRound.values(), 'skipped');
  return { ...row, status: 'skipped', note: skipped ?? runProblems.head[0] ?? 'no paired round' };
}
