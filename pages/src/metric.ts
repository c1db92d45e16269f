// What a case's figure means and how it is written: time per iteration, time per op, or MB/s,
// chosen from the work a case declares (as src/report does), or a further figure the points
// carry by unit (SeriesPoint.metrics: the families of src/evidence/history-metrics.ts, worded and
// scaled as that list says, so the site names no evidence). Scaling
// into units happens in src/report/units.ts, the project's one place for it; this module only
// picks the function.
import { metricFamilyOf } from '../../src/evidence/history-metrics.js';
import type { CaseSeriesFile, IndexCase, SeriesPoint } from '../../src/history/schema.js';
import { formatBytes, formatDuration, formatPerOp, formatThroughput, formatTimeChange, mbPerS, sig3 } from '../../src/report/units.js';
import { countAxisTitle, countUnit, countValue, formatCountValue, scaledCount } from './counts.js';

/** bytes: throughput (bytes/ns, higher is better); ops: ns per op; iteration: ns per iteration. */
export type Basis = 'bytes' | 'ops' | 'iteration';

/** A figure a chart can show: the case's time basis, one of the points' metrics by unit ("B/op"), or instruction counts per the basis' unit (counts.ts). */
export type Figure = Basis | { metric: string } | { count: Basis };

const isMetric = (f: Figure): f is { metric: string } => typeof f === 'object' && 'metric' in f;
export const isCount = (f: Figure): f is { count: Basis } => typeof f === 'object' && 'count' in f;

/** The metric units any point of the file carries, sorted (what the case view offers besides time). */
export function metricsOf(file: CaseSeriesFile): string[] {
  const units = new Set<string>();
  for (const s of file.series) for (const p of s.points) for (const u of Object.keys(p.metrics ?? {})) units.add(u);
  return [...units].sort();
}

/** "B/op" -> "op", "allocs/iter" -> "iter"; null for a unit without a per-part. */
const perOf = (unit: string): string | null => (unit.includes('/') ? unit.slice(unit.indexOf('/') + 1) : null);

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

export function pointValue(figure: Figure, p: SeriesPoint): number | null {
  if (isCount(figure)) return countValue(figure.count, p.instructions, p);
  if (isMetric(figure)) {
    const v = p.metrics?.[figure.metric];
    return v !== undefined && Number.isFinite(v) ? v : null;
  }
  return valueOf(figure, p.median_ns, p);
}

export function formatValue(basis: Figure, v: number | null | undefined, opLabel = 'op'): string {
  if (isCount(basis)) return formatCountValue(basis.count, v);
  if (isMetric(basis)) {
    if (v == null || !Number.isFinite(v)) return '—';
    const scale = metricFamilyOf(basis.metric)?.family.scale ?? 'number';
    if (scale === 'bytes') return `${formatBytes(v)}/${perOf(basis.metric)}`;
    return scale === 'count' ? `${scaledCount(v)} ${basis.metric}` : `${sig3(v)} ${basis.metric}`;
  }
  if (basis === 'bytes') return formatThroughput(v);
  if (basis === 'ops') return formatPerOp(v, opLabel);
  return formatDuration(v);
}

export function higherIsBetter(basis: Figure): boolean {
  return basis === 'bytes';
}

/** What the y axis shows, in words; `opLabel` is the case's own unit of work (the report's: "lookup", "sign"). */
export function axisTitle(basis: Figure, opLabel = 'op'): string {
  if (isCount(basis)) return countAxisTitle(basis.count);
  if (isMetric(basis)) {
    // Only bee-bench's own families are known to be better lower; an imported unit says nothing.
    const known = metricFamilyOf(basis.metric);
    return known ? `${known.family.words} per ${known.per} (lower is better)` : basis.metric;
  }
  if (basis === 'bytes') return 'Throughput (higher is better)';
  if (basis === 'ops') return `Time per ${opLabel} (lower is better)`;
  return 'Time per iteration (lower is better)';
}

/** The figure as written to CSV/JSON: a raw number in a named unit (no rounding). */
export function exportUnit(basis: Figure, opLabel = 'op'): string {
  if (isCount(basis)) return countUnit(basis.count);
  if (isMetric(basis)) return basis.metric;
  return basis === 'bytes' ? 'MB/s' : basis === 'ops' ? `ns/${opLabel}` : 'ns';
}

export function exportValue(basis: Figure, v: number): number {
  if (typeof basis === 'object') return v;
  return basis === 'bytes' ? mbPerS(v) : v;
}

/**
 * The index's change (time per work unit) in the report's words, whatever the unit shown: "3.4%
 * slower" / "1.2% faster" (MB/s rises as time falls, so a signed percent misled there).
 */
export function timeChangeWords(change: number | null | undefined): string {
  if (change == null || !Number.isFinite(change) || change <= -1) return formatTimeChange(null);
  return formatTimeChange(1 + change);
}

/** Which way a change goes for the reader: more time or more instructions per unit of work is worse. */
export function changeDirection(change: number | null | undefined, text: string): 'better' | 'worse' | 'same' {
  if (change == null || !Number.isFinite(change) || text === 'no change' || /^[+-]?0(\.0+)?%$/.test(text)) return 'same';
  return change > 0 ? 'worse' : 'better';
}

/** What the change column means, for its title: its direction, and that it is no verdict. */
export function changeTitle(direction: 'better' | 'worse' | 'same' = 'same'): string {
  const word = direction === 'same' ? '' : ` (${direction})`;
  return `Change against the previous run on this branch${word}: one run against one run, not a significance test.`;
}
