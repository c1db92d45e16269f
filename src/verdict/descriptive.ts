// The marks outside the A/B verdicts, decided here like every other: a shift on a trend series
// (src/history/shift.ts supplies the test's p and the Hodges–Lehmann ratio), a flagged delta in
// `bee-bench compare` (one run set each side, no test: a plain size rule), and the marks of a run
// report's cell (flaky spread, timer-bound, waited for a CPU).
import type { Kind } from '../spec/schema.js';

export interface ShiftRule {
  /** Default 0.01. */
  alpha: number;
  /** Smallest |ratio - 1| marked; default 0.05. */
  threshold: number;
}

/** A shift candidate: the rank-sum p below alpha and the after/before ratio off 1 by more than the threshold. */
export const isShift = (p: number, ratio: number, o: ShiftRule): boolean => p < o.alpha && Math.abs(ratio - 1) > o.threshold;

/** A `compare` delta worth the ⚠: new/old off 1 by more than the flag. */
export const isFlaggedDelta = (ratio: number, flag: number): boolean => Math.abs(ratio - 1) > flag;

/** `compare`'s default flag: a delta beyond ±20% gets the ⚠. */
export const COMPARE_FLAG = 0.2;

/** A cell's spread (half-range / median) above this marks the measurement as flaky. */
export const FLAKY_SPREAD = 0.5;

/** Below this median per iteration the clock and the timer calls dominate what is measured. */
export const TIMER_BOUND_NS = 1_000;

/** cpu/wall below this on a CPU-bound row: the process waited for a CPU. */
export const WAITED_CPU_WALL = 0.9;

/** The marks a report cell carries (the ⚠ on its spread, ‡ and †): measured figures it should not be read by. */
export interface CellMarks {
  timerBound: boolean;
  flaky: boolean;
  waited: boolean;
}

/**
 * A cell's marks. `printedSpreadPercent` is the spread as the report prints it (a spread shown as
 * ±50.0% is not "above 50%"); a timer-bound cell is neither flaky nor waiting, since its spread and
 * cpu/wall say nothing about the operation.
 */
export function cellMarks(o: { medianNs: number; printedSpreadPercent?: number; kind: Kind; cpuWallRatio?: number }): CellMarks {
  const timerBound = o.medianNs < TIMER_BOUND_NS;
  return {
    timerBound,
    flaky: !timerBound && o.printedSpreadPercent !== undefined && o.printedSpreadPercent > FLAKY_SPREAD * 100,
    waited: !timerBound && o.kind === 'cpu' && o.cpuWallRatio !== undefined && o.cpuWallRatio < WAITED_CPU_WALL,
  };
}

/** A 5-minute load average above the CPU count: processes queued for a CPU during the run. */
export const loadedMachine = (loadAverage5: number, cpus: number): boolean => loadAverage5 > cpus;
