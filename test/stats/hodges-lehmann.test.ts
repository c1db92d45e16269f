// Tests of the one- and two-sample Hodges–Lehmann estimates and intervals against reference values.
import { describe, expect, it } from 'vitest';
import { hodgesLehmann, hodgesLehmannTwoSample, walshAverages } from '../../src/stats/index.js';
import { BIG, BX, BY } from './data.js';
import { expectClose } from './helpers.js';

// Sources:
//  [ISU]  Iowa State Stat 403 "membrane" worked example (public.iastate.edu/~wrstephe/stat403/membrane):
//         HL = 28th of 55 Walsh averages = 1.385; 95.2% interval = 9th..47th = 1.13 to 1.67.
//  [UMN]  Geyer, Stat 5601 rank-sum examples (stat.umn.edu/geyer/.../ranksum.html), Hollander & Wolfe
//         Example 4.3/4.4 on the R doc permeability data: median of pairwise differences
//         y - x = -0.305, achieved confidence 96.0%.
//  [Rport] a direct Python port of R's stats:::wilcox.test conf.int code (exact order statistics;
//         asymptotic: uniroot replaced by bisection to 1e-13), numpy 2.4.6 / scipy 1.17.1.

describe('one-sample Hodges–Lehmann, exact interval', () => {
  it('[ISU] membrane data: estimate 1.385, interval [1.13, 1.67] at 95.2%', () => {
    const r = hodgesLehmann([0.9, 1.13, 1.89, 1.14, 1.45, 1.38, 1.91, 1.64, 0.83, 1.46]);
    expect(r.method).toBe('exact');
    expectClose(r.estimate, 1.385);
    expectClose(r.lo, 1.13);
    expectClose(r.hi, 1.67);
    expectClose(r.achievedConfLevel, 0.951171875); // 1 - 2 * 25/1024
    expect(r.confLevel).toBe(0.95);
  });

  it('[Rport] R doc depression differences: 0.46 [0.010, 0.786]', () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const r = hodgesLehmann(x.map((v, i) => v - (y[i] as number)));
    expectClose(r.estimate, 0.46);
    expectClose(r.lo, 0.01);
    expectClose(r.hi, 0.786);
    expectClose(r.achievedConfLevel, 0.9609375);
  });

  it('[Rport] n = 12 at 95% and 90%', () => {
    const d = [0.031, -0.012, 0.045, 0.02, 0.067, -0.004, 0.052, 0.011, 0.038, 0.026, -0.019, 0.049];
    const r95 = hodgesLehmann(d);
    expectClose(r95.estimate, 0.02575);
    expectClose(r95.lo, 0.007);
    expectClose(r95.hi, 0.045);
    const r90 = hodgesLehmann(d, { confLevel: 0.9 });
    expectClose(r90.lo, 0.011);
    expectClose(r90.hi, 0.0415);
    expectClose(r90.achievedConfLevel, 0.90771484375);
  });

  it('[Rport] n = 4: 95% is out of reach, R reports conf.level 0.88 and the full range', () => {
    const r = hodgesLehmann([0.02, 0.05, -0.01, 0.03]);
    expect(r.confLevel).toBe(0.88);
    expect(r.lo).toBe(-0.01);
    expect(r.hi).toBe(0.05);
  });

  it('Walsh averages: n(n+1)/2 of them, sorted', () => {
    expect(Array.from(walshAverages([1, 3, 2]))).toEqual([1, 1.5, 2, 2, 2.5, 3]);
  });
});

describe('one-sample Hodges–Lehmann, asymptotic interval', () => {
  it('[Rport] zeros and ties (n = 11): 0.085 [0.01, 0.16]', () => {
    const r = hodgesLehmann([0.0, 0.0, 0.12, -0.05, 0.12, 0.3, 0.07, -0.02, 0.2, 0.12, 0.09]);
    expect(r.method).toBe('normal');
    expectClose(r.estimate, 0.085);
    expectClose(r.lo, 0.01, 1e-9);
    expectClose(r.hi, 0.16, 1e-9);
  });

  it('[Rport] large n = 60: 0.0467 [0.0233, 0.0709]', () => {
    const r = hodgesLehmann(BIG);
    expect(r.method).toBe('normal');
    expectClose(r.estimate, 0.0467);
    expectClose(r.lo, 0.0233);
    expectClose(r.hi, 0.0709);
  });

  it('[Rport] three values, two tied: R widens alpha to >= 1, reports conf.level 0 and the median', () => {
    const r = hodgesLehmann([0.1, 0.1, 0.2]);
    expect(r.confLevel).toBe(0);
    expect([r.lo, r.hi]).toEqual([0.1, 0.1]);
  });

  it('all values equal: a point interval', () => {
    const r = hodgesLehmann([0, 0, 0, 0]);
    expect([r.estimate, r.lo, r.hi]).toEqual([0, 0, 0]);
  });
});

describe('two-sample Hodges–Lehmann', () => {
  const px = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
  const py = [1.15, 0.88, 0.9, 0.74, 1.21];

  it('[UMN] permeability: shift 0.305 at achieved 96.0%; [Rport] interval [-0.15, 0.76]', () => {
    const r = hodgesLehmannTwoSample(px, py);
    expect(r.method).toBe('exact');
    expectClose(r.estimate, 0.305);
    expect(r.achievedConfLevel.toFixed(3)).toBe('0.960');
    expectClose(r.lo, -0.15);
    expectClose(r.hi, 0.76);
  });

  it('[Rport] tiny samples: 95% unreachable, R reports conf.level 0.8 and [min, max] of differences', () => {
    const r = hodgesLehmannTwoSample([1, 2], [3, 4, 5]);
    expect(r).toMatchObject({ estimate: -2.5, lo: -4, hi: -1, method: 'exact' });
    expectClose(r.confLevel, 0.8);
  });

  it('[Rport] ties, asymptotic: endmemo data -2 [-10, 12]; pastebin data -4.5 [-9, -1]', () => {
    const a = hodgesLehmannTwoSample([1, 5, 9, 24, 56, 21, 3, 7, 21, 4], [12, 15, 5, 9, 9, 14, 56, 22, 3, 7, 32, 5]);
    expect(a.method).toBe('normal');
    expect([a.estimate, a.lo, a.hi]).toEqual([-2, -10, 12]);
    const b = hodgesLehmannTwoSample([1, 2, 2, 4, 5, 3, 0], [4, 6, 3, 8, 11, 11]);
    expect([b.estimate, b.lo, b.hi]).toEqual([-4.5, -9, -1]);
  });

  it('[Rport] large samples 60 vs 70: 0.117 [0.054, 0.181]', () => {
    const r = hodgesLehmannTwoSample(BX, BY);
    expect(r.method).toBe('normal');
    expectClose(r.estimate, 0.117);
    expectClose(r.lo, 0.054, 1e-9);
    expectClose(r.hi, 0.181, 1e-9);
  });
});
