// What every pipeline takes, and what it derives from it: the runner's plan and each runner
// process's time budget, and the node check before any net case.
import { preflight } from '../bee/preflight.js';
import { planBudgetMs, resolvePlan, type Plan } from '../spec/plan.js';
import type { RunSize, Runner, Spec } from '../spec/schema.js';
import type { BeeTarget } from '../run/invoke.js';

export interface PipelineOptions {
  specFile: string;
  size: RunSize;
  cases: readonly string[];
  large?: boolean;
  bee?: BeeTarget;
  fixtures?: string;
  outDir: string;
  cacheDir?: string;
  log: (line: string) => void;
}

/** Extra allowance per runner process on top of the spec's case timeouts: start-up and fixtures. */
const PROCESS_SLACK_MS = 90_000;

/** Time one runner process may take for a plan: its units' budgets plus slack. */
export const processBudgetMs = (plan: Plan): number => planBudgetMs(plan, PROCESS_SLACK_MS);

/** The node check before any net case: a dead node or unusable batch fails the run at once. */
export async function checkNode(o: PipelineOptions, units: ReadonlyArray<{ kind: string }>): Promise<void> {
  if (!o.bee || !units.some((u) => u.kind === 'net')) return;
  const { version } = await preflight(o.bee);
  o.log(`Bee node ${o.bee.url} (version ${version}) answers; batch ${o.bee.batchId} is usable`);
}

/** The plan of one runner for the job's selection (the hooks are applied at each invocation). */
export function planFor(o: Pick<PipelineOptions, 'size' | 'cases' | 'large'>, spec: Spec, specHash: string, runner: Runner): Plan {
  return resolvePlan({ spec, specHash, runner, profile: o.size, cases: o.cases, large: o.large });
}
