// Instruction counts: callgrind's Ir per timed iteration of the CPU units (src/evidence/counting.ts).
import { countingEvidence } from './counting.js';
import { INSTRUCTIONS_VIEW } from './views.js';

export const INSTRUCTIONS = countingEvidence('instructions', {
  view: INSTRUCTIONS_VIEW,
  dir: 'counts',
  cacheSim: false,
  // Callgrind's slowdown on instrumented code; the warmup runs uninstrumented (~5x).
  slowdown: { setup: 5, warmup: 5, timed: 50 },
  profiles: true,
  tool: 'callgrind',
});
