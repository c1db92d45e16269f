// The scoreboard's ranking rule (src/stats/scoreboard.ts): a row is scored when every client's ratio
// to the fastest has an interval above 1, whatever the low-precision mark says; the ratio's interval
// is the two-sample Hodges–Lehmann one of both clients' iterations, else the end over end of the two
// medians' intervals; costs without either rank by their medians. Real rows of a loaded machine
// (test/stats/loaded-rows.ts) that the overlap of the medians' intervals left open are ranked.
import { describe, expect, it } from 'vitest';
import { median } from '../../src/stats/summary.js';
import {
  boardRows,
  costInterval,
  costRatioInterval,
  costSamples,
  rankingOpen,
  ratioInterval,
  samplesRatioInterval,
  scoreRows,
  type RowCost,
  type ScoreRow,
} from '../../src/stats/scoreboard.js';
import type { Runner } from '../../src/spec/schema.js';
import { OPEN, TOLD_APART, type LoadedRow } from './loaded-rows.js';

/** A loaded row as the report builds it: per-unit medians, their intervals and the iterations in the same unit. */
function loadedRow(row: LoadedRow): ScoreRow {
  const costs = Object.entries(row).map(
    ([runner, cell]): RowCost => ({
      runner: runner as Runner,
      unitCost: median(cell.samples) / cell.units,
      interval: costInterval(cell.samples, cell.units)!,
      samples: costSamples(cell.samples, cell.units)!,
    }),
  );
  return { group: 'cpu', costs };
}

const samples = (m: number, spread: number, n = 5) => Array.from({ length: n }, (_, i) => m * (1 - spread + (2 * spread * i) / (n - 1)));
const cost = (runner: 'js' | 'go' | 'rs', m: number, spread: number, n = 5) => ({ runner, unitCost: m, interval: costInterval(samples(m, spread, n), 1)! });

describe('the ranking rule on a loaded machine', () => {
  it.each(Object.entries(TOLD_APART))("ranks %s, which the overlap of the medians' intervals left open", (_, data) => {
    const row = loadedRow(data);
    expect(rankingOpen(row)).toBe(false);
    expect(boardRows([row])).toEqual({ scored: 1, open: 0 });
    // The medians' intervals overlap (the earlier rule's reason to leave it open) ...
    const top = row.costs.reduce((a, b) => (b.unitCost < a.unitCost ? b : a));
    expect(row.costs.some((c) => c !== top && c.interval!.lo <= top.interval!.hi)).toBe(true);
    // ... while every ratio's interval from the iterations lies above 1.
    for (const c of row.costs) if (c !== top) expect(costRatioInterval(c, top)!.lo).toBeGreaterThan(1);
  });

  it.each(Object.entries(OPEN))('leaves %s open: its clients are not told apart by their iterations', (_, data) => {
    const row = loadedRow(data);
    expect(rankingOpen(row)).toBe(true);
    expect(boardRows([row])).toEqual({ scored: 0, open: 1 });
  });

  it('takes the ratio interval from both samples, narrower than end over end, and falls back without samples', () => {
    const row = loadedRow(TOLD_APART['cpu.bmt.file-root']!);
    const [go, rs] = ['go', 'rs'].map((r) => row.costs.find((c) => c.runner === r)!);
    const both = samplesRatioInterval(rs!.samples, go!.samples)!;
    const ends = ratioInterval(rs!.interval, go!.interval)!;
    expect(both.lo).toBeGreaterThan(ends.lo);
    expect(both.hi).toBeLessThan(ends.hi);
    expect(costRatioInterval({ interval: rs!.interval! }, go!)).toEqual(ends);
    expect(samplesRatioInterval([1], [2, 3])).toBeUndefined();
    expect(samplesRatioInterval([0, 1], [2, 3])).toBeUndefined();
  });
});

describe('the ranking rule', () => {
  it('ranks rows 9x apart even when each median is ±40% wide (low precision for an A/B claim)', () => {
    const row: ScoreRow = { group: 'cpu', costs: [cost('js', 9, 0.4), cost('go', 1, 0.4)] };
    expect(rankingOpen(row)).toBe(false);
    expect(boardRows([row])).toEqual({ scored: 1, open: 0 });
    expect(scoreRows([row], ['js', 'go'])[0]!.geomean).toBeCloseTo(9, 12);
  });

  it('leaves a row open when the fastest interval reaches into the next one', () => {
    const row: ScoreRow = { group: 'cpu', costs: [cost('js', 1.1, 0.1), cost('go', 1, 0.1)] };
    expect(rankingOpen(row)).toBe(true);
    expect(boardRows([row])).toEqual({ scored: 0, open: 1 });
    expect(scoreRows([row], ['js', 'go'])[0]!.rows).toBe(0);
  });

  it('only the fastest decides: two slower clients whose intervals overlap keep the row scored', () => {
    const row: ScoreRow = { group: 'cpu', costs: [cost('js', 10, 0.2), cost('go', 1, 0.05), cost('rs', 10.5, 0.2)] };
    expect(rankingOpen(row)).toBe(false);
  });

  it('ranks costs without intervals by their medians, ties winning for each (heap bytes, imported figures)', () => {
    expect(
      rankingOpen({
        costs: [
          { runner: 'js', unitCost: 1 },
          { runner: 'go', unitCost: 1 },
        ],
      }),
    ).toBe(false);
    expect(
      scoreRows(
        [
          {
            group: 'cpu',
            costs: [
              { runner: 'js', unitCost: 1 },
              { runner: 'go', unitCost: 1 },
            ],
          },
        ],
        ['js', 'go'],
      ).map((e) => e.wins),
    ).toEqual([1, 1]);
  });

  it('narrows the interval as iterations grow (order statistics, not the range, from 9 samples on)', () => {
    const five = costInterval(samples(1, 0.3, 5), 1)!;
    const twenty = costInterval(samples(1, 0.3, 20), 1)!;
    expect(five.lo).toBeCloseTo(0.7, 12);
    expect(five.hi).toBeCloseTo(1.3, 12);
    expect(twenty.hi - twenty.lo).toBeLessThan(five.hi - five.lo);
    expect(costInterval([5], 1)).toBeUndefined();
  });

  it('gives the ratio of two medians the interval of end over end', () => {
    expect(ratioInterval({ lo: 8, hi: 10 }, { lo: 1, hi: 2 })).toEqual({ lo: 4, hi: 10 });
    expect(ratioInterval({ lo: 8, hi: 10 }, undefined)).toBeUndefined();
  });
});
