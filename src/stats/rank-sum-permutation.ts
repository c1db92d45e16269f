// Exact (permutation) p of the Wilcoxon rank-sum statistic that stays exact under ties: the null
// distribution of x's mid-rank sum over all C(nx + ny, nx) ways to split the pooled values, counted
// by dynamic programming on doubled mid-ranks (integers). This is the conditional exact test of
// coin::wilcox_test(distribution = "exact"); without ties it equals R's exact wilcox.test p.
// Cost O(N * nx * N^2) time: meant for small windows (shift markers use 5 + 5). Without ties the
// exact Mann–Whitney p (the same value) is used, which is far cheaper.
import { mannWhitney } from './mann-whitney.js';
import { rank } from './rank.js';

/** Two-sided p = min(1, 2 * min(P(S <= s), P(S >= s))), S = x's rank sum under random splits. */
export function rankSumPermutationP(x: readonly number[], y: readonly number[]): number {
  const nx = x.length;
  const n = nx + y.length;
  if (nx === 0 || y.length === 0) return 1;
  const ranked = rank([...x, ...y]);
  if (ranked.ties.length === 0) return mannWhitney(x, y, { exact: true }).p;
  const doubled = Array.from(ranked.ranks, (r) => Math.round(2 * r));
  let observed = 0;
  for (let i = 0; i < nx; i++) observed += doubled[i] as number;
  const maxSum = 2 * n * n;
  // ways[k][s]: subsets of the values seen so far with k members and doubled rank sum s.
  const ways = Array.from({ length: nx + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  for (const r of doubled) {
    for (let k = nx; k >= 1; k--) {
      const to = ways[k]!;
      const from = ways[k - 1]!;
      for (let s = maxSum - r; s >= 0; s--) if (from[s]) to[s + r]! += from[s]!;
    }
  }
  const dist = ways[nx]!;
  let total = 0;
  let below = 0;
  let above = 0;
  for (let s = 0; s <= maxSum; s++) {
    const w = dist[s]!;
    total += w;
    if (s <= observed) below += w;
    if (s >= observed) above += w;
  }
  return Math.min(1, (2 * Math.min(below, above)) / total);
}
