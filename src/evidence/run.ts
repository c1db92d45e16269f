// One evidence run once on a built runner inside a job (a single run, a shard): the units it takes
// of the job's plan, one process, its problems named with the runner and the evidence.
import type { RunnerCommand } from '../build/builder.js';
import type { BeeTarget } from '../run/invoke.js';
import type { MeasureKind } from '../spec/measure.js';
import { planOf, type Plan } from '../spec/plan.js';
import type { Runner } from '../spec/schema.js';
import { EVIDENCES } from './registry.js';
import type { EvidenceRun } from './record.js';

export interface EvidenceJobOptions {
  runner: Runner;
  /** The job's share of the runner's plan; the evidence keeps the units it takes. */
  plan: Plan;
  out: string;
  /** Budget of one native process for a plan (src/pipeline/options.ts processBudgetMs). */
  budgetMs: (plan: Plan) => number;
  fixtures?: string;
  bee?: BeeTarget;
  log: (line: string) => void;
  /** Timed iterations of a deterministic evidence, when fewer than its own (a sharded piece cut to fit). */
  iterations?: number;
  /** A folder where the run's raw output stays (callgrind's dumps, for function profiles). */
  keep?: string;
}

/** The run, or a null result and `skipped` with the reason the evidence cannot run here (no valgrind). */
export async function runEvidence(kind: MeasureKind, cmd: RunnerCommand, o: EvidenceJobOptions): Promise<EvidenceRun & { skipped?: string }> {
  const ev = EVIDENCES[kind];
  const plan = planOf(o.plan, ev.takes);
  // "js: ..." for wall time (as a single run always said), "js: instructions: ..." for the others.
  const name = ev.id === 'wall' ? o.runner : `${o.runner}: ${ev.label}`;
  if (plan.units.length === 0) return { result: null, problems: [] };
  const why = await ev.unavailable(o.runner);
  if (why) {
    o.log(`${name} skipped: ${why}`);
    return { result: null, problems: [], skipped: `${name}: ${why}` };
  }
  const run = await ev.run(cmd, {
    runner: o.runner,
    plan,
    out: o.out,
    timeoutMs: o.budgetMs(plan),
    fixtures: o.fixtures,
    bee: o.bee,
    ...(o.iterations ? { iterations: o.iterations } : {}),
    ...(o.keep ? { keep: o.keep } : {}),
    onLine: (l) => o.log(`[${ev.id === 'wall' ? o.runner : `${o.runner} ${ev.id}`}] ${l}`),
  });
  const problems = run.problems.map((p) => `${name}: ${p}`);
  for (const p of problems) o.log(p);
  return { result: run.result, problems };
}
