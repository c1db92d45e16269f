// Hodges–Lehmann location estimates with their distribution-free confidence
// intervals, as R's wilcox.test(..., conf.int = TRUE) computes them.
//   one-sample: median of the Walsh averages (x_i + x_j)/2, i <= j
//   two-sample: median of the pairwise differences x_i - y_j
// Exact intervals (order statistics picked by the signed-rank / rank-sum null
// quantiles) when the exact test applies; otherwise R's asymptotic inversion
// of the normal-approximation statistic. R finds that root with uniroot
// (tol 1e-4) on a step function; here the step's location — a Walsh average
// or pairwise difference — is found exactly, so values agree with R to within
// R's own root tolerance. Zeros stay in x for the interval (R >= 4.6), since
// dropping them would pull the estimate away from "no change".
import psignrank from '@stdlib/stats-base-dists-signrank-cdf';
import qsignrank from '@stdlib/stats-base-dists-signrank-quantile';
import { qnorm } from './normal.js';
import { rank, tieSum } from './rank.js';
import { pwilcox, qwilcox } from './rank-sum-dist.js';
import { quantileSorted, sorted } from './summary.js';
import { EXACT_BELOW, type Method } from './wilcoxon.js';

export interface IntervalOptions {
  /** Requested confidence level (default 0.95). */
  confLevel?: number;
  exact?: boolean;
  /** Continuity correction in the asymptotic interval (default true). */
  correct?: boolean;
}

export interface LocationEstimate {
  estimate: number;
  lo: number;
  hi: number;
  /** The level R reports: the requested one, lowered when it is clearly out of reach. */
  confLevel: number;
  /** Actual coverage of the exact interval (equals confLevel for the asymptotic one). */
  achievedConfLevel: number;
  method: Method;
}

/** One-sample (or paired, on x - y) Hodges–Lehmann estimate and interval. */
export function hodgesLehmann(xIn: readonly number[], opts: IntervalOptions = {}): LocationEstimate {
  const confLevel = opts.confLevel ?? 0.95;
  const alpha = 1 - confLevel;
  const x = xIn.filter((v) => !Number.isNaN(v));
  const n = x.length;
  if (n === 0) return { estimate: NaN, lo: NaN, hi: NaN, confLevel: 0, achievedConfLevel: 0, method: 'normal' };
  const walsh = walshAverages(x);
  const estimate = quantileSorted(walsh, 0.5);

  const nonzero = x.filter((v) => v !== 0);
  const exact = (opts.exact ?? nonzero.length < EXACT_BELOW) && nonzero.length === n && rank(nonzero.map(Math.abs)).ties.length === 0;
  if (exact) {
    const total = walsh.length;
    let qu = qsignrank(alpha / 2 - 10 * Number.EPSILON, n);
    if (qu === 0) qu = 1; // as R: the widest interval, [min, max] of the Walsh averages
    const achievedAlpha = Math.min(1, 2 * psignrank(qu - 1, n));
    return {
      estimate,
      lo: walsh[qu - 1] as number,
      hi: walsh[total - qu] as number,
      confLevel: achievedAlpha - alpha > alpha / 2 ? 1 - signif2(achievedAlpha) : confLevel,
      achievedConfLevel: 1 - achievedAlpha,
      method: 'exact',
    };
  }
  const W = (d: number) => signedRankZ(x, d, opts.correct ?? true);
  const ci = asymptoticOneSample(W, walsh, x, alpha, confLevel);
  return { estimate, ...ci, method: 'normal' };
}

/** Two-sample Hodges–Lehmann estimate of the shift of x relative to y, with interval. */
export function hodgesLehmannTwoSample(xIn: readonly number[], yIn: readonly number[], opts: IntervalOptions = {}): LocationEstimate {
  const confLevel = opts.confLevel ?? 0.95;
  const alpha = 1 - confLevel;
  const x = xIn.filter((v) => !Number.isNaN(v));
  const y = yIn.filter((v) => !Number.isNaN(v));
  const nx = x.length;
  const ny = y.length;
  if (nx === 0 || ny === 0) {
    return { estimate: NaN, lo: NaN, hi: NaN, confLevel: 0, achievedConfLevel: 0, method: 'normal' };
  }
  const diffs = new Float64Array(nx * ny);
  for (let i = 0; i < nx; i++) for (let j = 0; j < ny; j++) diffs[i * ny + j] = (x[i] as number) - (y[j] as number);
  diffs.sort();
  const estimate = quantileSorted(diffs, 0.5);

  const exact = (opts.exact ?? (nx < EXACT_BELOW && ny < EXACT_BELOW)) && rank([...x, ...y]).ties.length === 0;
  if (exact) {
    const mn = nx * ny;
    let qu = qwilcox(alpha / 2, nx, ny);
    if (qu === 0) qu = 1;
    const achievedAlpha = Math.min(1, 2 * pwilcox(qu - 1, nx, ny));
    return {
      estimate,
      lo: diffs[qu - 1] as number,
      hi: diffs[mn - qu] as number,
      confLevel: achievedAlpha - alpha > alpha / 2 ? 1 - achievedAlpha : confLevel,
      achievedConfLevel: 1 - achievedAlpha,
      method: 'exact',
    };
  }
  const xs = sorted(x);
  const ys = sorted(y);
  const W = (d: number) => rankSumZ(xs, ys, d, opts.correct ?? true);
  const mumin = diffs[0] as number;
  const mumax = diffs[diffs.length - 1] as number;
  return {
    estimate,
    lo: stepRoot(W, qnorm(1 - alpha / 2), mumin, mumax, diffs),
    hi: stepRoot(W, qnorm(alpha / 2), mumin, mumax, diffs),
    confLevel,
    achievedConfLevel: confLevel,
    method: 'normal',
  };
}

