// The cross-client scoreboard, one implementation for the report (src/report/model/aggregate.ts) and the
// trend site (src/history/scoreboard.ts): a row is one (case, param) where two or more runners have a time per
// work unit; each runner's ratio to the row's fastest goes into its geometric mean, and wins count
// the rows where it is the fastest (ties win for each). Rows of the harness group never score: they
// time the runners themselves (process, timer, loop), not the clients; nor do rows whose ranking is
// open: the fastest client's interval (each cost's median interval from its iterations, order
// statistics, src/stats/median-interval.ts) overlaps another client's, so which client is fastest,
// what the ratios divide by and who wins, is not told by the data. A row whose costs carry no
// interval (figures without samples) is ranked by its medians. The low-precision mark
// (src/verdict/precision.ts) is for A/B-size claims and does not keep a row out of the board.
import type { Runner } from '../spec/schema.js';
import { medianInterval } from './median-interval.js';
import { geomean } from './summary.js';

/** The confidence of each median's interval the ranking rule compares. */
export const RANKING_CONFIDENCE = 0.95;

/**
 * The rule in one sentence, for captions, legends and docs (words from the constant, so they cannot
 * drift from the code).
 */
export const RANKING_RULE = `a row is scored when the fastest client's ${RANKING_CONFIDENCE * 100}% median interval (order statistics of its iterations) lies wholly below every other client's; otherwise its ranking is open and it is left out`;

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

/**
 * The interval of a ratio of two medians, cost a over cost b, from their intervals: [a.lo / b.hi,
 * a.hi / b.lo]. Each side covers its median with (about) 95%, so the pair covers the ratio with at
 * least about 90% whatever the distributions (no normal assumption); undefined without both.
 */
export function ratioInterval(a: CostInterval | undefined, b: CostInterval | undefined): CostInterval | undefined {
  if (!a || !b || !(b.lo > 0) || !(b.hi > 0)) return undefined;
  return { lo: a.lo / b.hi, hi: a.hi / b.lo };
}

/**
 * Whether the data leave the row's ranking open: the fastest cost's interval reaches into (or past)
 * another cost's interval. Where either of two costs has no interval (figures without samples, heap
 * bytes), their medians rank them and ties win for each, as the board always did.
 */
export function rankingOpen(row: Pick<ScoreRow, 'costs'>): boolean {
  if (row.costs.length < 2) return false;
  const best = Math.min(...row.costs.map((c) => c.unitCost));
  const fastest = row.costs.filter((c) => c.unitCost === best);
  return fastest.some((top) => row.costs.some((c) => c !== top && top.interval !== undefined && c.interval !== undefined && c.interval.lo <= top.interval.hi));
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
