// Estimated cycles: the counting runs with callgrind's cache simulation on (src/count/callgrind.ts
// CACHE_SIM_FLAGS, a fixed cache geometry), each timed iteration's Ir + 10 x L1 misses + 100 x
// last-level misses (KCachegrind's CEst; docs/evidence.md "Estimated cycles"), judged like counts.
// Counts do not see memory; cycles see what the simulated caches make of it.
import { countingEvidence } from './counting.js';
import { CYCLES_VIEW } from './views.js';

export const CYCLES = countingEvidence('cycles', {
  view: CYCLES_VIEW,
  dir: 'cycles',
  cacheSim: true,
  // Plain counting's slowdown times the cache simulation's cost over it, measured on bee-rs (docs/calibration.md "Estimated cycles").
  slowdown: { setup: 5, warmup: 5, timed: 50 * 5 },
  profiles: false,
  tool: 'callgrind cache simulation',
});
