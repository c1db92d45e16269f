// What a case's figure means and how it is written: time per iteration, time per op, or MB/s,
// chosen from the work a case declares (as src/report does). Scaling into units happens in
// src/report/units.ts, the project's one place for it; this module only picks the function.
import type { IndexCase, SeriesPoint } from '../../src/history/schema.js';
import { formatChange, formatDuration, formatPerOp, formatThroughput, mbPerS } from '../../src/report/units.js';

/** bytes: throughput (bytes/ns, higher is better); ops: ns per op; iteration: ns per iteration. */
export type Basis = 'bytes' | 'ops' | 'iteration';

export interface Work {
  ops?: number | undefined;
  bytes?: number | undefined;
}

export function basisOf(c: IndexCase): Basis {
  let ops = false;
  for (const s of c.series) {
    for (const l of Object.values(s.latest)) {
      if (l.bytes !== undefined && l.bytes > 0) return 'bytes';
      if (l.ops !== undefined && l.ops > 0) ops = true;
    }
  }
  return ops ? 'ops' : 'iteration';
}

/** The figure shown for a median time and its work, in the basis' native unit; null when the work is missing. */
export function valueOf(basis: Basis, medianNs: number, work: Work): number | null {
  if (!Number.isFinite(medianNs) || medianNs <= 0) return null;
  if (basis === 'bytes') return work.bytes && work.bytes > 0 ? work.bytes / medianNs : null;
  if (basis === 'ops') return work.ops && work.ops > 0 ? medianNs / work.ops : null;
  return medianNs;
}

export function pointValue(basis: Basis, p: SeriesPoint): number | null {
  return valueOf(basis, p.median_ns, p);
}

export function formatValue(basis: Basis, v: number | null | undefined): string {
  if (basis === 'bytes') return formatThroughput(v);
  if (basis === 'ops') return formatPerOp(v);
  return formatDuration(v);
}

export function higherIsBetter(basis: Basis): boolean {
  return basis === 'bytes';
}

/** What the y axis shows, in words. */
export function axisTitle(basis: Basis): string {
  if (basis === 'bytes') return 'Throughput (higher is better)';
  if (basis === 'ops') return 'Time per op (lower is better)';
  return 'Time per iteration (lower is better)';
}

/** The figure as written to CSV/JSON: a raw number in a named unit (no rounding). */
export function exportUnit(basis: Basis): string {
  return basis === 'bytes' ? 'MB/s' : basis === 'ops' ? 'ns/op' : 'ns';
}

export function exportValue(basis: Basis, v: number): number {
  return basis === 'bytes' ? mbPerS(v) : v;
}

/**
 * The index's change (time per work unit, latest / previous - 1, as src/history/derive.ts writes
 * it) in the figure's direction: 10% more time is "+10.0%" for time and "-9.1%" for throughput.
 */
export function formatFigureChange(basis: Basis, change: number | null | undefined): string {
  if (change == null || !Number.isFinite(change) || change <= -1) return formatChange(null);
  const timeRatio = 1 + change;
  return formatChange(basis === 'bytes' ? 1 / timeRatio : timeRatio);
}

/** What the change column means, for its title: no colour, no verdict. */
export function changeTitle(): string {
  return 'Change against the previous run on this branch: one run against one run, not a significance test.';
}
