// A single run of several runners into an aggregate report (`bee-bench run`, the action's push and
// dispatch runs): per runner build, then each evidence of the measure in its own process
// (src/evidence), the others' figures attached to the wall-time result. A counting run also leaves
// its counted rows' compact function profiles (src/profile/run-compact.ts), which the history keeps.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { EVIDENCES, PROFILED, runEvidence } from '../evidence/index.js';
import { DEFAULT_MEASURE, isDeterministic, measuresWall, type Measure } from '../spec/measure.js';
import { aggregate } from '../report/model/aggregate.js';
import type { AggregateModel, NotRun } from '../report/model/types.js';
import { writeReports, type WrittenReports } from '../report/write.js';
import { loadSpec } from '../spec/load.js';
import type { Result, Runner } from '../spec/schema.js';
import { selectCases } from '../spec/select.js';
import type { RunProfiles } from '../profile/index.js';
import { compactRunProfiles } from '../profile/run-compact.js';
import { reachPrecision, type PrecisionRow } from './precision.js';
import { checkNode, planFor, processBudgetMs, type PipelineOptions } from './options.js';

export interface SinglePipelineOptions extends PipelineOptions {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
  /** Default wall. With instructions, the CPU cases also run under callgrind and the result carries their counts; likewise allocations. */
  measure?: Measure;
  /** Runners asked for but left out before the run (bee-go without its module): the report names them. */
  notRun?: readonly NotRun[];
  /** Time the rows whose ranking is open may take to be measured again (precision.ts); 0: none. */
  precisionBudgetMs?: number;
}

export interface SinglePipelineOutcome {
  results: Result[];
  builds: BuiltRunner[];
  /** Per runner that produced no clean run: what went wrong. */
  problems: string[];
  model: AggregateModel;
  reports: WrittenReports;
  /** Per runner that counted: its counted rows' compact profiles (src/profile/compact.ts), for the history. */
  profiles: RunProfiles[];
  /** The rows measured again until their ranking was told or the budget ended (precision.ts). */
  precision: PrecisionRow[];
}

export async function singlePipeline(o: SinglePipelineOptions): Promise<SinglePipelineOutcome> {
  const measure = o.measure ?? DEFAULT_MEASURE;
  const { spec, hash } = loadSpec(o.specFile);
  await checkNode(o, selectCases(spec, o.cases));
  const results: Result[] = [];
  const builds: BuiltRunner[] = [];
  const problems: string[] = [];
  const profiles: RunProfiles[] = [];
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
    for (const kind of measure) {
      // The other evidences join a wall-time result; without wall time, the first one's result carries them.
      if (isDeterministic(kind) && measuresWall(measure) && !result) break;
      const ev = EVIDENCES[kind];
      // The profiled evidence (counts) keeps its dumps until the counted rows' compact profiles are read from them.
      const keep = kind === PROFILED ? join(resolve(o.outDir), ev.dir, `raw-${r.runner}`) : undefined;
      const run = await runEvidence(kind, built.command, {
        runner: r.runner,
        plan,
        out: isDeterministic(kind) ? join(resolve(o.outDir), ev.dir, `${r.runner}.json`) : out,
        budgetMs: processBudgetMs,
        fixtures: o.fixtures,
        ...(isDeterministic(kind) ? {} : { bee: o.bee }),
        ...(keep ? { keep } : {}),
        log: o.log,
      });
      problems.push(...run.problems);
      if (keep) {
        const compact = compactRunProfiles(r.runner, keep, plan, run.result, resolve(o.outDir), o.log);
        if (compact) profiles.push(compact);
      }
      if (run.result) result = result && ev.deterministic ? ev.attach(result, run.result) : run.result;
    }
    if (result && measure.some(isDeterministic)) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    }
    if (result) results.push(result);
    else notRun.push({ runner: r.runner, status: 'failed', reason: problems.filter((p) => p.startsWith(`${r.runner}:`)).at(-1) ?? 'no result' });
  }
  // Rows whose ranking the first pass leaves open are measured again, their runners' files rewritten;
  // not when BEE_BENCH_ITERS pins every unit's iterations (tests, counting runs): more would break the pin.
  const precision =
    measuresWall(measure) && process.env.BEE_BENCH_ITERS === undefined
      ? await reachPrecision({
          results,
          builds,
          plans: new Map(results.map((r) => [r.runner, planFor(o, spec, hash, r.runner)])),
          groupOf: (id) => spec.cases.find((c) => c.id === id)?.group ?? 'cpu',
          outDir: resolve(o.outDir),
          ...(o.precisionBudgetMs !== undefined ? { budgetMs: o.precisionBudgetMs } : {}),
          ...(o.fixtures ? { fixtures: o.fixtures } : {}),
          ...(o.bee ? { bee: o.bee } : {}),
          log: o.log,
        })
      : [];
  for (const r of results)
    if (precision.some((p) => p.added[r.runner])) writeFileSync(join(resolve(o.outDir), 'results', `${r.runner}.json`), `${JSON.stringify(r, null, 2)}\n`);
  const environment = { loadAverage: loadavg() as [number, number, number], cpus: availableParallelism() };
  const model = aggregate(results, spec, { specHash: hash, notRun, environment });
  const reports = writeReports(o.outDir, model);
  return { results, builds, problems, model, reports, profiles, precision };
}
