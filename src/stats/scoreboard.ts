// The cross-client scoreboard, one implementation for the report (src/report/model/aggregate.ts) and the
// trend site (src/history/scoreboard.ts, pages/src/overview.ts): a row is one (case, param) where two or
// more runners have a time per work unit; each runner's ratio to the row's fastest goes into its
// geometric mean, and wins count the rows where it is the fastest (ties win for each). Rows of the
// harness group never score: they time the runners themselves (process, timer, loop), not the clients;
// nor do rows whose ranking is open: the interval of some client's ratio to the fastest reaches 1, so
// which client is fastest, what the ratios divide by and who wins, is not told by the data. The ratio's
// interval is the two-sample Hodges–Lehmann (Moses) interval of the log costs, from both clients'
// iterations (rank statistics, no normal assumption; docs/cases.md, "The scoreboard's ranking rule").
// A row whose costs carry only medians' intervals (no samples) falls back to those intervals' overlap;
// one whose costs carry neither is ranked by its medians. The low-precision mark
// (src/verdict/precision.ts) is for A/B-size claims and does not keep a row out of the board.
import type { Runner } from '../spec/schema.js';
import { hodgesLehmannTwoSample } from './hodges-lehmann.js';
import { medianInterval } from './median-interval.js';
import { geomean } from './summary.js';

/** The confidence of each ratio's interval the ranking rule reads (and of each median's interval). */
export const RANKING_CONFIDENCE = 0.95;

/**
 * The rule in one sentence, for captions, legends and docs (words from the constant, so they cannot
 * drift from the code).
 */
export const RANKING_RULE = `a row is scored when every client's ratio to the fastest has a ${RANKING_CONFIDENCE * 100}% interval above 1 (Hodges–Lehmann, from both clients' iterations); otherwise its ranking is open and it is left out`;

/** One runner's standing on the scoreboard. */
export interface ScoreEntry {
  runner: Runner;
  /** Contested rows where this runner was fastest (ties count for each). */
  wins: number;
  /** Contested rows where this runner has an ok cell. */
  rows: number;
  /** Geometric mean of ratio-to-fastest over those rows; null without any. */
  geomean: number | null;
  byGroup: Record<string, number | null>;
}

/** One runner's figure in a row: its median and the work of one iteration. */
export interface RowFigure {
  median_ns: number;
  ops?: number;
  bytes?: number;
}

/** Time per work unit of each figure of one row, or null when the row's figures are not comparable. (per byte when every figure has bytes, else per op, else per iteration when the work is identical). */
export function unitCosts(cells: readonly RowFigure[]): number[] | null {
  const all = (f: (c: RowFigure) => number | undefined) => cells.every((c) => (f(c) ?? 0) > 0);
  if (all((c) => c.bytes)) return cells.map((c) => c.median_ns / (c.bytes as number));
  if (all((c) => c.ops)) return cells.map((c) => c.median_ns / (c.ops as number));
  const works = new Set(cells.map((c) => `${c.ops ?? ''}/${c.bytes ?? ''}`));
  return works.size === 1 ? cells.map((c) => c.median_ns) : null;
}

export const UNSCORED_GROUPS: ReadonlySet<string> = new Set(['harness']);

export interface ScoreRow {
  group: string;
  /** Time per work unit of each runner with an ok figure (> 0), with its median's interval in the same unit when known. */
  costs: ReadonlyArray<RowCost>;
}

export interface RowCost {
  runner: Runner;
  unitCost: number;
  /** The median's interval (src/stats/median-interval.ts) divided by the same work units; absent without samples. */
  interval?: CostInterval;
  /** The iterations' times divided by the same work units (what the ratio's interval is taken from); absent without samples. */
  samples?: readonly number[];
}

export interface CostInterval {
  lo: number;
  hi: number;
}

/** A median's interval in cost units: the order-statistic interval of the samples divided by `units`. */
export function costInterval(samples: ArrayLike<number>, units: number): CostInterval | undefined {
  const ci = samples.length >= 2 && units > 0 ? medianInterval(samples, RANKING_CONFIDENCE) : null;
  return ci ? { lo: ci.lo / units, hi: ci.hi / units } : undefined;
}

/** Samples in cost units: each iteration's time divided by the work units of one iteration. */
export function costSamples(samples: readonly number[], units: number): number[] | undefined {
  return samples.length >= 2 && units > 0 ? samples.map((x) => x / units) : undefined;
}

/**
 * The interval of a ratio of two medians, cost a over cost b, from their intervals: [a.lo / b.hi,
 * a.hi / b.lo]. Each side covers its median with (about) 95%, so the pair covers the ratio with at
 * least about 90% whatever the distributions; wider than a two-sample interval (a fallback for
 * figures that keep intervals but not samples). Undefined without both.
 */
