// The two comparison designs of docs/design.md ("Statistics and verdicts") behind one small
// interface (modelled on benchstat's benchmath "assumption"). Turning comparisons into
// regression / improvement / ~ is src/verdict's (wall.ts): this file only estimates and tests.
// Everything is computed on log times, so effects are ratios (head / base)
// and a 10% slowdown weighs the same on a 1 µs case as on a 1 s case.
import { hodgesLehmann, hodgesLehmannTwoSample, type LocationEstimate } from './hodges-lehmann.js';
import { mannWhitney } from './mann-whitney.js';
import { median } from './summary.js';
import { signedRank, type Method } from './wilcoxon.js';

export type DesignName = 'paired-rounds' | 'unpaired-history';

export interface Comparison {
  design: DesignName;
  /** head / base: the back-transformed Hodges–Lehmann shift of log times. */
  ratio: number;
  /** Interval for ratio at confLevel. */
  ci: [number, number];
  confLevel: number;
  /** Actual coverage of the interval (exact intervals are discrete). */
  achievedConfLevel: number;
  /**
   * The interval reaches the requested coverage and contains the estimate. When false (too few
   * rounds for a 95% interval, or tied values) it must not be shown as a 95% interval.
   */
  intervalHolds: boolean;
  /** Every difference is zero: base and head measured the same (p = 1, ratio 1). */
  identical: boolean;
  /** Two-sided p of the rank test. */
  p: number;
  /** The smallest p this comparison could have produced with its n: if >= alpha, no data could flag it. */
  minP: number;
  /** Head values: rounds (paired) or head samples (unpaired). */
  n: number;
  /** Base values: rounds (paired) or history runs (unpaired). */
  nBase: number;
  method: Method;
  /** True when base and head were measured on different machines (history). */
  crossMachine: boolean;
}

export interface CompareOptions {
  /** Default 0.95. */
  confLevel?: number;
}

/** A comparison design: how base and head values were collected decides the test. */
export interface Design {
  readonly name: DesignName;
  readonly crossMachine: boolean;
  /** base and head are positive measurements (e.g. ns); paired designs take them in matching order. */
  compare(base: readonly number[], head: readonly number[], opts?: CompareOptions): Comparison;
}

/**
 * Same-job A/B: one value per round and side, in matching order.
 * Wilcoxon signed-rank on d_i = ln(head_i / base_i); HL estimate and interval of d.
 */
export const pairedRounds: Design & {
  /** The same test on the rounds' log-ratios themselves (see roundLogRatio). */
  compareLogRatios(d: readonly number[], opts?: CompareOptions): Comparison;
} = {
  name: 'paired-rounds',
  crossMachine: false,
  compare(base, head, opts = {}) {
    if (base.length !== head.length) {
      throw new RangeError(`paired rounds need as many base as head values: ${base.length} vs ${head.length}`);
    }
    const lb = logs(base, 'base');
    return this.compareLogRatios(
      logs(head, 'head').map((v, i) => v - (lb[i] as number)),
      opts,
    );
  },
  compareLogRatios(d, opts = {}) {
    if (!d.every(Number.isFinite)) throw new RangeError(`round log-ratios must be finite, got ${d.join(', ')}`);
    const test = signedRank(d);
    const confLevel = opts.confLevel ?? 0.95;
    const hl = hodgesLehmann(d, { confLevel });
    // minP is the design's floor: the smallest p R rounds can give is 2/2^R (all signs agree, no
    // zeros), so "too few rounds" depends on R alone; zero differences only make p larger.
    const c = result('paired-rounds', false, test.p, signedRankMinP(d.length), test.method, hl, d.length, d.length, confLevel);
    return { ...c, identical: d.length > 0 && d.every((v) => v === 0) };
  },
};

/**
 * One round's ln(head / base) from its iterations. Base and head take their iterations in lock
 * step (src/run/turns.ts), iteration i of each side moments apart, so iteration i is a pair: the
 * median of the pairs' log-ratios follows what both sides met at the same moment, where the ratio
 * of the two medians would mix moments of different machine speed. Unequal counts cannot be
 * paired: then the ratio of medians. An iteration timed at 0 ns (below the clock's resolution,
 * valid in a result) has no ratio: its pair (or, unpaired, the value) is left out; null when no
 * usable pair is left, and the round is then not used.
 */
export function roundLogRatio(base: readonly number[], head: readonly number[]): number | null {
  if (base.length === 0 || head.length === 0) throw new RangeError('a round needs iterations on both sides');
  const usable = (v: number) => v > 0 && Number.isFinite(v);
  if (base.length !== head.length) {
    const b = base.filter(usable);
    const h = head.filter(usable);
    return b.length > 0 && h.length > 0 ? Math.log(median(h) / median(b)) : null;
  }
  const pairs = base.flatMap((b, i) => (usable(b) && usable(head[i]!) ? [Math.log(head[i]!) - Math.log(b)] : []));
  return pairs.length > 0 ? median(pairs) : null;
}

/**
 * Head samples against the last N runs of the branch's history (another
 * machine, another day): Mann–Whitney U on log values, two-sample HL shift.
 */
export const unpairedHistory: Design = {
  name: 'unpaired-history',
  crossMachine: true,
  compare(base, head, opts = {}) {
    const lb = logs(base, 'history');
    const lh = logs(head, 'head');
    const test = mannWhitney(lh, lb);
    const confLevel = opts.confLevel ?? 0.95;
    const hl = hodgesLehmannTwoSample(lh, lb, { confLevel });
    return result('unpaired-history', true, test.p, test.minP, test.method, hl, head.length, base.length, confLevel);
  },
};

function result(
  design: DesignName,
  crossMachine: boolean,
  p: number,
  minP: number,
  method: Method,
  hl: LocationEstimate,
  n: number,
  nBase: number,
  requestedConfLevel: number,
): Comparison {
  return {
    design,
    ratio: Math.exp(hl.estimate),
    ci: [Math.exp(hl.lo), Math.exp(hl.hi)],
    confLevel: hl.confLevel,
    achievedConfLevel: hl.achievedConfLevel,
    intervalHolds: hl.achievedConfLevel >= requestedConfLevel - 1e-9 && hl.lo <= hl.estimate && hl.estimate <= hl.hi,
    identical: false,
    p,
    minP,
    n,
    nBase,
    method,
    crossMachine,
  };
}

function logs(xs: readonly number[], what: string): number[] {
  return xs.map((v) => {
    if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${what} values must be finite and > 0, got ${v}`);
    return Math.log(v);
  });
}

/** Smallest two-sided exact signed-rank p with n untied, non-zero pairs: all signs agree, 2 / 2^n. */
export function signedRankMinP(n: number): number {
  return Math.min(1, 2 ** (1 - n));
}

/** Fewest paired rounds for which significance at alpha is possible at all (exact test). */
export function minRounds(alpha: number): number {
  let n = 1;
  while (signedRankMinP(n) >= alpha) n++;
  return n;
}
