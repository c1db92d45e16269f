// Steps in a count series (docs/design.md, "History store"). Instruction counts repeat between runs
// of the same code to a few hundredths of a percent, so no window or test is needed: each point is
// compared with the branch's previous counted point, and a change at or above the row's A/A spread
// is a step in the commits between the two. The spread is the one a record stored for the row (a
// run that counted the same code twice), else DEFAULT_COUNT_SPREAD. What else moves counts is named
// with the step: a different toolchain (runtime or compiler version, or counter) is marked
// whenever it changes; a different host (os, arch, CPU model) only when the counts moved with it,
// since shared runners change CPU models from run to run.
import { NOISE_FLOOR } from '../verdict/steps.js';

/** The A/A spread assumed for rows whose records store none: bee-go and bee-rs counts repeat to 0.05% (src/verdict/steps.ts). */
export const DEFAULT_COUNT_SPREAD = NOISE_FLOOR;

export interface CountPoint {
  /** Instructions per work unit (per byte, else per op, else per iteration). */
  unit: number;
  sha: string;
  /** The row's A/A spread as the record stored it. */
  spread?: number;
  /** Runtime / compiler and counter, as one comparable text. */
  toolchain: string;
  /** OS, architecture and CPU model, as one comparable text. */
  host: string;
}

export interface CountStep {
  /** This point's count per work unit over the previous counted point's, minus 1. */
  change: number;
  /** The previous counted point's commit: the step is in the commits after it, up to this one. */
  since: string;
  /** The spread the change was held against, and where it came from. */
  spread: number;
  spread_from: 'record' | 'default';
  /** Set when the toolchain or host changed between the two points (named from -> to). */
  cause?: { kind: 'toolchain' | 'host'; from: string; to: string };
}

/** Steps by position into `points` (the branch's counted points, oldest first). */
export function countSteps(points: readonly CountPoint[]): Map<number, CountStep> {
  const out = new Map<number, CountStep>();
  for (let i = 1; i < points.length; i++) {
    const prev = points[i - 1]!;
    const cur = points[i]!;
    const stored = [prev.spread, cur.spread].filter((s): s is number => s !== undefined);
    const spread = stored.length > 0 ? Math.max(...stored) : DEFAULT_COUNT_SPREAD;
    const change = cur.unit / prev.unit - 1;
    const moved = Math.abs(change) >= spread;
    const cause =
      prev.toolchain !== cur.toolchain
        ? { kind: 'toolchain' as const, from: prev.toolchain, to: cur.toolchain }
        : moved && prev.host !== cur.host
          ? { kind: 'host' as const, from: prev.host, to: cur.host }
          : undefined;
    if (!moved && !cause) continue;
    out.set(i, { change, since: prev.sha, spread, spread_from: stored.length > 0 ? 'record' : 'default', ...(cause ? { cause } : {}) });
  }
  return out;
}
