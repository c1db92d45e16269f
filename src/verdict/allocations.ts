// The verdict for allocations (docs/design.md "Allocations"): the runtime's own accounting of the
// heap allocations in each timed iteration, near-deterministic like instruction counts, so it
// takes the step rule of the deterministic evidences (steps.ts: base twice, head once, step by
// step, the change reaching the larger of the floor and ten A/A spreads). Bytes always, allocation counts
// where the runtime gives them (not bee-js); either regressing makes the row regress.
import { judgeSteps, type StepOptions, type StepVerdict } from './steps.js';
import type { Verdict } from './change.js';
import type { CaseResult } from '../spec/schema.js';
import { median } from '../stats/summary.js';

/** The floor of the allocation rule (`--allocations-floor`, action input `allocations-floor`): as the counts'. */
export const ALLOCATION_DEFAULTS = { floor: 0.005 } as const;

export type AllocationOptions = StepOptions;

/** One side's figures of a CPU row, one entry per timed iteration. */
export interface AllocationFigures {
  bytes: readonly number[];
  allocs?: readonly number[];
}

export interface AllocationVerdict {
  bytes: StepVerdict;
  allocs?: StepVerdict;
  verdict: Verdict;
}

// An iteration may allocate nothing (a Go hash of a stack buffer): one unit is added to every
// figure so zero compares with zero as equal, and zero against some allocation as a large change.
const plusOne = (xs: readonly number[]) => xs.map((x) => x + 1);

function judgeFigure(base: readonly number[], baseAgain: readonly number[], head: readonly number[], o: AllocationOptions): StepVerdict {
  const v = judgeSteps(plusOne(base), plusOne(baseAgain), plusOne(head), o);
  return { ...v, base: v.base - 1, head: v.head - 1 };
}

export function judgeAllocations(base: AllocationFigures, baseAgain: AllocationFigures, head: AllocationFigures, o: AllocationOptions): AllocationVerdict {
  const bytes = judgeFigure(base.bytes, baseAgain.bytes, head.bytes, o);
  const allocs = base.allocs && baseAgain.allocs && head.allocs ? judgeFigure(base.allocs, baseAgain.allocs, head.allocs, o) : undefined;
  const both = [bytes.verdict, ...(allocs ? [allocs.verdict] : [])];
  const verdict: Verdict = both.includes('regression') ? 'regression' : both.includes('improvement') ? 'improvement' : '~';
  return { bytes, ...(allocs ? { allocs } : {}), verdict };
}

/** A case's allocation figures in one number each: the median per iteration, and per op of its work. */
export interface AllocationMedians {
  bytes: number;
  /** Absent where the runtime counts bytes only (bee-js). */
  allocs?: number;
  /** Per op of work (work.ops; per iteration where the case declares none). */
  bytesPerOp: number;
  allocsPerOp?: number;
}

/** The run report's and the history record's allocation figures of a case; undefined without any. */
export function allocationMedians(c: Pick<CaseResult, 'alloc_bytes' | 'allocs' | 'work'>): AllocationMedians | undefined {
  if (!c.alloc_bytes || c.alloc_bytes.length === 0) return undefined;
  const ops = c.work.ops && c.work.ops > 0 ? c.work.ops : 1;
  const bytes = median(c.alloc_bytes);
  const allocs = c.allocs && c.allocs.length > 0 ? median(c.allocs) : undefined;
  return { bytes, bytesPerOp: bytes / ops, ...(allocs !== undefined ? { allocs, allocsPerOp: allocs / ops } : {}) };
}
