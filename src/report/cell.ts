// What one (row, runner) cell says, as plain text pieces; markdown.ts and html.ts only decide the
// markup. The pieces are built from units.ts output (no user text) except `reason`, which the
// renderers escape.
import type { Runner } from '../spec/schema.js';
import type { Cell, Row } from './model.js';
import { formatBytes, formatDuration, formatPercent, formatPerOp, formatRatio, formatThroughput } from './units.js';

/** Spread above this (half-range / median) marks the measurement as flaky. */
export const FLAKY_SPREAD = 0.5;

export interface CellView {
  status: 'absent' | 'ok' | 'skipped' | 'failed';
  reason?: string;
  /** Line 1: median (and the ratio in a contested row). */
  median?: string;
  ratio?: string;
  best?: boolean;
  /** Line 2: throughput, per-op time. */
  rates: string[];
  /** Line 3: spread, cv, p95, peak RSS, cpu/wall. */
  spread: string[];
  flaky: boolean;
}

export function cellView(row: Row, cell: Cell | undefined): CellView {
  if (!cell) return { status: 'absent', rates: [], spread: [], flaky: false };
  if (cell.status !== 'ok' || cell.medianNs === undefined) {
    return { status: cell.status === 'ok' ? 'failed' : cell.status, reason: cell.reason ?? 'no samples', rates: [], spread: [], flaky: false };
  }
  const rates: string[] = [];
  if (cell.bytesPerNs !== undefined) rates.push(formatThroughput(cell.bytesPerNs));
  if (cell.perOpNs !== undefined && (cell.work.ops ?? 0) > 1) rates.push(formatPerOp(cell.perOpNs, row.opLabel));
  const spread: string[] = [];
  const flaky = (cell.spread ?? 0) > FLAKY_SPREAD;
  if (cell.spread !== undefined && cell.n >= 2) spread.push(`${flaky ? '⚠ ' : ''}±${formatPercent(cell.spread)}`);
  if (cell.cv !== undefined) spread.push(`cv ${formatPercent(cell.cv)}`);
  if (cell.p95Ns !== undefined) spread.push(`p95 ${formatDuration(cell.p95Ns)}`);
  spread.push(`n ${cell.n}`);
  if (cell.peakRssBytes !== null) spread.push(`rss ${formatBytes(cell.peakRssBytes)}`);
  if (cell.cpuWallRatio !== undefined) spread.push(`cpu/wall ${formatRatio(cell.cpuWallRatio)}`);
  const view: CellView = { status: 'ok', median: formatDuration(cell.medianNs), rates, spread, flaky };
  if (cell.ratio !== undefined) {
    view.ratio = cell.fastest ? 'best' : formatRatio(cell.ratio);
    view.best = cell.fastest === true;
  }
  return view;
}

/** Param values that differ between the runners of a scaled row, e.g. "bee-js: count=200". */
export function scaledParams(row: Row): Array<{ runner: Runner; values: string }> {
  const cells = Object.values(row.cells);
  const keys = new Set(cells.flatMap((c) => Object.keys(c.param)).filter((k) => k !== 'label'));
  const varying = [...keys].filter((k) => new Set(cells.map((c) => String(c.param[k]))).size > 1).sort();
  if (varying.length === 0) return [];
  return cells.map((c) => ({ runner: c.runner, values: varying.map((k) => `${k}=${String(c.param[k])}`).join(', ') }));
}
