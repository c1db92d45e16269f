// The median's order-statistic interval against exact binomial coverage (R: 1 - 2 * pbinom(k - 1, n, 0.5)).
import { describe, expect, it } from 'vitest';
import { medianInterval } from '../../src/stats/median-interval.js';
import { rng } from './random.js';

const ranks = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('medianInterval', () => {
  it('takes the k-th smallest and largest value with the coverage R gives', () => {
    // n, k, coverage = 1 - 2 * pbinom(k - 1, n, 0.5)
    const table: Array<[number, number, number]> = [
      [5, 1, 0.9375],
      [6, 1, 0.96875],
      [9, 2, 0.9609375],
      [10, 2, 0.978515625],
      [20, 6, 0.9586105346679688],
      [100, 40, 0.9647997997822952],
      [1000, 469, 0.9537088026395019],
    ];
    for (const [n, k, coverage] of table) {
      const ci = medianInterval(ranks(n).reverse())!;
      expect([ci.lo, ci.hi], `n = ${n}`).toEqual([k, n + 1 - k]);
      expect(ci.coverage, `n = ${n}`).toBeCloseTo(coverage, 12);
    }
  });

  it('holds the asked confidence from 9 samples on, and a higher confidence never narrows it', () => {
    for (const n of [9, 15, 20, 37, 200]) {
      const ci = medianInterval(ranks(n), 0.95)!;
      expect(ci.coverage).toBeGreaterThanOrEqual(0.95);
      const wider = medianInterval(ranks(n), 0.99)!;
      expect(wider.coverage).toBeGreaterThanOrEqual(0.99);
      expect(wider.lo).toBeLessThanOrEqual(ci.lo);
    }
  });

  it('covers the true median about as often as it says (simulation, exponential samples)', () => {
    const next = rng(11);
    const trueMedian = Math.LN2;
    let hit = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 20 }, () => -Math.log(1 - next()));
      const ci = medianInterval(xs)!;
      if (ci.lo <= trueMedian && trueMedian <= ci.hi) hit++;
    }
    // 0.9586 expected; 4000 trials give a standard error of 0.003.
    expect(hit / trials).toBeGreaterThan(0.945);
    expect(hit / trials).toBeLessThan(0.972);
  });

  it('is null without samples and the one value with one', () => {
    expect(medianInterval([])).toBeNull();
    expect(medianInterval([7])).toEqual({ lo: 7, hi: 7, coverage: 0 });
  });
});
