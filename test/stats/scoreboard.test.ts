// The scoreboard's ranking rule (src/stats/scoreboard.ts): a row is scored when the fastest cost's
// median interval lies below every other's, whatever the low-precision mark says; ratio intervals
// span the ends of the two medians' intervals; costs without intervals rank by their medians.
import { describe, expect, it } from 'vitest';
import { boardRows, costInterval, rankingOpen, ratioInterval, scoreRows, type ScoreRow } from '../../src/stats/scoreboard.js';

const samples = (m: number, spread: number, n = 5) => Array.from({ length: n }, (_, i) => m * (1 - spread + (2 * spread * i) / (n - 1)));
const cost = (runner: 'js' | 'go' | 'rs', m: number, spread: number, n = 5) => ({ runner, unitCost: m, interval: costInterval(samples(m, spread, n), 1)! });

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
