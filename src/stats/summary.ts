// Descriptive statistics of one sample (a case's iterations, or a series).
// Empty input gives NaN rather than throwing: a skipped case has no samples,
// and the report decides how to show that.

/** Ascending copy; Float64Array sorts numerically, unlike Array#sort. */
export function sorted(xs: ArrayLike<number>): Float64Array {
  return Float64Array.from(xs).sort();
}

/** Hyndman–Fan type 7 (R's default, numpy's 'linear') on already-sorted data. */
export function quantileSorted(s: ArrayLike<number>, p: number): number {
  const n = s.length;
  if (n === 0 || !(p >= 0 && p <= 1)) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = s[lo] as number;
  if (lo + 1 >= n) return a;
  return a + (h - lo) * ((s[lo + 1] as number) - a);
}

/** Sample quantile, type 7. */
export function quantile(xs: ArrayLike<number>, p: number): number {
  return quantileSorted(sorted(xs), p);
}

export function median(xs: ArrayLike<number>): number {
  return quantile(xs, 0.5);
}

export function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] as number;
  return s / xs.length;
}

/** Sample standard deviation (n - 1 denominator). */
export function sd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += ((xs[i] as number) - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/** Coefficient of variation sd / mean: noise relative to the level. */
export function cv(xs: ArrayLike<number>): number {
  return sd(xs) / mean(xs);
}

/** Median absolute deviation from the median, unscaled. */
export function madRaw(xs: ArrayLike<number>): number {
  const m = median(xs);
  const dev = Float64Array.from(xs, (x) => Math.abs(x - m));
  return median(dev);
}

/** MAD scaled by 1.4826 (R's mad() default): estimates sd for normal data, robust to outliers. */
export const MAD_SCALE = 1.4826;
export function madScaled(xs: ArrayLike<number>): number {
  return MAD_SCALE * madRaw(xs);
}

export function min(xs: ArrayLike<number>): number {
  if (xs.length === 0) return NaN;
  let m = Infinity;
  for (let i = 0; i < xs.length; i++) m = Math.min(m, xs[i] as number);
  return m;
}

export function max(xs: ArrayLike<number>): number {
  if (xs.length === 0) return NaN;
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) m = Math.max(m, xs[i] as number);
  return m;
}

/** Geometric mean: the right average of ratios. NaN unless every value is > 0. */
export function geomean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i] as number;
    if (!(x > 0)) return NaN;
    s += Math.log(x);
  }
  return Math.exp(s / xs.length);
}

/** Below this many samples a 95th percentile is mostly the maximum; summarize() withholds it. */
export const P95_MIN_N = 10;

export interface Summary {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  madRaw: number;
  madScaled: number;
  cv: number;
  /** null when n < P95_MIN_N. */
  p95: number | null;
}

export function summarize(xs: ArrayLike<number>): Summary {
  const s = sorted(xs);
  const med = quantileSorted(s, 0.5);
  return {
    n: s.length,
    min: s.length ? (s[0] as number) : NaN,
    max: s.length ? (s[s.length - 1] as number) : NaN,
    mean: mean(s),
    median: med,
    madRaw: madRaw(s),
    madScaled: madScaled(s),
    cv: cv(s),
    p95: s.length >= P95_MIN_N ? quantileSorted(s, 0.95) : null,
  };
}
