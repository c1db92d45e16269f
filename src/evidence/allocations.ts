// Allocations: the CPU units at native speed with the runtime's own accounting (BEE_BENCH_ALLOCS=1,
// src/run/alloc.ts), judged by the step rule on bytes and allocation counts (src/verdict/allocations.ts).
import { z } from 'zod';
import { ALLOC_ITERATIONS, allocationRun } from '../run/alloc.js';
import { attachFigures } from '../run/attach.js';
import { isCounted } from '../run/count.js';
import { judgeAllocations, type AllocationFigures } from '../verdict/index.js';
import type { DeterministicEvidence } from './record.js';
import { ALLOCATIONS_VIEW } from './views.js';

const series = z.array(z.number().nonnegative());

export const ALLOCATIONS: DeterministicEvidence<'allocations', AllocationFigures> = {
  id: 'allocations',
  label: ALLOCATIONS_VIEW.label,
  view: ALLOCATIONS_VIEW,
  deterministic: true,
  takes: isCounted,
  iterations: ALLOC_ITERATIONS,
  slowdown: { setup: 1, warmup: 1, timed: 1 },
  dir: 'allocations',
  verb: ALLOCATIONS_VIEW.verb,
  unavailable: async () => null,
  run: (cmd, o) =>
    allocationRun(cmd, { plan: o.plan, out: o.out, timeoutMs: o.timeoutMs, fixtures: o.fixtures, env: o.env, onLine: o.onLine, iterations: o.iterations }),
  figures: (c) => (c.alloc_bytes ? { bytes: c.alloc_bytes, ...(c.allocs ? { allocs: c.allocs } : {}) } : null),
  figuresSchema: z.strictObject({ bytes: series, allocs: series.optional() }),
  attach: (into, from) =>
    attachFigures(
      into,
      from,
      (c) => (c.alloc_bytes ? { alloc_bytes: c.alloc_bytes, ...(c.allocs ? { allocs: c.allocs } : {}) } : null),
      from.alloc_counter ? { alloc_counter: from.alloc_counter } : {},
    ),
  counterOf: (r) => r.alloc_counter?.method ?? null,
  judge: (floor) => (base, baseAgain, head) => judgeAllocations(base, baseAgain, head, { floor }),
  defaultThreshold: ALLOCATIONS_VIEW.defaultThreshold,
  profiles: false,
};
