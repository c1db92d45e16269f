// Exact (permutation) distribution of the Wilcoxon rank-sum statistic that stays exact under ties:
// x's mid-rank sum over all C(nx + ny, nx) ways to split the pooled values, counted by dynamic
// programming on doubled mid-ranks (integers, so sums compare exactly). This is the conditional
// exact test of coin::wilcox_test(distribution = "exact") and SciPy's mannwhitneyu with
// PermutationMethod(n_resamples=inf). mannWhitney uses it for tied samples below its exact
// threshold; without ties its exact p (pwilcox) is the same value, far cheaper.
// Cost O(N * nx * N^2) time for N pooled values.
import { sidedP, type Alternative } from './wilcoxon.js';

/** p and the smallest reachable p (x taking the lowest or highest ranks) of x's rank sum, x = the first nx of ranks. */
export function rankSumPermutation(ranks: ArrayLike<number>, nx: number, alternative: Alternative): { p: number; minP: number } {
  const doubled = Array.from(ranks, (r) => Math.round(2 * r));
  let observed = 0;
  for (let i = 0; i < nx; i++) observed += doubled[i]!;
  const maxSum = doubled.reduce((a, b) => a + b, 0);
  // ways[k][s]: subsets of the values seen so far with k members and doubled rank sum s.
  const ways = Array.from({ length: nx + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  let reach = 0;
  doubled.forEach((r, seen) => {
    reach += r;
    for (let k = Math.min(nx, seen + 1); k >= 1; k--) {
      const to = ways[k]!;
      const from = ways[k - 1]!;
      for (let s = reach - r; s >= 0; s--) if (from[s]) to[s + r]! += from[s]!;
    }
  });
  const dist = ways[nx]!;
  const total = dist.reduce((a, b) => a + b, 0);
  const below = (s: number) => dist.subarray(0, s + 1).reduce((a, b) => a + b, 0) / total;
  const above = (s: number) => dist.subarray(s).reduce((a, b) => a + b, 0) / total;
  const tailP = (s: number) =>
    sidedP(
      alternative,
      () => below(s),
      () => above(s),
    );
  const lowest = dist.findIndex((w) => w > 0);
  let highest = maxSum;
  while (highest > 0 && !dist[highest]) highest--;
  return { p: tailP(observed), minP: Math.min(tailP(lowest), tailP(highest)) };
}
