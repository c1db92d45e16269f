// Prose report.md and report.html both print under their tables, written once.
import { formatBytes } from '../units.js';
import { RSS_BASELINE_CASE, STORY_MIN_BYTES, TRANSIENT_BELOW } from '../../verdict/memory.js';

/** What the allocation line says, for the legend of a report that has one. */
export const ALLOC_LEGEND = `heap: bytes and allocations per op of work inside the timed region, by the runtime's own accounting in a separate allocation run (median of its iterations; CPU rows; bee-js counts bytes only). Bytes allocated are not memory kept: transient = one iteration allocates at least ${1 / TRANSIENT_BELOW}x what the peak RSS grew by over the runner's ${RSS_BASELINE_CASE} row (short-lived: collector or allocator work, not memory); retained = the peak RSS grew by at least what one iteration allocates (consistent with keeping it, but setup data or what earlier cases left resident read the same: transient is the conclusive reading); no word where the two do not disagree that clearly, below ${formatBytes(STORY_MIN_BYTES)} per iteration, or without a ${RSS_BASELINE_CASE} row.`;

export const ALLOC_SCOREBOARD_NOTE =
  "Geometric mean over rows where two or more runners have allocation figures of each runner's heap bytes per unit of work (per byte on byte rows, per op otherwise) as a multiple of the least in the row; 1.00x = least everywhere. Least = rows where the runner allocated least. A row where some runner allocates nothing in the timed region has no ratio: it is out of the mean and Rows, and counted under Allocates nothing for the runners at zero.";
