// What one (row, runner) cell says, as plain text pieces; report-md.ts and html.ts only decide the
// markup. The pieces are built from units.ts output (no user text) except `reason`, which the
// renderers escape. A cell leads with the figure rows compare (MB/s, time per op), so the best
// cell never shows the larger number of a scaled row; the raw median and the work sit below it.
import type { Runner } from '../../spec/schema.js';
import { cellMarks } from '../../verdict/descriptive.js';
import { LOW_PRECISION_RULE, type PrecisionReason } from '../../verdict/precision.js';
import { RUNNER_LABEL, type Cell, type Row } from './types.js';
import { formatBytes, formatCount, formatDuration, formatPercent, formatPerOp, formatRatio, formatThroughput, sig3 } from '../units.js';

/** Marks tying a figure to its caveat under the table. */
export const TIMER_MARK = '‡';
export const WAIT_MARK = '†';
export const LOW_PRECISION_MARK = '≈';
/** The mark of a low-precision row beside its param: too wide for an A/B claim of a few %, still ranked when its ranking is clear. */
export const LOW_PRECISION_ROW = `${LOW_PRECISION_MARK} low precision for A/B claims`;
/** The mark of a row whose ranking the iterations leave open (src/stats/scoreboard.ts), beside its param. */
export const RANKING_OPEN_ROW = 'ranking open: not scored';

/** The mark(s) beside a row's param: low precision, ranking open. */
export function rowMarks(row: Pick<Row, 'lowPrecision' | 'rankingOpen'>): string[] {
  return [...(row.lowPrecision ? [LOW_PRECISION_ROW] : []), ...(row.rankingOpen ? [RANKING_OPEN_ROW] : [])];
}

export const CAVEATS = {
  [TIMER_MARK]: `${TIMER_MARK} Below 1 µs per iteration: the clock's resolution and the timer calls themselves dominate, so spread and cpu/wall (CPU time is read at a coarser grain than wall time) say nothing about the operation; only the median is a figure.`,
  [WAIT_MARK]: `${WAIT_MARK} cpu/wall below 1 on a CPU-bound row: the process waited for a CPU (other load on the machine, see the load average), not on I/O.`,
  [LOW_PRECISION_MARK]: `${LOW_PRECISION_MARK} Low precision: ${LOW_PRECISION_RULE}. The row's ratios rest on it: they are shown, and left out of the scoreboard.`,
} as const;

export interface CellView {
  status: 'absent' | 'ok' | 'skipped' | 'failed';
  reason?: string;
  /** Line 1: the comparable figure (MB/s, time per op, or time per iteration)... */
  lead?: string;
  /** ...with its ratio to the fastest in a contested row: "best" or "8.63x slower". */
  ratio?: string;
  best?: boolean;
  /** Line 2: the raw median and the work it did, then other rates. */
  raw?: string;
  /** Line 3: spread, cv, p95, peak RSS, cpu/wall. */
  spread: string[];
  /** Line 4, when the allocation run measured the cell: heap bytes and allocations per op, and their story beside peak RSS. */
  alloc?: string;
  /** Why the figure is low-precision: "≈ low precision: 10 ops in 5 iterations". */
  precision?: string;
  flaky: boolean;
  /** Caveat marks used in this cell (CAVEATS keys). */
  marks: string[];
}

/** The work one runner did per iteration: "2,000 ops", "25 files, 25.0 KiB", "32.0 MiB". */
export function workText(row: Row, cell: Cell): string {
  const parts: string[] = [];
  const ops = cell.work.ops;
  const bytes = cell.work.bytes;
  if (ops !== undefined && !(row.basis === 'bytes' && ops === 1 && bytes !== undefined))
    parts.push(`${formatCount(ops)} ${ops === 1 ? row.opLabel : plural(row.opLabel)}`);
  if (bytes !== undefined) parts.push(formatBytes(bytes));
  return parts.join(', ');
}

function plural(label: string): string {
  return label.endsWith('s') ? label : `${label}s`;
}

/** The figure a row compares, formatted: MB/s for byte rows, time per op, else time per iteration. */
export function leadFigure(row: Row, cell: Cell): string | undefined {
  if (cell.medianNs === undefined) return undefined;
  if (row.basis === 'bytes' && cell.bytesPerNs !== undefined) return formatThroughput(cell.bytesPerNs);
  if (row.basis === 'ops' && cell.perOpNs !== undefined) return formatPerOp(cell.perOpNs, row.opLabel);
  return `${formatDuration(cell.medianNs)}/iteration`;
}

