// Sample size for a two-sided Mann–Whitney test to detect a location shift, by Noether's formula
// (Noether 1987, JASA 82:645): with equal groups the total N = (z_{1-α/2} + z_{1-β})² / (3 (p - ½)²),
// i.e. n = N / 2 per group, where p = P(Y + δ > Y') is the probability that a value shifted by δ
// exceeds an unshifted one. p comes from the observed spread, not from a normal model: the
// residuals of the observed groups (each value minus its group's median, so a shift between the
// groups does not inflate the spread) stand for the common distribution, and p(δ) is the share of
// ordered pairs (i ≠ j) with r_i + δ > r_j, ties counting one half. The approximation is the
// large-sample normal one the formula rests on; it is coarse for very small n, which the caller says.
import { qnorm } from './normal.js';
import { median } from './summary.js';

/** Residuals of each group around its own median, pooled. */
export function medianResiduals(groups: readonly (readonly number[])[]): number[] {
  const out: number[] = [];
  for (const g of groups) {
    const m = median(g);
    for (const v of g) out.push(v - m);
  }
  return out;
}

/** p(δ) = P(r_i + δ > r_j) over ordered pairs i ≠ j of the residuals, ties one half. */
export function shiftExceedance(residuals: readonly number[], shift: number): number {
  const r = Float64Array.from(residuals).sort();
  const n = r.length;
  if (n < 2) return NaN;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const t = (r[i] as number) + shift;
    const below = lowerBound(r, t); // r_j < t
    const upTo = upperBound(r, t); // r_j <= t
    let less = below;
    let ties = upTo - below;
    // Leave out the pair (i, i): it counts as a tie when shift = 0, as "less" when shift > 0.
    if (shift === 0) ties -= 1;
    else if (shift > 0) less -= 1;
    count += less + ties / 2;
  }
  return count / (n * (n - 1));
}

export interface PowerOptions {
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Wanted power 1 - β (default 0.8). */
  power?: number;
}

/** Replicates per group Noether's formula asks for to detect p(δ) = p; Infinity when p = ½. */
export function noetherPerGroup(p: number, opts: PowerOptions = {}): number {
  const alpha = opts.alpha ?? 0.05;
  const power = opts.power ?? 0.8;
  if (!Number.isFinite(p)) return NaN;
  const d = p - 0.5;
  if (d === 0) return Infinity;
  const z = qnorm(1 - alpha / 2) + qnorm(power);
  return Math.ceil((z * z) / (6 * d * d));
}

/** Replicates per group needed to see a shift of `shift` (same unit as the values) given the groups' spread. */
export function replicatesForShift(groups: readonly (readonly number[])[], shift: number, opts: PowerOptions = {}): number {
  return noetherPerGroup(shiftExceedance(medianResiduals(groups), shift), opts);
}

function lowerBound(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if ((a[m] as number) < t) lo = m + 1;
    else hi = m;
  }
  return lo;
}

function upperBound(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if ((a[m] as number) <= t) lo = m + 1;
    else hi = m;
  }
  return lo;
}
