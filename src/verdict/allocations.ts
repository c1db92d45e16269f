// The verdict for allocations (docs/design.md "Allocations"): the runtime's own accounting of the
// heap allocations in each timed iteration, near-deterministic like instruction counts, so it
// takes the count rule's shape (judgeInstructions: base twice, head once, step by step, the
// change reaching the threshold and ten times the A/A spread). Bytes always, allocation counts
// where the runtime gives them (not bee-js); either regressing makes the row regress.
import { judgeInstructions, type InstructionVerdict } from './instructions.js';
import type { Verdict } from './change.js';

export const ALLOCATION_DEFAULTS = { threshold: 0.01 } as const;

export interface AllocationOptions {
  /** Smallest change called a change: 0.01 is 1%. */
  threshold: number;
}

/** One side's figures of a CPU row, one entry per timed iteration. */
export interface AllocationFigures {
  bytes: readonly number[];
  allocs?: readonly number[];
}

export interface AllocationVerdict {
  bytes: InstructionVerdict;
  allocs?: InstructionVerdict;
  verdict: Verdict;
}

// An iteration may allocate nothing (a Go hash of a stack buffer): one unit is added to every
// figure so zero compares with zero as equal, and zero against some allocation as a large change.
const plusOne = (xs: readonly number[]) => xs.map((x) => x + 1);

function judgeFigure(base: readonly number[], baseAgain: readonly number[], head: readonly number[], o: AllocationOptions): InstructionVerdict {
  const v = judgeInstructions(plusOne(base), plusOne(baseAgain), plusOne(head), o);
  return { ...v, base: v.base - 1, head: v.head - 1 };
}

export function judgeAllocations(base: AllocationFigures, baseAgain: AllocationFigures, head: AllocationFigures, o: AllocationOptions): AllocationVerdict {
  const bytes = judgeFigure(base.bytes, baseAgain.bytes, head.bytes, o);
  const allocs = base.allocs && baseAgain.allocs && head.allocs ? judgeFigure(base.allocs, baseAgain.allocs, head.allocs, o) : undefined;
  const both = [bytes.verdict, ...(allocs ? [allocs.verdict] : [])];
  const verdict: Verdict = both.includes('regression') ? 'regression' : both.includes('improvement') ? 'improvement' : '~';
  return { bytes, ...(allocs ? { allocs } : {}), verdict };
}
