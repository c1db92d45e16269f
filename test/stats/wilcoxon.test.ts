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

describe('Wilcoxon signed-rank, normal approximation', () => {
  it('R doc: wilcox.test(y - x, alternative="less", exact=FALSE, correct=FALSE) p = 0.01908', () => {
    const d = y.map((v, i) => v - (x[i] as number));
    const r = signedRank(d, { alternative: 'less', exact: false, correct: false });
    expect(r.method).toBe('normal');
    expectClose(r.p, 0.01908, 3e-4);
  });

  it('ties: published R output V = 9.5, p = 0.6845 (pastebin.com/80FNLWBz)', () => {
    const r = signedRank([-0.2, -0.05, 0.1, 0.15, 0.2]);
    expect(r.method).toBe('normal');
    expect(r.ties).toBe(true);
    expect(r.statistic).toBe(9.5);
    expectClose(r.p, 0.6844698210251553); // scipy 1.17.1 approx, correction=True; R prints 0.6845
  });

  it('ties, one-sided: published R output V = 103.5, p = 0.007189 (pastebin.com/80FNLWBz)', () => {
    const d = [-0.4, -0.3, -0.1, -0.1, 0.1, 0.2, 0.3, 0.5, 0.7, 0.7, 0.8, 0.8, 0.8, 1.0, 1.0];
    const r = signedRank(d, { alternative: 'greater' });
    expect(r.statistic).toBe(103.5);
    expectClose(r.p, 0.007189159501099552); // scipy 1.17.1
  });

  it('zeros are dropped (R default, scipy zero_method="wilcox") and force the approximation', () => {
    const d = [0.0, 0.0, 0.12, -0.05, 0.12, 0.3, 0.07, -0.02, 0.2, 0.12, 0.09];
    const r = signedRank(d);
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

  it('exact requested with ties falls back to the approximation, as R does', () => {
    expect(signedRank([1, 1, 2, 3], { exact: true }).method).toBe('normal');
  });
});
