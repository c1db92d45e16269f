// The step rule of the deterministic evidences (README "Instruction counts", docs/design.md
// "Allocations"): instruction counts and allocation figures are near-deterministic, so a rank test
// is the wrong tool: a row changed when head/base reached the threshold and moved by at least ten
// times the spread base shows against itself (two base processes compared the way head is
// compared with base), so that a row whose figures wander cannot cry wolf.
import { median } from '../stats/index.js';
import type { Verdict } from './change.js';

export interface StepOptions {
  /** Smallest change called a change: 0.01 is 1%. */
  threshold: number;
}

/** How many A/A spreads a change must exceed. */
export const SPREAD_FACTOR = 10;

/**
 * How close to the threshold a change must come to reach it: the larger of NOISE_FLOOR and
 * TOLERANCE_SPREADS A/A spreads. A change of exactly the threshold (the 1% injection) otherwise
 * comes out flagged or not by the sign of the row's noise: bee-go's counts repeat to 0.01-0.03%
 * between processes, so head lands that far either side of base x 1.01. NOISE_FLOOR is the
 * repeatability asked of bee-go and bee-rs counts (README "Instruction counts").
 */
export const NOISE_FLOOR = 5e-4;
export const TOLERANCE_SPREADS = 3;

export const INSTRUCTION_DEFAULTS = { threshold: 0.01 } as const;

/** The verdict of one deterministic figure (instructions; allocated bytes; allocation count). */
export interface StepVerdict {
  /** Median figure per iteration (instructions, bytes, allocations). */
  base: number;
  head: number;
  /** head / base: the median over iterations of head's count over base's at the same step. */
  ratio: number;
  /** The A/A spread of this row: how far the same statistic puts one base process from the other. */
  spread: number;
  /** The change a verdict needs: max(threshold - max(NOISE_FLOOR, TOLERANCE_SPREADS x spread), SPREAD_FACTOR x spread). */
  bar: number;
  verdict: Verdict;
}

/** One side's figures, one entry per timed iteration (step order). */
export type StepCounts = readonly number[];

/** The median over steps of a's count over b's at the same step. */
function stepRatio(a: StepCounts, b: StepCounts): number {
  const steps = Math.min(a.length, b.length);
  return median(Array.from({ length: steps }, (_, i) => a[i]! / b[i]!));
}

/**
 * The A/A spread of two processes: how far apart the verdict's own statistic (the median of the
 * step-wise ratios) puts them, either way. A single odd iteration (an allocator's first call in
 * a step) moves the median no more than it moves the verdict.
 */
export function aaSpread(a: StepCounts, b: StepCounts): number {
  const r = stepRatio(a, b);
  return Math.max(r, 1 / r) - 1;
}

/** The rule on a count ratio given the row's A/A spread (also the branch alerts' rule, src/alert/judge.ts). */
export function countVerdict(ratio: number, spread: number, o: StepOptions): { bar: number; verdict: Verdict } {
  const bar = Math.max(o.threshold - Math.max(NOISE_FLOOR, TOLERANCE_SPREADS * spread), SPREAD_FACTOR * spread);
  return { bar, verdict: ratio >= 1 + bar ? 'regression' : ratio <= 1 / (1 + bar) ? 'improvement' : '~' };
}

/**
 * The instruction-count rule, and each allocation figure's. `base` and `baseAgain`: two base
 * processes, `head`: the head process, each with its per-iteration figures. Iterations are compared step by step, since a JIT tiering up makes a
 * runner's first timed iterations cost more than its last ones, on both sides alike.
 */
export function judgeSteps(base: StepCounts, baseAgain: StepCounts, head: StepCounts, o: StepOptions): StepVerdict {
  const steps = Math.min(base.length, baseAgain.length, head.length);
  if (steps === 0) throw new Error('judgeSteps needs counts of two base runs and a head run');
  if ([...base, ...baseAgain, ...head].some((n) => !(n > 0))) throw new Error('judgeSteps: a figure of zero means nothing was counted');
  const baseMean = Array.from({ length: steps }, (_, i) => (base[i]! + baseAgain[i]!) / 2);
  const ratio = stepRatio(head, baseMean);
  const spread = aaSpread(base, baseAgain);
  const { bar, verdict } = countVerdict(ratio, spread, o);
  return { base: median([...base, ...baseAgain]), head: median(head), ratio, spread, bar, verdict };
}