export function ratioInterval(a: CostInterval | undefined, b: CostInterval | undefined): CostInterval | undefined {
  if (!a || !b || !(b.lo > 0) || !(b.hi > 0)) return undefined;
  return { lo: a.lo / b.hi, hi: a.hi / b.lo };
}

/**
 * The interval of cost a over cost b from both clients' iterations: the two-sample Hodges–Lehmann
 * interval of log a − log b at RANKING_CONFIDENCE (Moses; exact rank-sum quantiles below 50 samples a
 * side, R's wilcox.test otherwise), back on the ratio scale. It reads every pair of iterations, so it
 * is about √2 narrower than the end-over-end interval of the two medians' intervals for the same
 * samples, and one slow iteration moves it by one pair in n·m. Undefined without 2 positive samples a side.
 */
export function samplesRatioInterval(a: readonly number[] | undefined, b: readonly number[] | undefined): CostInterval | undefined {
  if (!a || !b || a.length < 2 || b.length < 2 || !a.every((x) => x > 0) || !b.every((x) => x > 0)) return undefined;
  const hl = hodgesLehmannTwoSample(a.map(Math.log), b.map(Math.log), { confLevel: RANKING_CONFIDENCE });
  return Number.isFinite(hl.lo) && Number.isFinite(hl.hi) ? { lo: Math.exp(hl.lo), hi: Math.exp(hl.hi) } : undefined;
}

/** A cost's ratio to another's with its interval: from both samples when both have them, else end over end of their medians' intervals. */
export function costRatioInterval(c: Pick<RowCost, 'interval' | 'samples'>, top: Pick<RowCost, 'interval' | 'samples'>): CostInterval | undefined {
  return samplesRatioInterval(c.samples, top.samples) ?? ratioInterval(c.interval, top.interval);
}

/**
 * Whether the data leave the row's ranking open: some client's ratio to the fastest has an
 * interval that reaches 1 (costRatioInterval). Where either of two costs has neither samples nor an
 * interval (heap bytes, imported figures), their medians rank them and ties win for each, as the
 * board always did. Which of two slower clients leads is not asked: it moves no win and no divisor.
 */
export function rankingOpen(row: Pick<ScoreRow, 'costs'>): boolean {
  if (row.costs.length < 2) return false;
  const best = Math.min(...row.costs.map((c) => c.unitCost));
  const fastest = row.costs.filter((c) => c.unitCost === best);
  return fastest.some((top) =>
    row.costs.some((c) => {
      if (c === top) return false;
      const ri = costRatioInterval(c, top);
      return ri !== undefined && ri.lo <= 1;
    }),
  );
}

/** A row the board compares: not an unscored group, and at least two runners to compare. */
export function compared(row: ScoreRow): boolean {
  return !UNSCORED_GROUPS.has(row.group) && row.costs.length >= 2;
}

/** Whether a row counts: compared, and its ranking told by the data. */
export function scores(row: ScoreRow): boolean {
  return compared(row) && !rankingOpen(row);
}

/** What the board is taken over: the rows it scores, and the compared rows left out because their ranking is open. */
export interface BoardRows {
  scored: number;
  open: number;
}

export function boardRows(rows: readonly ScoreRow[]): BoardRows {
  const all = rows.filter(compared);
  const scored = all.filter(scores).length;
  return { scored, open: all.length - scored };
}

/**
 * One entry per runner, in the given order. byGroup has the given groups (default: those of the
 * counted rows) less the unscored ones, null where the runner has no figure.
 */
export function scoreRows(rows: readonly ScoreRow[], runners: readonly Runner[], groupIds?: readonly string[]): ScoreEntry[] {
  const counted = rows.filter(scores);
  const groups = (groupIds ?? [...new Set(counted.map((r) => r.group))]).filter((g) => !UNSCORED_GROUPS.has(g));
  return runners.map((runner) => {
    const byGroupRatios = new Map<string, number[]>(groups.map((g) => [g, []]));
    const all: number[] = [];
    let wins = 0;
    for (const row of counted) {
      const mine = row.costs.find((c) => c.runner === runner);
      if (!mine) continue;
      const ratio = mine.unitCost / Math.min(...row.costs.map((c) => c.unitCost));
      byGroupRatios.get(row.group)?.push(ratio);
      all.push(ratio);
      if (ratio === 1) wins++;
    }
    const byGroup = Object.fromEntries([...byGroupRatios].map(([g, rs]) => [g, rs.length > 0 ? geomean(rs) : null]));
    return { runner, wins, rows: all.length, geomean: all.length > 0 ? geomean(all) : null, byGroup };
  });
}
