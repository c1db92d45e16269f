// A single run of several runners into an aggregate report (`bee-bench run`, the action's push and
// dispatch runs): per runner build, wall-time run and, when asked, a counting run and an
// allocation run of its CPU cases, each in its own process, their figures attached to the result.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { findCounter } from '../count/callgrind.js';
import { measuresAllocations, measuresInstructions, measuresWall, type Measure } from '../spec/measure.js';
import { aggregate } from '../report/model/aggregate.js';
import type { AggregateModel, NotRun } from '../report/model/types.js';
import { writeReports, type WrittenReports } from '../report/write.js';
import { allocationRun } from '../run/alloc-ab.js';
import { attachAllocations, attachCounts, countRunner } from '../run/count.js';
import { invokeRunner } from '../run/invoke.js';
import type { Plan } from '../spec/plan.js';
import { loadSpec } from '../spec/load.js';
import type { Result, Runner } from '../spec/schema.js';
import { selectCases } from '../spec/select.js';
import { checkNode, planFor, processBudgetMs, type PipelineOptions } from './options.js';

export interface SinglePipelineOptions extends PipelineOptions {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
  /** Default wall. With instructions, the CPU cases also run under callgrind and the result carries their counts; likewise allocations. */
  measure?: Measure;
  /** Runners asked for but left out before the run (bee-go without its module): the report names them. */
  notRun?: readonly NotRun[];
}

export interface SinglePipelineOutcome {
  results: Result[];
  builds: BuiltRunner[];
  /** Per runner that produced no clean run: what went wrong. */
  problems: string[];
  model: AggregateModel;
  reports: WrittenReports;
}

/** The CPU cases of one built runner counted under callgrind; a missing valgrind is a logged skip. */
async function countCases(built: BuiltRunner, plan: Plan, o: SinglePipelineOptions) {
  const found = await findCounter();
  if (!found.counter) {
    o.log(`${built.runner}: instruction counts skipped: ${found.reason}; the wall-time results stand`);
    return { result: null, problems: [] };
  }
  const run = await countRunner(built.command, {
    runner: built.runner,
    plan,
    counter: found.counter,
    out: join(resolve(o.outDir), 'counts', `${built.runner}.json`),
    timeoutMs: processBudgetMs(plan),
    fixtures: o.fixtures,
    onLine: (l) => o.log(`[${built.runner} count] ${l}`),
  });
  for (const p of run.problems) o.log(`${built.runner}: instruction counts: ${p}`);
  return { result: run.result, problems: run.problems.map((p) => `${built.runner}: instruction counts: ${p}`) };
}

export async function singlePipeline(o: SinglePipelineOptions): Promise<SinglePipelineOutcome> {
  const measure = o.measure ?? ['wall'];
  const { spec, hash } = loadSpec(o.specFile);
  await checkNode(o, selectCases(spec, o.cases));
  const results: Result[] = [];
  const builds: BuiltRunner[] = [];
  const problems: string[] = [];
  const notRun: NotRun[] = [...(o.notRun ?? [])];
  for (const r of o.runners) {
    let built: BuiltRunner;
    try {
      built = await buildRunner({ runner: r.runner, source: r.source, cacheDir: o.cacheDir, buildCommand: r.buildCommand, log: o.log });
      builds.push(built);
    } catch (e) {
      problems.push(`${r.runner}: build failed: ${e instanceof Error ? e.message : String(e)}`);
      o.log(problems.at(-1)!);
      notRun.push({ runner: r.runner, status: 'failed', reason: problems.at(-1)!.split('\n')[0]! });
      continue;
    }
    const out = join(resolve(o.outDir), 'results', `${r.runner}.json`);
    const plan = planFor(o, spec, hash, r.runner);
    let result: Result | null = null;
    if (measuresWall(measure)) {
      const inv = await invokeRunner(built.command, {
        plan,
        out,
        timeoutMs: processBudgetMs(plan),
        fixtures: o.fixtures,
        bee: o.bee,
        onLine: (l) => o.log(`[${r.runner}] ${l}`),
      });
      result = inv.result;
      if (inv.problem) {
        problems.push(`${r.runner}: ${inv.problem}`);
        o.log(problems.at(-1)!);
      }
    }
    if (measuresInstructions(measure) && (result || !measuresWall(measure))) {
      const counted = await countCases(built, plan, o);
      problems.push(...counted.problems);
      // Instructions only: the counting run's own result (its times are valgrind's, its counts are the point).
      if (counted.result) result = result ? attachCounts(result, counted.result) : counted.result;
    }
    if (measuresAllocations(measure) && (result || !measuresWall(measure))) {
      const allocated = await allocationRun(built.command, {
        plan,
        out: join(resolve(o.outDir), 'allocations', `${r.runner}.json`),
        timeoutMs: processBudgetMs(plan),
        fixtures: o.fixtures,
        onLine: (l) => o.log(`[${r.runner} allocations] ${l}`),
      });
      for (const p of allocated.problems) problems.push(`${r.runner}: allocations: ${p}`);
      if (allocated.result) result = result ? attachAllocations(result, allocated.result) : allocated.result;
    }
    if (result && measure.some((m) => m !== 'wall')) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    }
    if (result) results.push(result);
    else notRun.push({ runner: r.runner, status: 'failed', reason: problems.filter((p) => p.startsWith(`${r.runner}:`)).at(-1) ?? 'no result' });
  }
  const environment = { loadAverage: loadavg() as [number, number, number], cpus: availableParallelism() };
  const model = aggregate(results, spec, { specHash: hash, notRun, environment });
  const reports = writeReports(o.outDir, model);
  return { results, builds, problems, model, reports };
}
