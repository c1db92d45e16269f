// Tests of the Wilcoxon signed-rank test (exact, normal, with ties or zeros) against reference
// values.
import { describe, expect, it } from 'vitest';
import { signedRank, wilcoxonPaired } from '../../src/stats/index.js';
import { BIG } from './data.js';
import { expectClose } from './helpers.js';

// R ?wilcox.test example (Hollander & Wolfe 1973, p. 29f): Hamilton depression scale.
const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];

describe('Wilcoxon signed-rank, exact', () => {
  it('R doc depression example: paired two-sided p = 0.03906, V = 40', () => {
    const r = wilcoxonPaired(x, y);
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(40);
    expectClose(r.p, 0.0390625); // = 10/256; scipy 1.17.1 wilcoxon(method='exact') agrees
    expectClose(r.minP, 2 / 2 ** 9);
  });

  it('R doc depression example: one-sided p = 0.01953 both ways round', () => {
    expectClose(wilcoxonPaired(x, y, { alternative: 'greater' }).p, 0.01953, 1e-3);
    const d = y.map((v, i) => v - (x[i] as number));
    const less = signedRank(d, { alternative: 'less' });
    expect(less.statistic).toBe(5);
    expectClose(less.p, 0.01953, 1e-3);
  });

  it('published R output: wilcox.test(c(0.1,0.3,0.4,0.5,0.8), alt="gr") p = 0.03125', () => {
    // pastebin.com/80FNLWBz (R session)
    expect(signedRank([0.1, 0.3, 0.4, 0.5, 0.8], { alternative: 'greater' }).p).toBe(0.03125);
  });

  it('n = 12 distinct differences (scipy 1.17.1 wilcoxon method="exact")', () => {
    const d = [0.031, -0.012, 0.045, 0.02, 0.067, -0.004, 0.052, 0.011, 0.038, 0.026, -0.019, 0.049];
    const r = signedRank(d);
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(78 - 8); // scipy reports min(W+, W-) = 8; R's V is W+
    expectClose(r.p, 0.01220703125);
  });

  it('minimum achievable p is 2 / 2^n: 0.0625 at n = 5, so five rounds can never reach 0.05', () => {
    expect(signedRank([1, 2, 3, 4, 5]).p).toBe(0.0625);
    expect(signedRank([-1, 2, 3, 4, 5]).minP).toBe(0.0625);
    expect(signedRank([1, 2, 3, 4]).minP).toBe(0.125);
  });
});

describe('Wilcoxon signed-rank, normal approximation (n >= 50, or exact: false)', () => {
  it('R doc: wilcox.test(y - x, alternative="less", exact=FALSE, correct=FALSE) p = 0.01908', () => {
    const d = y.map((v, i) => v - (x[i] as number));
    const r = signedRank(d, { alternative: 'less', exact: false, correct: false });
    expect(r.method).toBe('normal');
    expectClose(r.p, 0.01908, 3e-4);
  });

  it('ties: published R output V = 9.5, p = 0.6845 (pastebin.com/80FNLWBz)', () => {
    const r = signedRank([-0.2, -0.05, 0.1, 0.15, 0.2], { exact: false });
    expect(r.method).toBe('normal');
    expect(r.ties).toBe(true);
    expect(r.statistic).toBe(9.5);
    expectClose(r.p, 0.6844698210251553); // scipy 1.17.1 approx, correction=True; R prints 0.6845
  });

  it('ties, one-sided: published R output V = 103.5, p = 0.007189 (pastebin.com/80FNLWBz)', () => {
    const d = [-0.4, -0.3, -0.1, -0.1, 0.1, 0.2, 0.3, 0.5, 0.7, 0.7, 0.8, 0.8, 0.8, 1.0, 1.0];
    const r = signedRank(d, { alternative: 'greater', exact: false });
    expect(r.statistic).toBe(103.5);
    expectClose(r.p, 0.007189159501099552); // scipy 1.17.1
  });

  it('zeros are dropped (R default, scipy zero_method="wilcox") in the approximation too', () => {
    const d = [0.0, 0.0, 0.12, -0.05, 0.12, 0.3, 0.07, -0.02, 0.2, 0.12, 0.09];
    const r = signedRank(d, { exact: false });
    expect(r.zeros).toBe(2);
    expect(r.n).toBe(9);
    expect(r.method).toBe('normal');
    expect(r.statistic).toBe(42);
    expectClose(r.p, 0.02389175053807397); // scipy 1.17.1 wilcoxon(approx, correction=True)
  });

  it('large n = 60 (scipy 1.17.1 wilcoxon method="approx", correction=True)', () => {
    const r = signedRank(BIG);
    expect(r.method).toBe('normal');
    expect(r.statistic).toBe(1830 - 418); // scipy: min(W+, W-) = 418
    expectClose(r.p, 0.0002570963708259104);
  });

  it('all differences zero: no evidence, p = 1 (R would return NaN)', () => {
    const r = signedRank([0, 0, 0]);
    expect(r).toMatchObject({ p: 1, minP: 1, n: 0, zeros: 3 });
  });

  it('the continuity correction is applied by default and moves p: six zeros, six equal differences', () => {
    // scipy 1.17.1: wilcoxon(d, method='approx', correction=True).pvalue = 0.01965615725016987,
    // correction=False: 0.014305878435429648.
    const d = [0, 0, 0, 0, 0, 0, ...Array<number>(6).fill(Math.log(1.1))];
    expectClose(signedRank(d, { exact: false }).p, 0.01965615725016987);
    expectClose(signedRank(d, { exact: false, correct: false }).p, 0.014305878435429648);
  });
});

