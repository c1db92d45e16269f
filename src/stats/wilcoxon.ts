// Wilcoxon signed-rank test, following R's wilcox.test(x, mu = 0) and SciPy's
// wilcoxon(zero_method='wilcox'): zero differences are dropped before ranking. Below 50 non-zero
// differences the p-value is exact: the null distribution of V = W+ (psignrank) without ties, and
// with tied ranks the exact permutation distribution of the signs over the mid-ranks (what SciPy's
// method='auto' does for n <= 13 and PermutationMethod gives for any n; R falls back to the
// normal approximation there, which at small n goes below what any sign pattern can reach, e.g.
// p = 0.0197 for six zeros and six equal differences whose exact p is 2/2^6 = 0.031). From 50 on,
// a normal approximation with tie-corrected variance and, by default, a continuity correction.
import psignrank from '@stdlib/stats-base-dists-signrank-cdf';
import { pnorm } from './normal.js';
import { rank, tieSum } from './rank.js';

export type Alternative = 'two.sided' | 'less' | 'greater';

export interface RankTestOptions {
  alternative?: Alternative;
  /** Force (true) or forbid (false) the exact distribution; default: exact below 50 non-zero differences (with ties: the exact permutation distribution). */
  exact?: boolean;
  /** Continuity correction in the normal approximation (default true). */
  correct?: boolean;
}

export type Method = 'exact' | 'normal';

export interface SignedRankResult {
  /** V: sum of the ranks of |d| over the positive d. */
  statistic: number;
  p: number;
  /** Smallest p this test could return for this n (and tie structure): p can never go below it, whatever the data. */
  minP: number;
  /** Non-zero differences that entered the test. */
  n: number;
  zeros: number;
  ties: boolean;
  method: Method;
}

/** Below this many observations the exact distribution is used (R: n < 50). */
export const EXACT_BELOW = 50;

/** One-sample signed-rank test of d against location 0 (pass x - y for the paired test). */
export function signedRank(d: readonly number[], opts: RankTestOptions = {}): SignedRankResult {
  const alternative = opts.alternative ?? 'two.sided';
  const correct = opts.correct ?? true;
  const kept = d.filter((v) => !Number.isNaN(v));
  const x = kept.filter((v) => v !== 0);
  const zeros = kept.length - x.length;
  const n = x.length;
  if (n === 0) {
    // R returns NaN here; for a verdict "no evidence of a change" is the honest answer.
    return { statistic: 0, p: 1, minP: 1, n: 0, zeros, ties: false, method: 'normal' };
  }
  const { ranks, ties } = rank(x.map(Math.abs));
  let v = 0;
  for (let i = 0; i < n; i++) if ((x[i] as number) > 0) v += ranks[i] as number;
  const total = (n * (n + 1)) / 2;

  if (opts.exact ?? n < EXACT_BELOW) {
    if (ties.length === 0) {
      const p = exactP(v, n, alternative);
      const minP = exactP(alternative === 'less' ? 0 : total, n, alternative);
      return { statistic: v, p, minP, n, zeros, ties: false, method: 'exact' };
    }
    const perm = permutationP(ranks, v, alternative);
    return { statistic: v, p: perm.p, minP: perm.minP, n, zeros, ties: true, method: 'exact' };
  }
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieSum(ties) / 48);
  const norm = (stat: number) => normalP(stat - total / 2, sigma, alternative, correct);
  return {
    statistic: v,
    p: norm(v),
    minP: norm(alternative === 'less' ? 0 : total),
    n,
    zeros,
    ties: ties.length > 0,
    method: 'normal',
  };
}

/** Paired test of x against y: the signed-rank test of x - y. */
export function wilcoxonPaired(x: readonly number[], y: readonly number[], opts: RankTestOptions = {}): SignedRankResult {
  if (x.length !== y.length) throw new RangeError(`paired samples differ in length: ${x.length} vs ${y.length}`);
  return signedRank(
    x.map((v, i) => v - (y[i] as number)),
    opts,
  );
}

/** The p of an alternative from the statistic's two tails, P(T <= t) and P(T >= t) (lazily). */
export function sidedP(alternative: Alternative, lower: () => number, upper: () => number): number {
  if (alternative === 'less') return lower();
  if (alternative === 'greater') return upper();
  return Math.min(1, 2 * Math.min(lower(), upper()));
}

function exactP(v: number, n: number, alternative: Alternative): number {
  const total = (n * (n + 1)) / 2;
  // Upper tail by symmetry of V (P(V >= v) = P(V <= total - v)), so small p keep full precision.
  return sidedP(
    alternative,
    () => psignrank(v, n),
    () => psignrank(total - v, n),
  );
}

/**
 * Exact p of V over all 2^n sign patterns of the given (mid-)ranks, each equally likely under the
 * null: the distribution of the sum of doubled ranks (whole numbers, so sums compare exactly)
 * by dynamic programming, O(n * n(n+1)). Counts stay below 2^53 for n < 53.
 */
function permutationP(ranks: Float64Array, v: number, alternative: Alternative): { p: number; minP: number } {
  const doubled = Array.from(ranks, (r) => Math.round(2 * r));
  const top = doubled.reduce((a, b) => a + b, 0);
  let counts = new Float64Array(top + 1);
  counts[0] = 1;
  for (const r of doubled) {
    const next = Float64Array.from(counts);
    for (let s = r; s <= top; s++) next[s]! += counts[s - r]!;
    counts = next;
  }
  const patterns = 2 ** doubled.length;
  const atMost = (s: number) => counts.subarray(0, s + 1).reduce((a, b) => a + b, 0) / patterns;
  const atLeast = (s: number) => counts.subarray(s).reduce((a, b) => a + b, 0) / patterns;
  const tailP = (s: number) =>
    sidedP(
      alternative,
      () => atMost(s),
      () => atLeast(s),
    );
  return { p: tailP(Math.round(2 * v)), minP: tailP(alternative === 'less' ? 0 : top) };
}

/**
 * Normal-approximation p for a centred statistic z0 with standard deviation sigma,
 * with R's continuity correction (0.5 towards the centre). Shared with Mann–Whitney.
 */
export function normalP(z0: number, sigma: number, alternative: Alternative, correct: boolean): number {
  let c = 0;
  if (correct) c = alternative === 'two.sided' ? Math.sign(z0) * 0.5 : alternative === 'greater' ? 0.5 : -0.5;
  const z = (z0 - c) / sigma;
  switch (alternative) {
    case 'less':
      return pnorm(z);
    case 'greater':
      return pnorm(z, true);
    default:
      return Math.min(1, 2 * Math.min(pnorm(z), pnorm(z, true)));
  }
}
