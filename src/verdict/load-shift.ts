// Whether the machine's load moved during an A/B's rounds. Each round pairs base and head on the
// same machine state, so the change is unaffected; but a reader comparing against another run
// should know the absolute figures straddle two load levels.
import { median } from '../stats/index.js';
import type { PairedRow } from './row.js';

/**
 * A side's round medians spreading over more than this (typical row) means the load moved. A
 * quiet machine keeps a CPU row's rounds within a few percent; busy processes started half-way
 * moved them 1.3-1.7x (test/verdict/load-shift.test.ts), less than the load itself, since a
 * runner waking from its pacing wait runs ahead of them for a while.
 */
export const LOAD_SPREAD = 1.25;

export interface LoadShift {
  /** The typical row's spread of round medians, largest over the two sides (e.g. 2.1 for 2.1x). */
  spread: number;
  /** Rows whose own spread was over LOAD_SPREAD, of rows with enough rounds. */
  rows: number;
  of: number;
}

/**
 * Upper over lower quartile of the round medians: a level that held for a quarter of the rounds
 * or more shows in full, while one slow round (a hiccup, not a load change) does not.
 */
function quartileSpread(medians: readonly number[]): number | null {
  const v = medians.filter((x) => x > 0 && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length < 4) return null;
  return v[Math.ceil((3 * v.length) / 4) - 1]! / v[Math.floor(v.length / 4)]!;
}

/** The shift when the typical row's round medians spread over LOAD_SPREAD, else null. */
export function loadShift(rows: readonly PairedRow[]): LoadShift | null {
  const spreads = rows.flatMap((r) => {
    if (r.status !== 'ok') return [];
    const s = [quartileSpread(r.base), quartileSpread(r.head)].filter((x): x is number => x !== null);
    return s.length > 0 ? [Math.max(...s)] : [];
  });
  if (spreads.length === 0) return null;
  const spread = median(spreads);
  if (!(spread > LOAD_SPREAD)) return null;
  return { spread, rows: spreads.filter((s) => s > LOAD_SPREAD).length, of: spreads.length };
}
