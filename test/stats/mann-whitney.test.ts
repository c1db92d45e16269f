// Tests of Mann–Whitney U (exact, normal approximation, with ties) against reference values.
import { describe, expect, it } from 'vitest';
import { mannWhitney, pwilcox, qwilcox } from '../../src/stats/index.js';
import { BX, BY } from './data.js';
import { expectClose } from './helpers.js';

// R ?wilcox.test example (Hollander & Wolfe 1973, p. 69f): permeability constants.
const px = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
const py = [1.15, 0.88, 0.9, 0.74, 1.21];

describe('Mann–Whitney U, exact', () => {
  it('R doc permeability example: W = 35, one-sided p = 0.1272', () => {
    const r = mannWhitney(px, py, { alternative: 'greater' });
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(35);
    expectClose(r.p, 0.1272061272061272); // scipy 1.17.1 mannwhitneyu(method='exact'); R prints 0.1272
  });

  it('two-sided (scipy 1.17.1 mannwhitneyu method="exact")', () => {
    expectClose(mannWhitney(px, py).p, 0.2544122544122544);
    expectClose(mannWhitney([1, 2], [3, 4, 5]).p, 0.2);
  });

  it('minimum p with n = m matches benchstat benchmath uTestMinP (golang.org/x/perf)', () => {
    const minP = (n: number) =>
      mannWhitney(
        Array.from({ length: n }, (_, i) => i),
        Array.from({ length: n }, (_, i) => i + 0.5),
      ).minP;
    expectClose(minP(3), 0.1);
    expectClose(minP(4), 0.02857142857142857);
    expectClose(minP(5), 0.007936507936507936);
    expectClose(minP(9), 4.113533525298231e-5);
  });

  it('exact distribution: pwilcox / qwilcox agree with C(m+n, m) counting', () => {
    // U for m = n = 2 takes 0,1,2,2,3,4 over the 6 arrangements.
    expectClose(pwilcox(1, 2, 2), 2 / 6);
    expectClose(pwilcox(2, 2, 2), 4 / 6);
    expect(qwilcox(0.5, 2, 2)).toBe(2);
    expect(pwilcox(-1, 3, 4)).toBe(0);
    expect(pwilcox(12, 3, 4)).toBe(1);
    // Symmetry of U and the total mass at sizes where counts exceed 2^53.
    expectClose(pwilcox(1200, 49, 49) + pwilcox(49 * 49 - 1201, 49, 49), 1, 1e-12);
  });
});

describe('Mann–Whitney U, normal approximation', () => {
  it('R doc: exact = FALSE, correct = FALSE, one-sided p = 0.1103', () => {
    const r = mannWhitney(px, py, { alternative: 'greater', exact: false, correct: false });
    expectClose(r.p, 0.1103, 5e-4);
  });

  // R's wilcox.test falls back to this with ties at any size; here it needs exact: false below 50.
  it('ties: published R output W = 51.5, p = 0.5966 (endmemo.com/r/wilcoxon.php)', () => {
    const r = mannWhitney([1, 5, 9, 24, 56, 21, 3, 7, 21, 4], [12, 15, 5, 9, 9, 14, 56, 22, 3, 7, 32, 5], { exact: false });
    expect(r.method).toBe('normal');
    expect(r.statistic).toBe(51.5);
    expectClose(r.p, 0.5965969026279817); // scipy 1.17.1 asymptotic, use_continuity=True
  });

  it('ties: published R output W = 0, p = 0.001364 (endmemo.com/r/wilcoxon.php)', () => {
    const r = mannWhitney([1, 5, 9, 24, 56, 21, 3, 7, 21, 4], [1233, 4356, 987, 39999, 1111, 200000], { exact: false });
    expect(r.statistic).toBe(0);
    expectClose(r.p, 0.0013643929543816092); // scipy 1.17.1
  });

  it('ties: published R output W = 4, p = 0.01778 (pastebin.com/1J1nivKv)', () => {
    const r = mannWhitney([1, 2, 2, 4, 5, 3, 0], [4, 6, 3, 8, 11, 11], { exact: false });
    expect(r.statistic).toBe(4);
    expectClose(r.p, 0.017778372968701422); // scipy 1.17.1
  });

  it('large samples 60 vs 70 (scipy 1.17.1 mannwhitneyu method="asymptotic")', () => {
    const r = mannWhitney(BX, BY);
    expect(r.method).toBe('normal');
    expect(r.statistic).toBe(2890.5);
    expectClose(r.p, 0.0002247131114197336);
  });

  it('all values tied: p = 1 (R would return NaN)', () => {
    expect(mannWhitney([2, 2, 2], [2, 2]).p).toBe(1);
  });
});

