// The two marks outside the A/B verdicts, decided here like every other: a shift on a trend
// series (src/history/shift.ts supplies the test's p and the Hodges–Lehmann ratio) and a flagged
// delta in `bee-bench compare` (one run set each side, no test: a plain size rule).

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