/** Sorted (x_i + x_j) / 2 for i <= j. */
export function walshAverages(x: readonly number[]): Float64Array {
  const n = x.length;
  const out = new Float64Array((n * (n + 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) out[k++] = ((x[i] as number) + (x[j] as number)) / 2;
  return out.sort();
}

function asymptoticOneSample(
  W: (d: number) => number,
  walsh: Float64Array,
  x: readonly number[],
  alphaIn: number,
  confLevelIn: number,
): Omit<LocationEstimate, 'estimate' | 'method'> {
  let alpha = alphaIn;
  let confLevel = confLevelIn;
  const mumin = walsh[0] as number;
  const mumax = walsh[walsh.length - 1] as number;
  const wmin = W(mumin);
  const wmax = W(mumax);
  if (!Number.isFinite(wmin) || !Number.isFinite(wmax)) {
    // All observations equal: R gives NaN; the only honest interval is the point itself.
    return { lo: mumin, hi: mumax, confLevel: 0, achievedConfLevel: 0 };
  }
  // R widens alpha until the data range brackets both quantiles (small n / heavy ties).
  for (;;) {
    if (wmin - qnorm(1 - alpha / 2) < 0 || wmax - qnorm(alpha / 2) > 0) alpha *= 2;
    else break;
  }
  if (alpha >= 1 || 1 - confLevel < alpha * 0.75) confLevel = 1 - Math.min(1, alpha);
  if (alpha >= 1) {
    const m = quantileSorted(sorted(x), 0.5);
    return { lo: m, hi: m, confLevel, achievedConfLevel: confLevel };
  }
  return {
    lo: stepRoot(W, qnorm(1 - alpha / 2), mumin, mumax, walsh),
    hi: stepRoot(W, qnorm(alpha / 2), mumin, mumax, walsh),
    confLevel,
    achievedConfLevel: confLevel,
  };
}

/**
 * Where the non-increasing step function W(d) crosses zq on [lo, hi]. W only
 * changes at the sorted breakpoints, so bisect over the open intervals between
 * them and return the breakpoint that starts the first interval with W <= zq.
 */
function stepRoot(W: (d: number) => number, zq: number, lo: number, hi: number, breaks: Float64Array): number {
  if (W(lo) - zq <= 0) return lo;
  if (W(hi) - zq >= 0) return hi;
  const b: number[] = [lo];
  for (const v of breaks) if (v > (b[b.length - 1] as number) && v < hi) b.push(v);
  b.push(hi);
  // Interval k is (b[k], b[k+1]); find the first whose midpoint has W <= zq.
  let left = 0;
  let right = b.length - 1; // sentinel: "no interval", root at hi
  while (left < right) {
    const k = (left + right) >> 1;
    const mid = ((b[k] as number) + (b[k + 1] as number)) / 2;
    if (W(mid) - zq <= 0) right = k;
    else left = k + 1;
  }
  return b[left] as number;
}

/** Standardized signed-rank statistic of x - d (zeros dropped), as R's asymptotic interval uses it. */
function signedRankZ(x: readonly number[], d: number, correct: boolean): number {
  const xd = x.map((v) => v - d).filter((v) => v !== 0);
  const n = xd.length;
  const { ranks, ties } = rank(xd.map(Math.abs));
  let v = 0;
  for (let i = 0; i < n; i++) if ((xd[i] as number) > 0) v += ranks[i] as number;
  const z = v - (n * (n + 1)) / 4;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieSum(ties) / 48);
  return (z - (correct ? Math.sign(z) * 0.5 : 0)) / sigma;
}

/**
 * Standardized rank-sum statistic of (x - d, y), from x and y sorted ascending: one merge walks the
 * pooled values in order, so each tie group's mid-rank and size come without sorting again (the
 * interval search calls this a few dozen times per cell). Same values as ranking the concatenation.
 */
function rankSumZ(xs: Float64Array, ys: Float64Array, d: number, correct: boolean): number {
  const nx = xs.length;
  const ny = ys.length;
  let i = 0;
  let j = 0;
  let pos = 0;
  let rx = 0;
  let ties = 0;
  while (i < nx || j < ny) {
    const xv = i < nx ? (xs[i] as number) - d : Infinity;
    const yv = j < ny ? (ys[j] as number) : Infinity;
    const v = xv < yv ? xv : yv;
    let cx = 0;
    let cy = 0;
    while (i < nx && (xs[i] as number) - d === v) {
      i++;
      cx++;
    }
    while (j < ny && ys[j] === v) {
      j++;
      cy++;
    }
    const t = cx + cy;
    rx += cx * (pos + (t + 1) / 2);
    if (t > 1) ties += t * t * t - t;
    pos += t;
  }
  const z = rx - (nx * (nx + 1)) / 2 - (nx * ny) / 2;
  const N = nx + ny;
  const sigma = Math.sqrt(((nx * ny) / 12) * (N + 1 - ties / (N * (N - 1))));
  return (z - (correct ? Math.sign(z) * 0.5 : 0)) / sigma;
}

/** R's signif(x, 2): two significant digits, exact halves to even (achieved alphas are k / 2^n, so halves occur). */
function signif2(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  const scale = 10 ** (1 - Math.floor(Math.log10(Math.abs(v))));
  const t = v * scale;
  let r = Math.round(t);
  if (Math.abs(t - Math.trunc(t)) === 0.5 && r % 2 !== 0) r -= 1;
  return r / scale;
}
