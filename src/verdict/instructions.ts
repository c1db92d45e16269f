// The verdict for instruction counts (README "Instruction counts"). Counts are near-deterministic,
// so a rank test is the wrong tool: a row changed when head/base moved by more than a threshold
// and by at least ten times the spread base shows against itself (two base processes, step by
// step), so that a row whose counts wander cannot cry wolf.
import { median, type Verdict } from '../stats/index.js';

export interface InstructionOptions {
  /** Smallest change called a change: 0.01 is 1%. */
  threshold: number;
}

/** How many A/A spreads a change must exceed. */
export const SPREAD_FACTOR = 10;

export const INSTRUCTION_DEFAULTS = { threshold: 0.01 } as const;

export interface InstructionVerdict {
  /** Median instructions per iteration. */
  base: number;
  head: number;
  /** head / base: the median over iterations of head's count over base's at the same step. */
  ratio: number;
  /** The A/A spread of this row: the largest relative distance between two base processes' counts at one step. */
  spread: number;
  /** The change a verdict needs: max(threshold, SPREAD_FACTOR x spread). */
  bar: number;
  verdict: Verdict;
}

/** Counts of one side, one entry per timed iteration (step order). */
export type StepCounts = readonly number[];

/** Largest |a/b - 1| between the counts two processes made at the same step. */
export function stepSpread(a: StepCounts, b: StepCounts): number {
  let spread = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) spread = Math.max(spread, Math.max(a[i]!, b[i]!) / Math.min(a[i]!, b[i]!) - 1);
  return spread;
}

/**
 * `base` and `baseAgain`: two base processes, `head`: the head process, each with its
 * per-iteration counts. Iterations are compared step by step, since a JIT tiering up makes a
 * runner's first timed iterations cost more than its last ones, on both sides alike.
 */
export function judgeInstructions(base: StepCounts, baseAgain: StepCounts, head: StepCounts, o: InstructionOptions): InstructionVerdict {
  const steps = Math.min(base.length, baseAgain.length, head.length);
  if (steps === 0) throw new Error('judgeInstructions needs counts of two base runs and a head run');
  if ([...base, ...baseAgain, ...head].some((n) => !(n > 0))) throw new Error('judgeInstructions: a count of zero means nothing was counted');
  const ratios = Array.from({ length: steps }, (_, i) => head[i]! / ((base[i]! + baseAgain[i]!) / 2));
  const ratio = median(ratios);
  const spread = stepSpread(base, baseAgain);
  const bar = Math.max(o.threshold, SPREAD_FACTOR * spread);
  const verdict: Verdict = ratio > 1 + bar ? 'regression' : ratio < 1 / (1 + bar) ? 'improvement' : '~';
  return { base: median([...base, ...baseAgain]), head: median(head), ratio, spread, bar, verdict };
}
