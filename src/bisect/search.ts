// Binary search over a first-parent range (asv's `find`, git bisect's walk): the good ref is
// known good, the bad tip is assumed bad until measured. Each probe is a comparison of one commit
// against the good ref, injected as `probe`, so the search itself needs no runner and no git.
// The tip is measured only when the search converges on it: a range where nothing changed then
// costs one probe more than log2(n) and ends in "no change found".

export interface Probe {
  /** head / good time, or undefined when the comparison produced no figure. */
  ratio?: number;
  ci?: [number, number];
  /** True when the change exceeds the threshold (the judge's regression verdict). */
  exceeds: boolean;
  /** The judge's word for the step: regression, ~, improvement, failed ... */
  verdict: string;
  note?: string;
  /** The row the step's figure is of (the slowest regressed row, else the slowest compared one). */
  row?: { caseId: string; label: string };
}

export interface Step<C> extends Probe {
  index: number;
  commit: C;
  elapsedMs: number;
}

export interface SearchOutcome<C> {
  /** The first commit whose change exceeds the threshold; null when none does. */
  first: C | null;
  steps: Array<Step<C>>;
}

export async function firstExceeding<C>(commits: readonly C[], probe: (c: C) => Promise<Probe>): Promise<SearchOutcome<C>> {
  const steps: Array<Step<C>> = [];
  const measure = async (index: number): Promise<Step<C>> => {
    const started = performance.now();
    const p = await probe(commits[index]!);
    const step = { ...p, index, commit: commits[index]!, elapsedMs: performance.now() - started };
    steps.push(step);
    return step;
  };
  if (commits.length === 0) return { first: null, steps };
  // Invariant: commits[..lo] do not exceed (lo = -1 is the good ref), commits[hi] is the earliest
  // candidate known (or, until measured, assumed) to exceed.
  let lo = -1;
  let hi = commits.length - 1;
  let hiMeasured = false;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await measure(mid)).exceeds) {
      hi = mid;
      hiMeasured = true;
    } else lo = mid;
  }
  if (!hiMeasured && !(await measure(hi)).exceeds) return { first: null, steps };
  return { first: commits[hi]!, steps };
}
