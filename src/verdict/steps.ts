// The step rule of the deterministic evidences (README "Instruction counts", docs/design.md
// "Allocations", docs/calibration.md "Thresholds from the noise"): instruction counts and
// allocation figures are near-deterministic, so a rank test is the wrong tool. Each row has its
// own threshold, the larger of a floor (0.5% by default) and ten times the spread base shows
// against itself (two base processes compared the way head is compared with base): a row that
// repeats to the instruction flags a 0.5% change, a row whose figures wander cannot cry wolf.
import { median } from '../stats/index.js';
import type { Verdict } from './change.js';

export interface StepOptions {
  /** The smallest change any row flags (0.005 is 0.5%); a row whose A/A spread is larger flags at ten spreads. */
  floor: number;
  /**
   * The figure's quantum, in its own units: the smallest amount by which it moves between
   * processes that did the same work (estimated cycles: cache lines that one process finds and
   * another misses, src/evidence/cycles.ts). A row's floor is at least this share of its base
   * figure, so a step made of a few such quanta (an empty case) cannot flag on placement alone;
   * rows of millions of units keep the floor.
   */
  resolution?: number;
}

/** How many A/A spreads a change must exceed. */
export const SPREAD_FACTOR = 10;

/**
 * How close to the floor a change must come to reach it, where the floor is the row's threshold:
 * the larger of min(NOISE_FLOOR, floor / 10) and TOLERANCE_SPREADS A/A spreads. A change of exactly
 * the floor (the calibration's injected 0.5%) otherwise comes out flagged or not by the sign of
 * the row's noise: bee-go's counts repeat to 0.01-0.03% between processes, so head lands that far
 * either side of base x 1.005. NOISE_FLOOR is the repeatability asked of bee-go and bee-rs counts
 * (README "Instruction counts"); a tenth of the floor caps it, so a lower floor keeps most of its
 * meaning. Where ten spreads set the threshold there is no tolerance: ten spreads is the guard.
 */
export const NOISE_FLOOR = 5e-4;
export const TOLERANCE_SPREADS = 3;

/** The floor of the instruction-count rule (`--instructions-floor`, action input `instructions-floor`). */
export const INSTRUCTION_DEFAULTS = { floor: 0.005 } as const;

/** The verdict of one deterministic figure (instructions; allocated bytes; allocation count). */
export interface StepVerdict {
  /** Median figure per iteration (instructions, bytes, allocations). */
  base: number;
  head: number;
  /** head / base: the median over iterations of head's count over base's at the same step. */
  ratio: number;
  /** The A/A spread of this row: how far the same statistic puts one base process from the other. */
  spread: number;
  /** The row's effective threshold: max(floor, SPREAD_FACTOR x spread). */
  threshold: number;
  /** The change a verdict needs: the threshold, less the near-floor tolerance where the floor sets it (stepBar). */
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

/** A row's threshold and the change its verdict needs, from its A/A spread (module comment, NOISE_FLOOR). */
export function stepBar(spread: number, o: StepOptions): { threshold: number; bar: number } {
  const threshold = Math.max(o.floor, SPREAD_FACTOR * spread);
  const tolerance = Math.max(Math.min(NOISE_FLOOR, o.floor / 10), TOLERANCE_SPREADS * spread);
  return { threshold, bar: Math.max(o.floor - tolerance, SPREAD_FACTOR * spread) };
}

/** The rule on a count ratio given the row's A/A spread (also the branch alerts' rule, src/alert/judge.ts). */
export function countVerdict(ratio: number, spread: number, o: StepOptions): { threshold: number; bar: number; verdict: Verdict } {
  const { threshold, bar } = stepBar(spread, o);
  return { threshold, bar, verdict: ratio >= 1 + bar ? 'regression' : ratio <= 1 / (1 + bar) ? 'improvement' : '~' };
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
  const baseFigure = median([...base, ...baseAgain]);
  const floor = Math.max(o.floor, (o.resolution ?? 0) / baseFigure);
  return { base: baseFigure, head: median(head), ratio, spread, ...countVerdict(ratio, spread, { floor }) };
}
