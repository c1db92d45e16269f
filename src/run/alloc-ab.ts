// The allocation runs (docs/design.md "Allocations"): the CPU units of the plan at native speed, a
// few iterations, BEE_BENCH_ALLOCS=1, so the runner records each timed iteration's heap
// allocations by its runtime's own accounting. Never together with wall timing or counting (the
// accounting costs time). For an A/B, base twice and head once, all at the same time (the figures
// do not depend on the machine's load); the second base run measures the A/A spread.
import { join } from 'node:path';
import type { RunnerCommand } from '../build/builder.js';
import { planOf, type Plan } from '../spec/plan.js';
import type { CaseResult, Result } from '../spec/schema.js';
import type { AllocatedRow } from '../verdict/allocation-rows.js';
import type { AllocationFigures } from '../verdict/allocations.js';
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
}

/** One allocation run; a case that ran but carries no figures is a named problem. */
export async function allocationRun(cmd: RunnerCommand, o: AllocationRunOptions): Promise<{ result: Result | null; problems: string[] }> {
  const plan = allocationPlan(o.plan);
  if (plan.units.length === 0) return { result: null, problems: [] };
  const inv = await invokeRunner(cmd, { ...o, plan, env: { ...o.env, BEE_BENCH_ALLOCS: '1' } });
  const problems = inv.problem ? [inv.problem] : [];
  for (const c of inv.result?.cases ?? []) {
    if (c.status === 'ok' && !c.alloc_bytes) problems.push(`${c.id} ${String(c.param.label)}: no alloc_bytes (does the runner honour BEE_BENCH_ALLOCS=1?)`);
  }
  return { result: inv.result, problems };
}

const RUNS = ['base', 'baseAgain', 'head'] as const;
type RunName = (typeof RUNS)[number];
const RUN_TEXT: Record<RunName, string> = { base: 'base', baseAgain: 'base (second run)', head: 'head' };

export interface AllocationAbOutcome {
  /** How the runner counted (result.alloc_counter.method), when it said. */
  counter: string | null;
  rows: AllocatedRow[];
  problems: string[];
  elapsedMs: number;
  /** The first base run's result and the head run's (their client and host name the report's sides). */
  results: { base: Result | null; head: Result | null };
}

const keyOf = (c: CaseResult) => `${c.id}\u0000${String(c.param.label)}`;
const figuresOf = (c: CaseResult): AllocationFigures | null => (c.alloc_bytes ? { bytes: c.alloc_bytes, ...(c.allocs ? { allocs: c.allocs } : {}) } : null);

export async function allocationAb(
  sides: Record<'base' | 'head', RunnerCommand>,
  o: Omit<AllocationRunOptions, 'out' | 'env' | 'onLine'> & {
    outDir: string;
    env?: { base?: Readonly<Record<string, string>>; head?: Readonly<Record<string, string>> };
    log?: (line: string) => void;
  },
): Promise<AllocationAbOutcome> {
  const started = performance.now();
  const runs = await Promise.all(
    RUNS.map((name) => {
      const side = name === 'head' ? 'head' : 'base';
      return allocationRun(sides[side], {
        plan: o.plan,
        out: join(o.outDir, 'allocations', `${name}.json`),
        timeoutMs: o.timeoutMs,
        fixtures: o.fixtures,
        env: o.env?.[side],
        onLine: (l) => o.log?.(`[allocations ${name}] ${l}`),
      });
    }),
  );
  const byRun = Object.fromEntries(RUNS.map((name, i) => [name, new Map((runs[i]!.result?.cases ?? []).map((c) => [keyOf(c), c]))])) as Record<
    RunName,
    Map<string, CaseResult>
  >;
  const rows: AllocatedRow[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const c of run.result?.cases ?? []) {
      if (seen.has(keyOf(c))) continue;
      seen.add(keyOf(c));
      const fig = (name: RunName) => {
        const got = byRun[name].get(keyOf(c));
        return got ? figuresOf(got) : null;
      };
      const row: AllocatedRow = { caseId: c.id, label: String(c.param.label), base: fig('base'), baseAgain: fig('baseAgain'), head: fig('head'), work: c.work };
      const missing = RUNS.filter((n) => !row[n]);
      if (c.status === 'skipped') Object.assign(row, { skipped: true, note: c.skip_reason ?? 'no reason given' });
      else if (missing.length > 0) row.note = `not measured in ${missing.map((n) => RUN_TEXT[n]).join(', ')}`;
      rows.push(row);
    }
  }
  const counter = runs.map((r) => r.result?.alloc_counter?.method).find((m) => m !== undefined) ?? null;
  return {
    counter,
    rows,
    problems: runs.flatMap((r, i) => r.problems.map((p) => `${RUN_TEXT[RUNS[i]!]}: ${p}`)),
    elapsedMs: performance.now() - started,
    results: { base: runs[0]!.result, head: runs[2]!.result },
  };
}
