// The cross-client scoreboard, one implementation for the report (src/report/model/aggregate.ts) and the
// trend site (src/history/scoreboard.ts): a row is one (case, param) where two or more runners have a time per
// work unit; each runner's ratio to the row's fastest goes into its geometric mean, and wins count
// the rows where it is the fastest (ties win for each). Rows of the harness group never score: they
// time the runners themselves (process, timer, loop), not the clients; nor do rows marked
// low-precision (src/verdict/precision.ts decides which, the caller marks them).
import type { Runner } from '../spec/schema.js';
import { geomean } from './summary.js';

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
  /** Time per work unit of each runner with an ok figure (> 0). */
  costs: ReadonlyArray<{ runner: Runner; unitCost: number }>;
  /** Some runner's figure is low-precision (src/verdict/precision.ts): compared, but not scored. */
  lowPrecision?: boolean;
}

/** A row the board compares: not an unscored group, and at least two runners to compare. */
export function compared(row: ScoreRow): boolean {
  return !UNSCORED_GROUPS.has(row.group) && row.costs.length >= 2;
}

/** Whether a row counts: compared, and not low-precision. */
export function scores(row: ScoreRow): boolean {
  return compared(row) && row.lowPrecision !== true;
}

/** What the board is taken over: the rows it scores, and the compared rows left out as low-precision. */
export interface BoardRows {
  scored: number;
  lowPrecision: number;
}

export function boardRows(rows: readonly ScoreRow[]): BoardRows {
  const all = rows.filter(compared);
  const scored = all.filter(scores).length;
  return { scored, lowPrecision: all.length - scored };
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
