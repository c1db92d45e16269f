// Tests of Benjamini–Hochberg against published reference values.
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/stats/index.js';
import { expectClose } from './helpers.js';

describe('Benjamini–Hochberg', () => {
  it('matches scipy 1.17.1 false_discovery_control(method="bh") with tied p-values', () => {
    const p = [0.01, 0.04, 0.04, 0.03, 0.5, 0.001, 0.04, 0.2, 0.01, 0.9];
    const expected = [
      0.03333333333333333, 0.05714285714285715, 0.05714285714285715, 0.05714285714285715, 0.5555555555555556, 0.01, 0.05714285714285715, 0.25,
      0.03333333333333333, 0.9,
    ];
    benjaminiHochberg(p).forEach((q, i) => expectClose(q, expected[i] as number, 1e-12));
  });

  it("R's p.adjust rules: q is monotone in p, capped at 1, NaN passes through and is not counted", () => {
    expect(benjaminiHochberg([0.9, 0.95, 1])).toEqual([1, 1, 1]);
    const q = benjaminiHochberg([0.01, NaN, 0.02]);
    expect(q[1]).toBeNaN();
    expectClose(q[0] as number, 0.02); // m = 2, not 3
    expectClose(q[2] as number, 0.02);
    expect(benjaminiHochberg([])).toEqual([]);
  });
});