// References: scipy 1.17.1 mannwhitneyu(x, y, alternative=..., method=PermutationMethod(n_resamples=np.inf)),
// the exact permutation distribution under ties (its method='exact' ignores ties).
describe('Mann–Whitney U with ties, below 50 per sample: exact permutation p', () => {
  const a = [1, 5, 9, 24, 56, 21, 3, 7, 21, 4];
  it('matches SciPy PermutationMethod on the published tie examples, all three alternatives', () => {
    const cases: Array<[number[], number[], Record<'two.sided' | 'greater' | 'less', number>]> = [
      [a, [12, 15, 5, 9, 9, 14, 56, 22, 3, 7, 32, 5], { 'two.sided': 0.5930694692304599, greater: 0.7151439891377972, less: 0.29653473461522994 }],
      [a, [1233, 4356, 987, 39999, 1111, 200000], { 'two.sided': 0.00024975024975024975, greater: 1, less: 0.00012487512487512488 }],
      [[1, 2, 2, 4, 5, 3, 0], [4, 6, 3, 8, 11, 11], { 'two.sided': 0.01282051282051282, greater: 0.9965034965034965, less: 0.00641025641025641 }],
      [[10, 10, 11, 12, 12, 13], [9, 10, 10, 11, 8, 12], { 'two.sided': 0.16883116883116883, greater: 0.08441558441558442, less: 0.9588744588744589 }],
      [
        [12, 10, 11, 12, 14, 10, 13, 12, 11, 15, 10, 12],
        [9, 10, 11, 8, 10, 9, 12, 9, 10, 11],
        { 'two.sided': 0.0068692916990130614, greater: 0.0034346458495065307, less: 0.9978643647374298 },
      ],
    ];
    for (const [x, y, ref] of cases) {
      for (const alternative of ['two.sided', 'greater', 'less'] as const) {
        const r = mannWhitney(x, y, { alternative });
        expect(r).toMatchObject({ method: 'exact', ties: true });
        expectClose(r.p, ref[alternative], 1e-12);
        expect(r.p).toBeGreaterThanOrEqual(r.minP);
      }
    }
  });

  it('three tied values against three: p = minP = 2/20, where the normal approximation claims 0.047', () => {
    const r = mannWhitney([3, 3, 3], [1, 1, 1]);
    expectClose(r.p, 0.1, 1e-12); // scipy PermutationMethod: 0.1; asymptotic: 0.04685417760387376
    expectClose(r.minP, 0.1, 1e-12);
    expectClose(mannWhitney([3, 3, 3], [1, 1, 1], { exact: false }).p, 0.04685417760387376);
  });

  it('switches to the normal approximation at 50 values in a sample', () => {
    // 49 + 49, ties in both: exact. Complete separation: one split of C(98, 49) per tail.
    const sep = mannWhitney(Array(49).fill(2), Array(49).fill(1));
    expect(sep.method).toBe('exact');
    expect(sep.p / 7.850029192963324e-29).toBeCloseTo(1, 10); // 2 / math.comb(98, 49)
    expect(sep.minP).toBe(sep.p);
    const fifty = mannWhitney(Array(50).fill(2), Array(49).fill(1));
    expect(fifty.method).toBe('normal');
    expectClose(fifty.p, 4.3562787255415573e-23); // scipy method='asymptotic'
    // Threes of equal values, 49 + 49: exact at the largest size; SciPy cannot enumerate C(98, 49)
    // splits, so its Monte Carlo PermutationMethod(n_resamples=200000, rng=1): 0.05040 (SE 0.0005).
    const x = Array.from({ length: 49 }, (_, i) => Math.floor(i / 3));
    const y = x.map((v) => v + 2);
    const r = mannWhitney(x, y);
    expect(r.method).toBe('exact');
    expect(Math.abs(r.p - 0.05039974800125999)).toBeLessThan(0.002);
  });
});
