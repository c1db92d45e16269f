// Estimated cycles: the counting runs with callgrind's cache simulation on (src/count/callgrind.ts
// CACHE_SIM_FLAGS, a fixed cache geometry), each timed iteration's Ir + 10 x L1 misses + 100 x
// last-level misses (KCachegrind's CEst; docs/evidence.md "Estimated cycles"), judged like counts.
// Counts do not see memory; cycles see what the simulated caches make of it.
import { LINE_MISS_CYCLES } from '../count/callgrind.js';
import { countingEvidence } from './counting.js';
import { CYCLES_METRICS } from './history-metrics.js';
import { CYCLES_VIEW } from './views.js';

export const CYCLES = countingEvidence('cycles', {
  view: CYCLES_VIEW,
  dir: 'cycles',
  cacheSim: true,
  // One timed iteration, not counting's three: the simulation is the cost (about 5.5x plain
  // counting per iteration; instrumentation already starts and stops around each timed region), and
  // the A/A spread the rule needs is between processes, which one iteration per process reads
  // (docs/calibration.md "Estimated cycles", cost and calibration with one iteration).
  iterations: 1,
  // Plain counting's slowdown times the cache simulation's cost over it per timed iteration, measured (docs/calibration.md "Estimated cycles").
  slowdown: { setup: 5, warmup: 5, timed: 50 * 5.5 },
  profiles: false,
  // bee-js's cases each in a node of their own: where a case's objects and buffers lie depended on
  // what the earlier cases' workers left in malloc's arenas (docs/calibration.md "Estimated cycles").
  processPerUnit: ['js'],
  // Two lines missed in both cache levels: which few lines an almost empty step misses depends on
  // the thread it runs on (bee-go's empty noop read 8,129 or 8,239 cycles, one line apart, across
  // processes of the same build), so such a row's floor is at least two lines' share of its
  // figure (2.7% of the noop's 8,130); a row of millions of cycles keeps the floor
  // (docs/calibration.md "Estimated cycles").
  resolution: 2 * LINE_MISS_CYCLES,
  tool: 'callgrind cache simulation',
  // History records keep them beside the allocation figures in each case's metrics; the trend
  // site's case view offers them in its figure select (docs/evidence.md "Estimated cycles").
  historyUnits: CYCLES_METRICS,
});