describe('Wilcoxon signed-rank, exact permutation with ties or zeros (n < 50)', () => {
  // References: scipy 1.17.1 stats.wilcoxon(d, alternative=alt,
  // method=stats.PermutationMethod(n_resamples=np.inf)) (all 2^n sign patterns, zeros dropped).
  const SIX_ZEROS_SIX_TIED = [0, 0, 0, 0, 0, 0, ...Array<number>(6).fill(Math.log(1.1))];
  const cases: Array<[string, number[], Record<'two.sided' | 'greater' | 'less', number>]> = [
    ['issue 10: six zeros, six equal log-ratios ln 1.1', SIX_ZEROS_SIX_TIED, { 'two.sided': 0.03125, greater: 0.015625, less: 1 }],
    ['ties, n = 5', [-0.2, -0.05, 0.1, 0.15, 0.2], { 'two.sided': 0.6875, greater: 0.34375, less: 0.71875 }],
    [
      'ties and two zeros, n = 11',
      [0.0, 0.0, 0.12, -0.05, 0.12, 0.3, 0.07, -0.02, 0.2, 0.12, 0.09],
      { 'two.sided': 0.01953125, greater: 0.009765625, less: 0.994140625 },
    ],
    [
      'ties, n = 15',
      [-0.4, -0.3, -0.1, -0.1, 0.1, 0.2, 0.3, 0.5, 0.7, 0.7, 0.8, 0.8, 0.8, 1.0, 1.0],
      { 'two.sided': 0.01055908203125, greater: 0.005279541015625, less: 0.995208740234375 },
    ],
    ['three values, two tied', [0.05, 0.08, 0.05], { 'two.sided': 0.25, greater: 0.125, less: 1 }],
  ];
  for (const [name, d, ps] of cases) {
    it(name, () => {
      for (const alternative of ['two.sided', 'greater', 'less'] as const) {
        const r = signedRank(d, { alternative });
        expect(r.method).toBe('exact');
        expectClose(r.p, ps[alternative], 1e-12);
      }
    });
  }

  it('the normal approximation would flag the issue-10 example at 0.02; the exact p cannot', () => {
    expect(signedRank(SIX_ZEROS_SIX_TIED, { exact: false }).p).toBeLessThan(0.02);
    expect(signedRank(SIX_ZEROS_SIX_TIED).p).toBeGreaterThan(0.02);
  });

  it('all differences tied: p is never below the floor 2/2^n, for every n <= 10 (the approximation was)', () => {
    for (let n = 1; n <= 10; n++) {
      const r = signedRank(Array<number>(n).fill(0.1));
      expect(r.p, `n = ${n}`).toBe(2 / 2 ** n > 1 ? 1 : 2 / 2 ** n);
      expect(r.minP).toBe(r.p);
    }
  });

  it('switches to the normal approximation at 50 non-zero differences (zeros do not count)', () => {
    const tied = (n: number) => Array.from({ length: n }, (_, i) => (i % 5) + 1);
    expect(signedRank(tied(49)).method).toBe('exact');
    expect(signedRank([0, 0, 0, ...tied(49)]).method).toBe('exact');
    expect(signedRank(tied(50)).method).toBe('normal');
  });
});
