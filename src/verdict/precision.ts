// Low precision: a figure that rests on too little to rank clients by. A per-op figure resting on
// fewer than MIN_TOTAL_OPS operations in all (ops per iteration x iterations), or a median whose
// 95% distribution-free interval (src/stats/median-interval.ts) reaches further than MAX_SPREAD
// from it, is marked in the run report and left out of the cross-client scoreboard's headline, in
// the report and on the trend site alike. One rule, here; every reader takes it from here.
import { medianInterval } from '../stats/median-interval.js';
import { median } from '../stats/summary.js';

/** A per-op figure resting on fewer operations than this, over all its iterations, is low-precision. */
export const MIN_TOTAL_OPS = 30;

/** A median whose 95% interval reaches further than this fraction from it is low-precision. */
export const MAX_SPREAD = 0.1;

/** The confidence of the median's interval. */
export const SPREAD_CONFIDENCE = 0.95;

/** Why a figure is low-precision: too few ops in all, or too wide an interval around its median. */
export type PrecisionReason = { kind: 'ops'; totalOps: number; iterations: number } | { kind: 'spread'; spread: number; iterations: number };

/**
 * The rule in one sentence, for captions and legends (the report, the site, the docs' test).
 * Numbers come from the constants, so the words cannot drift from the rule.
 */
export const LOW_PRECISION_RULE = `a per-op figure resting on fewer than ${MIN_TOTAL_OPS} ops in all its iterations, or a median whose ${SPREAD_CONFIDENCE * 100}% interval reaches more than ±${MAX_SPREAD * 100}% from it`;

/**
 * The half-width of the median's interval as a fraction of the median (the wider side); undefined
 * with fewer than two samples or a zero median, where there is no spread to speak of.
 */
export function medianSpread(samples: readonly number[]): number | undefined {
  if (samples.length < 2) return undefined;
  const m = median(samples);
  const ci = medianInterval(samples, SPREAD_CONFIDENCE);
  if (!ci || !(m > 0)) return undefined;
  return Math.max(m - ci.lo, ci.hi - m) / m;
}

/**
 * Why one runner's figure of a row is low-precision; empty when it is not. The ops rule holds for
 * per-op figures (work with ops and no bytes): a byte figure rests on its bytes, not on calls.
 * Without samples nothing is judged (imported figures carry none).
 */
export function precisionReasons(samples: readonly number[], work: Readonly<{ ops?: number | undefined; bytes?: number | undefined }>): PrecisionReason[] {
  const iterations = samples.length;
  if (iterations === 0) return [];
  const reasons: PrecisionReason[] = [];
  const perOp = !((work.bytes ?? 0) > 0) && (work.ops ?? 0) > 0;
  if (perOp) {
    const totalOps = (work.ops as number) * iterations;
    if (totalOps < MIN_TOTAL_OPS) reasons.push({ kind: 'ops', totalOps, iterations });
  }
  const spread = medianSpread(samples);
  if (spread !== undefined && spread > MAX_SPREAD) reasons.push({ kind: 'spread', spread, iterations });
  return reasons;
}

/** Whether a figure is low-precision (precisionReasons is not empty). */
export const lowPrecision = (samples: readonly number[], work: Readonly<{ ops?: number | undefined; bytes?: number | undefined }>): boolean =>
  precisionReasons(samples, work).length > 0;
