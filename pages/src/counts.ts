// Instruction counts as a figure of the site: instructions per byte, per op or per iteration (the
// case's basis, as time is read), from the points' median count per iteration. Counts are the same
// on every machine with the same toolchain, so where a case has them they are the figure the case
// view opens on; the overview and the scoreboard switch to them by `figure=count`.
import type { IndexCase, IndexSeries } from '../../src/history/schema.js';
import { sig3 } from '../../src/report/units.js';
import type { Basis, Work } from './metric.js';

/** Whether any series of the case has a counted latest point on some branch. */
export function hasCounts(c: IndexCase): boolean {
  return c.series.some((s) => Object.values(s.latest).some((l) => l.instructions !== undefined));
}

/** Whether the history has counts at all (the overview offers the switch only then). */
export const anyCounts = (cases: readonly IndexCase[]): boolean => cases.some(hasCounts);

const PER: Record<Basis, string> = { bytes: 'B', ops: 'op', iteration: 'iter' };
const PER_WORDS: Record<Basis, string> = { bytes: 'per byte', ops: 'per op', iteration: 'per iteration' };

/** Instructions per work unit of the basis; null when the point has no count or the work is missing. */
export function countValue(basis: Basis, instructions: number | undefined, work: Work): number | null {
  if (instructions === undefined || !(instructions > 0)) return null;
  if (basis === 'bytes') return work.bytes && work.bytes > 0 ? instructions / work.bytes : null;
  if (basis === 'ops') return work.ops && work.ops > 0 ? instructions / work.ops : null;
  return instructions;
}

const SCALES: ReadonlyArray<[number, string]> = [
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** "1.25 M", "812": three significant digits, decimal prefixes (counts, estimated cycles). */
export function scaledCount(v: number): string {
  const [div, prefix] = SCALES.find(([d]) => Math.abs(v) >= d * 0.9995) ?? [1, ''];
  return `${sig3(v / div)}${prefix ? ` ${prefix}` : ''}`;
}

/** "1.25 M instr/op", "812 instr/B". */
export function formatCountValue(basis: Basis, v: number | null | undefined): string {
  if (v == null || !Number.isFinite(v)) return '—';
  return `${scaledCount(v)} instr/${PER[basis]}`;
}

export const countAxisTitle = (basis: Basis): string => `Instructions ${PER_WORDS[basis]} (lower is better)`;
export const countUnit = (basis: Basis): string => `instructions/${PER[basis]}`;

/** A change in counts in percent with two decimals (steps are as small as 0.05%): "+1.00%". */
export function formatCountChange(change: number | null | undefined): string {
  if (change == null || !Number.isFinite(change)) return '—';
  const p = (change * 100).toFixed(2);
  return change >= 0 ? `+${p}%` : `${p}%`;
}

/** The overview cell of a series on a branch in counts: latest, its change, and the trend. */
export function countCell(basis: Basis, l: IndexSeries['latest'][string]): { value: number | null; change: number | null; trend: number[] } | null {
  if (l.instructions === undefined) return null;
  const work = { ops: l.ops, bytes: l.bytes };
  return {
    value: countValue(basis, l.instructions, work),
    change: l.count_change ?? null,
    trend: (l.count_trend ?? []).map((n) => countValue(basis, n, work)).filter((v): v is number => v !== null),
  };
}
