// Tests of the rank-sum permutation p.
import { describe, expect, it } from 'vitest';
import { mannWhitney, rank, rankSumPermutation } from '../../src/stats/index.js';

/** Two-sided permutation p of x against y. */
const rankSumPermutationP = (x: readonly number[], y: readonly number[]) => rankSumPermutation(rank([...x, ...y]).ranks, x.length, 'two.sided').p;

/** Reference by brute force: every split of the pooled values into |x| and |y| members. */
function enumerateP(x: readonly number[], y: readonly number[]): number {
  const pooled = [...x, ...y];
  const r = Array.from(rank(pooled).ranks);
  const observed = x.reduce((s, _, i) => s + r[i]!, 0);
  let total = 0;
  let below = 0;
  let above = 0;
  const pick = (start: number, left: number, sum: number) => {
    if (left === 0) {
      total++;
      if (sum <= observed + 1e-9) below++;
      if (sum >= observed - 1e-9) above++;
      return;
    }
    for (let i = start; i <= pooled.length - left; i++) pick(i + 1, left - 1, sum + r[i]!);
  };
  pick(0, x.length, 0);
  return Math.min(1, (2 * Math.min(below, above)) / total);
}

describe('rankSumPermutation', () => {
  it("equals the exact Mann–Whitney p (R's wilcox.test) when there are no ties", () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.07, 3.14, 1.28];
    const ref = mannWhitney(x, y, { exact: true });
    expect(ref.method).toBe('exact');
    expect(rankSumPermutationP(x, y)).toBeCloseTo(ref.p, 12);
    expect(rankSumPermutationP([6, 7, 8, 9, 10], [1, 2, 3, 4, 5])).toBeCloseTo(2 / 252, 12);
  });

  it('matches enumerating every split, with ties and without', () => {
    const cases: Array<[number[], number[]]> = [
      [
        [125, 126, 124, 125, 127],
        [101, 99, 100, 98, 97],
      ],
      [
        [1, 2, 2, 3],
        [2, 3, 3, 4, 5],
      ],
      [
        [5, 5, 5],
        [5, 5, 6, 1],
      ],
      [
        [10, 10, 11, 12, 12, 13],
        [9, 10, 10, 11, 8, 12],
      ],
      [
        [1.83, 0.5, 1.62, 2.48],
        [0.878, 0.647, 2.05, 1.06, 3.14],
      ], // no ties: the exact path
    ];
    for (const [x, y] of cases) expect(rankSumPermutationP(x, y)).toBeCloseTo(enumerateP(x, y), 12);
    expect(rankSumPermutationP([125, 126, 124, 125, 127], [101, 99, 100, 98, 97])).toBeCloseTo(2 / 252, 12);
    expect(rankSumPermutationP([3, 3], [3, 3])).toBe(1);
  });
});
