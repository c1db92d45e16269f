// The allocation runs (docs/design.md "Allocations"): the CPU units of the plan at native speed, a
// few iterations, BEE_BENCH_ALLOCS=1, so the runner records each timed iteration's heap
// allocations by its runtime's own accounting. Never together with wall timing or counting (the
// accounting costs time). An A/B runs it as every deterministic evidence (src/evidence).
import type { RunnerCommand } from '../build/builder.js';
import { planOf, type Plan } from '../spec/plan.js';
import type { Result } from '../spec/schema.js';
import { isCounted } from './count.js';
import { invokeRunner } from './invoke.js';

/** Timed iterations of an allocation run: enough to compare step by step; the figures barely move. */
export const ALLOC_ITERATIONS = 3;

/** The allocation run's plan: the CPU units (net rows allocate in the node), few iterations. */
export function allocationPlan(plan: Plan, iterations = ALLOC_ITERATIONS): Plan {
  const cpu = planOf(plan, isCounted);
  return { ...cpu, units: cpu.units.map((u) => ({ ...u, iters: iterations })) };
}

export interface AllocationRunOptions {
  plan: Plan;
  out: string;
  timeoutMs: number;
  fixtures?: string;
  env?: Readonly<Record<string, string>>;
  onLine?: (line: string) => void;
  iterations?: number;
}

/** One allocation run; a case that ran but carries no figures is a named problem. */
export async function allocationRun(cmd: RunnerCommand, o: AllocationRunOptions): Promise<{ result: Result | null; problems: string[] }> {
  const plan = allocationPlan(o.plan, o.iterations);
  if (plan.units.length === 0) return { result: null, problems: [] };
  const inv = await invokeRunner(cmd, { ...o, plan, env: { ...o.env, BEE_BENCH_ALLOCS: '1' } });
  const problems = inv.problem ? [inv.problem] : [];
  for (const c of inv.result?.cases ?? []) {
    if (c.status === 'ok' && !c.alloc_bytes) problems.push(`${c.id} ${String(c.param.label)}: no alloc_bytes (does the runner honour BEE_BENCH_ALLOCS=1?)`);
  }
  return { result: inv.result, problems };
}
