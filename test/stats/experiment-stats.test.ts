// The two-sample statistics the release experiment uses (Mann–Whitney, two-sample Hodges–Lehmann,
// BH, z-scores, Noether's sample size), checked on fixed download-like data (seconds) against
// reference values computed outside this project:
//  [R]     R 4.2.2 (Debian r-base-core): wilcox.test(x, y, conf.int = TRUE) (small: exact;
//          large: exact = FALSE, correct = TRUE), p.adjust(p, "BH"), scale(x).
//  [SciPy] SciPy 1.17.1 / NumPy: mannwhitneyu(method = 'exact' | 'asymptotic', use_continuity = True),
//          false_discovery_control; Noether's n = ceil((norm.ppf(0.975) + norm.ppf(0.8))² / (6 (p - ½)²))
//          with p counted by a double loop over the pooled median residuals (pairs i ≠ j, ties ½).
// The data were drawn once (numpy default_rng(37), lognormal) and rounded: SMALL to 3 decimals
// (no ties), LARGE to 1 decimal (many ties: the normal approximation with tie correction).
import { describe, expect, it } from 'vitest';
import {
  benjaminiHochberg,
  hodgesLehmannTwoSample,
  mannWhitney,
  medianResiduals,
  noetherPerGroup,
  replicatesForShift,
  shiftExceedance,
  zScores,
} from '../../src/stats/index.js';
import { expectClose } from './helpers.js';

const SX = [1.572, 1.046, 0.809, 1.462, 1.598, 1.405, 0.557, 0.757, 1.443, 1.879, 0.766, 1.605];
const SY = [2.098, 1.508, 1.004, 1.238, 1.346, 1.845, 1.965, 1.116, 1.455, 1.484];
// prettier-ignore
const LX = [0.7, 1.2, 0.7, 0.8, 0.4, 0.8, 0.5, 1.7, 0.8, 0.9, 0.8, 0.5, 0.7, 0.8, 1.2, 0.9, 0.5, 0.7, 0.8, 0.4, 1.0, 1.1, 0.6, 1.9, 0.9, 0.6, 1.7, 0.6, 0.8, 0.4, 0.5, 1.6, 0.5, 0.6, 0.7, 0.6, 0.5, 0.5, 0.7, 1.5, 1.1, 2.0, 0.6, 0.9, 0.9, 1.0, 1.1, 0.4, 1.4, 0.8, 0.7, 0.9, 0.6, 0.5, 0.7, 0.4, 0.5, 1.1, 1.0, 0.5];
// prettier-ignore
const LY = [0.4, 1.0, 1.0, 0.9, 0.6, 0.9, 0.8, 1.0, 1.1, 0.9, 0.8, 1.1, 1.0, 0.6, 0.9, 1.2, 1.1, 0.8, 0.8, 0.6, 1.0, 1.4, 1.1, 0.7, 1.2, 0.9, 1.2, 0.5, 0.8, 1.2, 1.4, 0.7, 0.7, 1.9, 1.0, 0.8, 1.1, 0.7, 0.5, 0.9, 0.8, 0.7, 0.9, 0.6, 0.7, 0.4, 1.5, 1.6, 0.6, 0.5, 1.1, 1.2, 0.7, 0.6, 1.9];

describe('Mann–Whitney and Hodges–Lehmann on download-like data', () => {
  it('[R][SciPy] 12 vs 10, no ties: exact U, p, shift and interval', () => {
    const t = mannWhitney(SX, SY);
    expect(t.method).toBe('exact');
    expect(t.statistic).toBe(43);
    expectClose(t.p, 0.28293378448177214);
    const hl = hodgesLehmannTwoSample(SX, SY);
    expect(hl.method).toBe('exact');
    expectClose(hl.estimate, -0.26, 1e-12);
    expectClose(hl.lo, -0.655, 1e-12);
    expectClose(hl.hi, 0.143, 1e-12);
  });

  it('[R][SciPy] 60 vs 55 with ties: normal approximation, tie and continuity corrected', () => {
    const t = mannWhitney(LX, LY);
    expect(t.method).toBe('normal');
    expect(t.ties).toBe(true);
    expect(t.statistic).toBe(1286);
    expectClose(t.p, 0.040775023390112797, 1e-12);
    const hl = hodgesLehmannTwoSample(LX, LY);
    expect(hl.method).toBe('normal');
    // R's interval ends come from uniroot (tol 1e-4) on a step function whose steps sit on the
    // pairwise differences (multiples of 0.1 here); R: [-0.20000497, -0.0000396]. The estimate
    // here is the median of the differences (-0.1); R's asymptotic branch reports its uniroot
    // root, -0.10001.
    expect(Math.abs(hl.lo - -0.20000496970554088)).toBeLessThan(1e-4);
    expect(Math.abs(hl.hi - -0.000039574370489110213)).toBeLessThan(1e-4);
    expect(Math.abs(hl.estimate - -0.10001083635439678)).toBeLessThan(1e-4);
  });

  it('[R][SciPy] BH across cells', () => {
    const q = benjaminiHochberg([0.001, 0.04, 0.03, 0.2, 0.5, 0.0004, 0.012]);
    const ref = [0.0035, 0.056, 0.0525, 0.23333333333333336, 0.5, 0.0028, 0.028000000000000004];
    q.forEach((v, i) => expectClose(v, ref[i]!, 1e-12));
  });
});

describe('z-scores', () => {
  it('[R] scale(x): (x - mean) / sd with n - 1', () => {
    // prettier-ignore
    const ref = [0.76623400431748789, -0.45355642071453778, -1.00315780993999404, 0.51114475193436437, 0.82652782760804433, 0.37896213933583706, -1.58754409721769463, -1.12374545652110691, 0.46708388106818882, 1.47816491778674974, -1.10287451768976053, 0.84276078003242461];
    zScores(SX).forEach((z, i) => expectClose(z, ref[i]!, 1e-12));
  });

  it('has no scale for one value or no spread: NaN', () => {
    expect(zScores([3])).toEqual([NaN]);
    expect(zScores([2, 2, 2]).every(Number.isNaN)).toBe(true);
  });
});

describe("Noether's sample size from the observed spread", () => {
  const residuals = medianResiduals([SX, SY]);

  it('[SciPy] p(δ) and n per group for δ = 0.1, 0.25 and -0.25 s', () => {
    expectClose(shiftExceedance(residuals, 0.1), 0.5541125541125541, 1e-12);
    expectClose(shiftExceedance(residuals, 0.25), 0.6515151515151515, 1e-12);
    expectClose(shiftExceedance(residuals, -0.25), 0.3484848484848485, 1e-12);
    expect(replicatesForShift([SX, SY], 0.1)).toBe(447);
    expect(replicatesForShift([SX, SY], 0.25)).toBe(57);
    expect(replicatesForShift([SX, SY], -0.25)).toBe(57);
  });

  it('p(0) is one half: no shift cannot be detected', () => {
    expectClose(shiftExceedance(residuals, 0), 0.5, 1e-12);
    expect(noetherPerGroup(0.5)).toBe(Infinity);
  });

  it('a larger shift or a lower power asks for fewer replicates', () => {
    expect(replicatesForShift([SX, SY], 0.5)).toBeLessThan(replicatesForShift([SX, SY], 0.25));
    expect(noetherPerGroup(0.65, { power: 0.5 })).toBeLessThan(noetherPerGroup(0.65));
  });
});
