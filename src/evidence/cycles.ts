// Estimated cycles: the CPU units under callgrind with its cache simulation on (src/run/count.ts,
// src/count/callgrind.ts CACHE_SIM_FLAGS), a few iterations, each iteration's Ir + 10 x L1 misses
// + 100 x last-level misses (KCachegrind's CEst, docs/evidence.md "Estimated cycles"), judged by
// the step rule (src/verdict/steps.ts) like instruction counts. Counts do not see memory; cycles
// see what the simulated caches make of it. Only the cycles attach to a wall-time result.
import { z } from 'zod';
import { findCounter } from '../count/callgrind.js';
import { attachFigures } from '../run/attach.js';
import { COUNT_ITERATIONS, countRunner, isCounted } from '../run/count.js';
import { MEASURE_NAMES } from '../spec/measure.js';
import { INSTRUCTION_DEFAULTS, judgeSteps } from '../verdict/index.js';
import type { DeterministicEvidence } from './record.js';

export const CYCLES: DeterministicEvidence<'cycles', number[]> = {
  id: 'cycles',
  ...MEASURE_NAMES.cycles,
  deterministic: true,
  takes: isCounted,
  iterations: COUNT_ITERATIONS,
  dir: 'cycles',
  verb: 'counted',
  async unavailable() {
    const found = await findCounter();
    return found.counter ? null : found.reason;
  },
  async run(cmd, o) {
    const found = await findCounter();
    if (!found.counter) return { result: null, problems: [found.reason] };
    return countRunner(cmd, {
      runner: o.runner,
      plan: o.plan,
      counter: found.counter,
      out: o.out,
      timeoutMs: o.timeoutMs,
      fixtures: o.fixtures,
      env: o.env,
      onLine: o.onLine,
      iterations: o.iterations,
      keepDumps: o.keep,
      cacheSim: true,
    });
  },
  figures: (c) => c.cycles ?? null,
  figuresSchema: z.array(z.number().nonnegative()),
  attach: (into, from) => attachFigures(into, from, (c) => (c.cycles ? { cycles: c.cycles } : null), from.counter ? { counter: from.counter } : {}),
  counterOf: (r) => (r.counter ? `callgrind cache simulation (${r.counter.version})` : null),
  judge: (threshold) => (base, baseAgain, head) => judgeSteps(base, baseAgain, head, { threshold }),
  defaultThreshold: INSTRUCTION_DEFAULTS.threshold,
};
