// z-scores of one group of values: (x - mean) / sd with the n - 1 standard deviation (R's scale()).
// The release experiment standardises download times within each cell so that sizes whose times
// differ by orders of magnitude share one axis. A group with fewer than two values, or no spread,
// has no scale: its z-scores are NaN (R gives NaN too), and the caller leaves them out.
import { mean, sd } from './summary.js';

export function zScores(xs: ArrayLike<number>): number[] {
  const m = mean(xs);
  const s = sd(xs);
  const ok = Number.isFinite(s) && s > 0;
  return Array.from(xs, (x) => (ok ? (x - m) / s : NaN));
}
