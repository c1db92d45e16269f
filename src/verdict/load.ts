// Whether the machine's load moved during an A/B's rounds. Each round pairs base and head on the
// same machine state, so the change is unaffected; but a reader comparing against another run
// should know the absolute figures straddle two load levels.
import { median } from '../stats/index.js';
import type { PairedRow } from './row.js';

/** A side's round medians spreading over more than this (typical row) means the load moved. */
export const LOAD_SPREAD = 1.5;

export interface LoadShift {
  /** The typical row's spread of round medians, largest over the two sides (e.g. 2.1 for 2.1x). */
  spread: number;
  /** Rows whose own spread was over LOAD_SPREAD, of rows with enough rounds. */
  rows: number;
  of: number;
}

/** max / min of the round medians after dropping the single fastest and slowest round (one hiccup is not a load change). */
function trimmedSpread(medians: readonly number[]): number | null {
  const v = medians.filter((x) => x > 0 && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length < 4) return null;
  return v[v.length - 2]! / v[1]!;
}

/** The shift when the typical row's round medians spread over LOAD_SPREAD, else null. */
export function loadShift(rows: readonly PairedRow[]): LoadShift | null {
  const spreads = rows.flatMap((r) => {
    if (r.status !== 'ok') return [];
    const s = [trimmedSpread(r.base), trimmedSpread(r.head)].filter((x): x is number => x !== null);
    return s.length > 0 ? [Math.max(...s)] : [];
  });
  if (spreads.length === 0) return null;
  const spread = median(spreads);
  if (!(spread > LOAD_SPREAD)) return null;
  return { spread, rows: spreads.filter((s) => s > LOAD_SPREAD).length, of: spreads.length };
}
