// Instruction counts: the CPU units under callgrind, a few iterations (src/run/count.ts), judged by
// the step rule (src/verdict/steps.ts). Only the counts attach to a wall-time result: a counting
// run's times are valgrind's.
import { z } from 'zod';
import { findCounter } from '../count/callgrind.js';
import { attachFigures } from '../run/attach.js';
import { COUNT_ITERATIONS, countRunner, isCounted } from '../run/count.js';
import { judgeSteps } from '../verdict/index.js';
import type { DeterministicEvidence } from './record.js';
import { INSTRUCTIONS_VIEW } from './views.js';

export const INSTRUCTIONS: DeterministicEvidence<'instructions', number[]> = {
  id: 'instructions',
  label: INSTRUCTIONS_VIEW.label,
  view: INSTRUCTIONS_VIEW,
  deterministic: true,
  takes: isCounted,
  iterations: COUNT_ITERATIONS,
  // Callgrind's slowdown on instrumented code; the warmup runs uninstrumented (~5x).
  slowdown: { setup: 5, warmup: 5, timed: 50 },
  dir: 'counts',
  verb: INSTRUCTIONS_VIEW.verb,
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
    });
  },
  figures: (c) => c.instructions ?? null,
  figuresSchema: z.array(z.number().nonnegative()),
  attach: (into, from) =>
    attachFigures(into, from, (c) => (c.instructions ? { instructions: c.instructions } : null), from.counter ? { counter: from.counter } : {}),
  counterOf: (r) => (r.counter ? `callgrind (${r.counter.version})` : null),
  judge: (floor) => (base, baseAgain, head) => judgeSteps(base, baseAgain, head, { floor }),
  defaultThreshold: INSTRUCTIONS_VIEW.defaultThreshold,
};
