// Mann–Whitney U (Wilcoxon rank-sum) test, following R's wilcox.test(x, y) and SciPy's
// mannwhitneyu: exact when both samples have fewer than 50 values, otherwise a normal
// approximation with tie-corrected variance and, by default, continuity correction. The same
// rule as the signed-rank test (wilcoxon.ts): with ties below that size the p is the exact
// permutation distribution over the mid-ranks (rank-sum-permutation.ts; SciPy's
// PermutationMethod), where R falls back to the normal approximation, whose p at small sizes can
// go below what any split of the values reaches.
import { rank, tieSum } from './rank.js';
import { pwilcox } from './rank-sum-dist.js';
import { rankSumPermutation } from './rank-sum-permutation.js';
import { EXACT_BELOW, normalP, type Alternative, type Method, type RankTestOptions } from './wilcoxon.js';

export interface RankSumResult {
  /** W = U of x: the number of (x, y) pairs with x > y, ties counting one half. */
  statistic: number;
  p: number;
  /** Smallest p reachable with these sample sizes (and tie structure). */
  minP: number;
  nx: number;
  ny: number;
  ties: boolean;
  method: Method;
}

export function mannWhitney(xIn: readonly number[], yIn: readonly number[], opts: RankTestOptions = {}): RankSumResult {
  const alternative = opts.alternative ?? 'two.sided';
  const correct = opts.correct ?? true;
  const x = xIn.filter((v) => !Number.isNaN(v));
  const y = yIn.filter((v) => !Number.isNaN(v));
  const nx = x.length;
  const ny = y.length;
  if (nx === 0 || ny === 0) {
    return { statistic: 0, p: 1, minP: 1, nx, ny, ties: false, method: 'normal' };
  }
  const { ranks, ties } = rank([...x, ...y]);
  let rx = 0;
  for (let i = 0; i < nx; i++) rx += ranks[i] as number;
  const w = rx - (nx * (nx + 1)) / 2;
  const mn = nx * ny;
  const extreme = alternative === 'less' ? 0 : mn;

  if (opts.exact ?? (nx < EXACT_BELOW && ny < EXACT_BELOW)) {
    if (ties.length === 0) {
      const p = exactP(w, nx, ny, alternative);
      return { statistic: w, p, minP: exactP(extreme, nx, ny, alternative), nx, ny, ties: false, method: 'exact' };
    }
    return { statistic: w, ...rankSumPermutation(ranks, nx, alternative), nx, ny, ties: true, method: 'exact' };
  }
  const N = nx + ny;
  const sigma = Math.sqrt((mn / 12) * (N + 1 - tieSum(ties) / (N * (N - 1))));
  // All values tied: R yields NaN; there is no evidence of a shift.
  const norm = (stat: number) => (sigma > 0 ? normalP(stat - mn / 2, sigma, alternative, correct) : 1);
  return { statistic: w, p: norm(w), minP: norm(extreme), nx, ny, ties: ties.length > 0, method: 'normal' };
}

function exactP(w: number, nx: number, ny: number, alternative: Alternative): number {
  const mn = nx * ny;
  const lower = (q: number) => pwilcox(q, nx, ny);
  const upper = (q: number) => pwilcox(mn - q, nx, ny); // P(U >= q) by symmetry
  switch (alternative) {
    case 'less':
      return lower(w);
    case 'greater':
      return upper(w);
    default:
      return Math.min(1, 2 * (w > mn / 2 ? upper(w) : lower(w)));
  }
}
