// Expected seconds of each piece of a sharded run, for balancing shards. From the history's last
// recorded median per (runner, case, param) where there is one; else a static estimate derived
// from the spec itself: the quick profile is sized so one iteration takes roughly QUICK_ITERATION_S
// in every client (counts are scaled per runner for that; a case with more iterations of its own,
// the harness's noop, spends the same time per case), so a unit's iteration costs that much times
// its work over the same case's quick work. Counting under callgrind is ~50x slower.
import type { HistoryRecord } from '../history/schema.js';
import type { Plan, PlanUnit } from '../spec/plan.js';
import { EVIDENCES } from '../evidence/index.js';
import type { MeasureKind } from '../spec/measure.js';

/** The quick profile's design target per iteration (50-300 ms in every client). */
export const QUICK_ITERATION_S = 0.15;
/** Process start, fixtures and setup of one unit, s. */
export const UNIT_OVERHEAD_S = 1;
/** Callgrind's slowdown on instrumented code (the warmup runs uninstrumented, ~5x). */
const INSTRUMENTED_SLOWDOWN = 50;
const UNINSTRUMENTED_SLOWDOWN = 5;
/** Callgrind's cache simulation over plain counting, measured on bee-rs (docs/calibration.md "Estimated cycles"). */
const CACHE_SIM_COST = 5;

export interface CostModel {
  /** Seconds of one iteration of a unit of `plan` natively, and where the figure came from. */
  iterationS(plan: Plan, unit: PlanUnit): { seconds: number; from: 'history' | 'static' };
}

const workOf = (u: Pick<PlanUnit, 'work'>) => u.work.bytes ?? u.work.ops ?? 1;

/** The static model: each unit against the quick plan's unit of the same case and runner (`quickIters`: the quick profile's iterations). */
export function staticModel(quickPlans: ReadonlyMap<string, Plan>, quickIters: number): CostModel {
  return {
    iterationS(plan, unit) {
      const quick = quickPlans.get(plan.runner)?.units.find((q) => q.id === unit.id);
      if (!quick) return { seconds: QUICK_ITERATION_S, from: 'static' };
      const quickIteration = (QUICK_ITERATION_S * quickIters) / quick.iters;
      return { seconds: (quickIteration * workOf(unit)) / workOf(quick), from: 'static' };
    },
  };
}

/** The history's newest median per (runner, case, label, profile) where recorded (0 for a skipped row), else `fallback`. */
export function historyModel(records: readonly HistoryRecord[], fallback: CostModel): CostModel {
  const newest = new Map<string, { at: string; ns: number }>();
  for (const r of records) {
    for (const c of r.cases) {
      // A runner that skips a case (no client has an offline encrypting chunker, say) skips it at
      // once: the piece costs its overhead only, not the thousands of seconds its size suggests.
      const ns = c.status === 'skipped' ? 0 : c.status === 'ok' ? c.median_ns : null;
      if (ns === null) continue;
      const key = `${r.runner}\u0000${c.id}\u0000${c.label}\u0000${r.spec.profile}`;
      const seen = newest.get(key);
      if (!seen || r.started_at > seen.at) newest.set(key, { at: r.started_at, ns });
    }
  }
  return {
    iterationS(plan, unit) {
      const hit = newest.get(`${plan.runner}\u0000${unit.id}\u0000${String(unit.param.label)}\u0000${plan.profile}`);
      return hit ? { seconds: hit.ns / 1e9, from: 'history' } : fallback.iterationS(plan, unit);
    },
  };
}

/** Seconds one evidence of one unit takes in a shard. Net units are measured by wall time only. */
export function unitCostS(model: CostModel, plan: Plan, unit: PlanUnit, evidence: MeasureKind, iterations?: number): number {
  const it = model.iterationS(plan, unit).seconds;
  switch (evidence) {
    case 'wall':
      return UNIT_OVERHEAD_S + (unit.warmup + unit.iters) * it;
    case 'instructions':
    case 'cycles':
      // Cycles: the same counting run with the cache simulation on the instrumented iterations (docs/calibration.md "Estimated cycles").
      return (
        UNIT_OVERHEAD_S * UNINSTRUMENTED_SLOWDOWN +
        unit.warmup * it * UNINSTRUMENTED_SLOWDOWN +
        (iterations ?? EVIDENCES[evidence].iterations) * it * INSTRUMENTED_SLOWDOWN * (evidence === 'cycles' ? CACHE_SIM_COST : 1)
      );
    case 'allocations':
      return UNIT_OVERHEAD_S + (unit.warmup + (iterations ?? EVIDENCES.allocations.iterations)) * it;
  }
}
