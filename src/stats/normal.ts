// Standard normal CDF and quantile. Thin wrappers over stdlib's reference
// implementations (erfc / erfinv based) so the rest of src/stats never
// hand-rolls special functions.
import cdf from '@stdlib/stats-base-dists-normal-cdf';
import quantile from '@stdlib/stats-base-dists-normal-quantile';

/** P(Z <= z), or P(Z > z) when `upper`; the upper tail is taken by symmetry so tiny p keep their digits. */
export function pnorm(z: number, upper = false): number {
  return cdf(upper ? -z : z, 0, 1);
}

/** The z with P(Z <= z) = p. */
export function qnorm(p: number): number {
  return quantile(p, 0, 1);
}