export function cellView(row: Row, cell: Cell | undefined): CellView {
  if (!cell) return { status: 'absent', spread: [], flaky: false, marks: [] };
  if (cell.status !== 'ok' || cell.medianNs === undefined) {
    return { status: cell.status === 'ok' ? 'failed' : cell.status, reason: cell.reason ?? 'no samples', spread: [], flaky: false, marks: [] };
  }
  // Flaky as printed: a spread shown as ±50.0% is not "above 50%".
  const shown = cell.spread === undefined ? undefined : formatPercent(cell.spread);
  const { timerBound, flaky, waited } = cellMarks({
    medianNs: cell.medianNs,
    kind: row.kind,
    ...(shown !== undefined ? { printedSpreadPercent: Number.parseFloat(shown) } : {}),
    ...(cell.cpuWallRatio !== undefined ? { cpuWallRatio: cell.cpuWallRatio } : {}),
  });
  const marks: string[] = [];
  if (timerBound) marks.push(TIMER_MARK);
  const work = workText(row, cell);
  const raw = [`median ${formatDuration(cell.medianNs)}${work ? ` for ${work}` : ''}`];
  if (row.basis === 'bytes' && cell.perOpNs !== undefined && (cell.work.ops ?? 0) > 1) raw.push(formatPerOp(cell.perOpNs, row.opLabel));
  const spread: string[] = [];
  if (shown !== undefined && cell.n >= 2) spread.push(`${flaky ? '⚠ ' : ''}±${shown}${timerBound ? ` ${TIMER_MARK}` : ''}`);
  if (cell.cv !== undefined) spread.push(`cv ${formatPercent(cell.cv)}`);
  if (cell.p95Ns !== undefined) spread.push(`p95 ${formatDuration(cell.p95Ns)}`);
  spread.push(`n ${cell.n}`);
  if (cell.peakRssBytes !== null) spread.push(`rss ${formatBytes(cell.peakRssBytes)}`);
  if (cell.cpuWallRatio !== undefined) {
    if (waited) marks.push(WAIT_MARK);
    spread.push(`cpu/wall ${formatRatio(cell.cpuWallRatio)}${timerBound ? ` ${TIMER_MARK}` : waited ? ` ${WAIT_MARK}` : ''}`);
  }
  if (cell.lowPrecision) marks.push(LOW_PRECISION_MARK);
  const view: CellView = { status: 'ok', lead: leadFigure(row, cell), raw: raw.join(' · '), spread, flaky, marks };
  const alloc = allocText(row, cell);
  if (alloc) view.alloc = alloc;
  if (cell.lowPrecision) view.precision = `${LOW_PRECISION_MARK} low precision: ${precisionText(row, cell.lowPrecision)}`;
  if (cell.ratio !== undefined) {
    // The ratio's interval from the iterations (src/stats/scoreboard.ts), when it says more than the
    // ratio; not under 1 µs an iteration, where the timer's steps tie the pairs and only the median is a figure.
    const ri = timerBound ? undefined : cell.ratioInterval;
    const span = ri && formatRatio(ri.lo) !== formatRatio(ri.hi) ? ` [${formatRatio(ri.lo)}–${formatRatio(ri.hi)}]` : '';
    view.ratio = cell.fastest ? 'best' : `${formatRatio(cell.ratio)} slower${span}`;
    view.best = cell.fastest === true;
  }
  return view;
}

/** What a low-precision figure rests on: "10 ops in 5 iterations", "median ±12.0% (95% interval, 20 iterations)". */
export function precisionText(row: Pick<Row, 'opLabel'>, reasons: readonly PrecisionReason[]): string {
  return reasons
    .map((r) =>
      r.kind === 'ops'
        ? `${formatCount(r.totalOps)} ${r.totalOps === 1 ? row.opLabel : plural(row.opLabel)} in ${r.iterations} iteration${r.iterations === 1 ? '' : 's'}`
        : `median ±${formatPercent(r.spread)} (95% interval, ${r.iterations} iterations)`,
    )
    .join(', ');
}

/** "heap 1.02 KiB/chunk · 4.00 allocs/chunk · transient": the cell's allocation line, if measured. */
export function allocText(row: Row, cell: Cell): string | undefined {
  const a = cell.alloc;
  if (!a) return undefined;
  const parts = [`heap ${formatBytes(a.bytesPerOp)}/${row.opLabel}`];
  if (a.allocsPerOp !== undefined) parts.push(`${sig3(a.allocsPerOp)} allocs/${row.opLabel}`);
  if (a.story) parts.push(a.story);
  return parts.join(' · ');
}

/** The caveats a set of rows needs under its table, in a fixed order (`view` gives a cell's view, built once). */
export function caveatsOf(
  rows: readonly Row[],
  runners: readonly Runner[],
  view: (row: Row, runner: Runner) => CellView = (row, r) => cellView(row, row.cells[r]),
): string[] {
  const used = new Set(rows.flatMap((row) => runners.flatMap((r) => view(row, r).marks)));
  return Object.entries(CAVEATS)
    .filter(([mark]) => used.has(mark))
    .map(([, text]) => text);
}

/** The work per runner where runners ran different work (per_runner scaling): "bee-js 5 ops". */
export function scaledWork(row: Row): Array<{ runner: Runner; work: string }> {
  if (!row.scaled) return [];
  return Object.values(row.cells).map((c) => ({ runner: c.runner, work: workText(row, c) }));
}

/** Param values that differ between the runners of a scaled row, e.g. "bee-js: count=200". */
export function scaledParams(row: Row): Array<{ runner: Runner; values: string }> {
  const cells = Object.values(row.cells);
  const keys = new Set(cells.flatMap((c) => Object.keys(c.param)).filter((k) => k !== 'label'));
  const varying = [...keys].filter((k) => new Set(cells.map((c) => String(c.param[k]))).size > 1).sort();
  if (varying.length === 0) return [];
  return cells.map((c) => ({ runner: c.runner, values: varying.map((k) => `${k}=${String(c.param[k])}`).join(', ') }));
}

/** "bee-js 5 ops · bee-rs 2,000 ops": the param column's second line in a scaled row. */
export function scaledWorkLine(row: Row): string {
  return scaledWork(row)
    .map((s) => `${RUNNER_LABEL[s.runner]} ${s.work}`)
    .join(' · ');
}
