// Shift markers on a series (one branch, in time order). Point i is a candidate when the W values
// from i on differ from the W values before it:
//   - the rank-sum test of after vs before, two-sided p < alpha, its p exact under ties too
//     (src/stats mannWhitney, exact: equal timings are common, and a normal approximation's p
//     never reaches alpha with 5 + 5 values), and
//   - the ratio after/before, the back-transformed two-sample Hodges–Lehmann shift of log values,
//     is off 1 by more than threshold.
// Both windows must be full, so the first W and the last W-1 points are never candidates. One step
// change makes neighbouring windows significant too, so a candidate is marked only when no other
// candidate closer than W has a smaller p. Neighbours of a clean step often reach the same (smallest)
// p, since one misplaced value does not change the ranks much; equal p goes to the larger difference
// of mean log values, the least-squares position of a step (a misplaced value pulls the mean but
// not the rank order), so the marker lands on the first point after the step; then the earlier
// index. The rule is local: whether
// point i is marked depends only on values i-2W+1 .. i+2W-1, which lets derive() test just the
// points it keeps (plus a margin) and still mark exactly what a full-history pass would.
// With W = 5 the exact test's smallest two-sided p is 2/252 = 0.0079: at alpha 0.01 a candidate
// needs the five values after it all on one side of the five before it.
import { hodgesLehmannTwoSample, mannWhitney } from '../stats/index.js';
import { isShift, type ShiftRule } from '../verdict/descriptive.js';

export interface ShiftOptions extends ShiftRule {
  /** Points on each side; default 5. */
  window: number;
}

export const DEFAULT_SHIFT: ShiftOptions = { window: 5, alpha: 0.01, threshold: 0.05 };

export interface Shift {
  index: number;
  ratio: number;
  p: number;
}

interface Candidate extends Shift {
  /** |mean(log after) - mean(log before)|: breaks ties on p. */
  step: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Values before `from` that decide the markers from `from` on. */
export function shiftMargin(opts: ShiftOptions = DEFAULT_SHIFT): number {
  return 2 * opts.window - 1;
}

/**
 * values: positive figures (time per work unit) of one branch in time order. Returns the marked
 * shifts with index >= from (default 0), ascending; values before from - shiftMargin() are not read.
 */
export function detectShifts(values: readonly number[], opts: ShiftOptions = DEFAULT_SHIFT, from = 0): Shift[] {
  const w = opts.window;
  const n = values.length;
  if (w < 1 || n < 2 * w) return [];
  const lo = Math.max(w, from - (w - 1));
  const logs: number[] = new Array(n).fill(0);
  for (let i = Math.max(0, lo - w); i < n; i++) logs[i] = Math.log(Math.max(values[i] as number, 1e-9));
  const candidates: Candidate[] = [];
  for (let i = lo; i + w <= n; i++) {
    const before = logs.slice(i - w, i);
    const after = logs.slice(i, i + w);
    const p = mannWhitney(after, before, { exact: true }).p;
    const ratio = Math.exp(hodgesLehmannTwoSample(after, before).estimate);
    if (isShift(p, ratio, opts)) candidates.push({ index: i, ratio, p, step: Math.abs(mean(after) - mean(before)) });
  }
  const beats = (o: Candidate, c: Candidate) => o.p < c.p || (o.p === c.p && (o.step > c.step || (o.step === c.step && o.index < c.index)));
  const marked: Shift[] = [];
  candidates.forEach((c, k) => {
    if (c.index < from) return;
    for (let j = k - 1; j >= 0 && c.index - candidates[j]!.index < w; j--) if (beats(candidates[j]!, c)) return;
    for (let j = k + 1; j < candidates.length && candidates[j]!.index - c.index < w; j++) if (beats(candidates[j]!, c)) return;
    marked.push({ index: c.index, ratio: c.ratio, p: c.p });
  });
  return marked;
}
