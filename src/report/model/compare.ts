// The model of `bee-bench compare`: two aggregate models (an old and a new run set) side by side,
// per runner the geometric-mean shift of the row ratios new/old, per row the change with its flag
// (src/verdict/descriptive.ts), and the rows only one side has. Descriptive only (one run set each,
// no test): PR verdicts are the A/B's job. render/compare-markdown.ts prints it.
import { geomean } from '../../stats/index.js';
import { COMPARE_FLAG, isFlaggedDelta } from '../../verdict/descriptive.js';
import { RUNNERS, type Runner } from '../../spec/schema.js';
import { allRows, rowKey, type AggregateModel, type Cell, type Row } from './types.js';

export interface CompareOptions {
  /** Flag a row when |new/old - 1| exceeds this; default 0.2. */
  flag?: number;
}

export interface CompareCell {
  oldMedianNs?: number;
  newMedianNs?: number;
  /** new / old time per unit of work (equals the median ratio when the work is the same). */
  ratio?: number;
  flagged: boolean;
}

export interface CompareRow {
  caseId: string;
  label: string;
  group: string;
  cells: Partial<Record<Runner, CompareCell>>;
}

export interface CompareSummary {
  runner: Runner;
  oldVersion?: string;
  newVersion?: string;
  rows: number;
  /** Geometric mean of the row ratios new/old; null without a common ok row. */
  geomean: number | null;
}

export interface CompareModel {
  flag: number;
  runners: Runner[];
  summary: CompareSummary[];
  rows: CompareRow[];
  onlyOld: Array<{ caseId: string; label: string }>;
  onlyNew: Array<{ caseId: string; label: string }>;
  old: { startedAt: string | null; specHashes: string[] };
  new: { startedAt: string | null; specHashes: string[] };
}

function okCost(cell: Cell | undefined): number | undefined {
  return cell?.status === 'ok' ? (cell.unitCostNs ?? cell.medianNs) : undefined;
}

export function compareModels(oldModel: AggregateModel, newModel: AggregateModel, opts: CompareOptions = {}): CompareModel {
  const flag = opts.flag ?? COMPARE_FLAG;
  const present = new Set([...oldModel.runners, ...newModel.runners].map((r) => r.runner));
  const runners = RUNNERS.filter((r) => present.has(r));
  const oldRows = new Map(allRows(oldModel).map((r) => [rowKey(r), r]));
  const newRows = allRows(newModel);
  const newKeys = new Set(newRows.map(rowKey));

  const ratios = new Map<Runner, number[]>(runners.map((r) => [r, []]));
  const rows: CompareRow[] = [];
  for (const n of newRows) {
    const o = oldRows.get(rowKey(n));
    if (!o) continue;
    rows.push(compareRow(o, n, runners, flag, ratios));
  }
  const keyOf = (r: Row) => ({ caseId: r.caseId, label: r.label });
  const version = (m: AggregateModel, r: Runner) => m.runners.find((x) => x.runner === r)?.client.version;
  return {
    flag,
    runners,
    summary: runners.map((r) => {
      const xs = ratios.get(r)!;
      const s: CompareSummary = { runner: r, rows: xs.length, geomean: xs.length > 0 ? geomean(xs) : null };
      const ov = version(oldModel, r);
      const nv = version(newModel, r);
      if (ov) s.oldVersion = ov;
      if (nv) s.newVersion = nv;
      return s;
    }),
    rows,
    onlyOld: [...oldRows.values()].filter((r) => !newKeys.has(rowKey(r))).map(keyOf),
    onlyNew: newRows.filter((r) => !oldRows.has(rowKey(r))).map(keyOf),
    old: { startedAt: oldModel.startedAt, specHashes: oldModel.specHashes },
    new: { startedAt: newModel.startedAt, specHashes: newModel.specHashes },
  };
}

function compareRow(o: Row, n: Row, runners: readonly Runner[], flag: number, ratios: Map<Runner, number[]>): CompareRow {
  const cells: Partial<Record<Runner, CompareCell>> = {};
  for (const r of runners) {
    const oc = o.cells[r];
    const nc = n.cells[r];
    if (!oc && !nc) continue;
    const cell: CompareCell = { flagged: false };
    if (oc?.status === 'ok' && oc.medianNs !== undefined) cell.oldMedianNs = oc.medianNs;
    if (nc?.status === 'ok' && nc.medianNs !== undefined) cell.newMedianNs = nc.medianNs;
    const a = okCost(oc);
    const b = okCost(nc);
    if (a !== undefined && b !== undefined && a > 0 && b > 0) {
      cell.ratio = b / a;
      cell.flagged = isFlaggedDelta(cell.ratio, flag);
      ratios.get(r)!.push(cell.ratio);
    }
    cells[r] = cell;
  }
  return { caseId: n.caseId, label: n.label, group: n.group, cells };
}
