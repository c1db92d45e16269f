// The two pipelines the CLI and the action share: a single run of several runners into an
// aggregate report, and a same-job A/B of one runner built on two client sources.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { preflight } from '../bee/preflight.js';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { renderAbComment, type AbReportInput } from '../report/ab-comment.js';
import { aggregate } from '../report/aggregate.js';
import type { AggregateModel, NotRun } from '../report/model.js';
import { availableParallelism, loadavg } from 'node:os';
import { writeReports, writeText, type WrittenReports } from '../report/write.js';
import { loadSpec } from '../spec/load.js';
import { judgePaired, type AbRow } from '../verdict/index.js';
import type { Profile, Result, Runner, Spec } from '../spec/schema.js';
import { selectCases } from '../spec/select.js';
import { planBudgetMs, planOf, resolvePlan, type Plan, type PlanUnit } from '../spec/plan.js';
import { findCounter } from '../count/callgrind.js';
import { measuresInstructions, measuresWall, type Measure } from '../count/measure.js';
import { INSTRUCTION_DEFAULTS } from '../verdict/index.js';
import { attachCounts, countRunner, isCounted } from './count.js';
import { instructionAb, type InstructionAbOutcome } from './count-ab.js';
import { attachInstructionRows, rowsFromCounts } from './instruction-rows.js';
import { runAb, type AbOutcome } from './ab.js';
import { invokeRunner, type BeeTarget } from './invoke.js';
import { pairRows } from './pairs.js';

export interface Common {
  specFile: string;
  profile: Profile;
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

/** The node check before any net case: a dead node or unusable batch fails the run at once. */
async function checkNode(o: Common, units: ReadonlyArray<{ kind: string }>): Promise<void> {
  if (!o.bee || !units.some((u) => u.kind === 'net')) return;
  const { version } = await preflight(o.bee);
  o.log(`Bee node ${o.bee.url} (version ${version}) answers; batch ${o.bee.batchId} is usable`);
}

/** Time one runner process may take for a plan: its units' budgets plus slack. */
export const processBudgetMs = (plan: Plan): number => planBudgetMs(plan, PROCESS_SLACK_MS);

/** The plan of one runner for the job's selection (the hooks are applied at each invocation). */
export function planFor(o: Pick<Common, 'profile' | 'cases' | 'large'>, spec: Spec, specHash: string, runner: Runner): Plan {
  return resolvePlan({ spec, specHash, runner, profile: o.profile, cases: o.cases, large: o.large });
}

export interface SingleJobOptions extends Common {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
  /** Default 'wall'. With instructions, the CPU cases also run under callgrind and the result carries their counts. */
  measure?: Measure;
  /** Runners asked for but left out before the job (bee-go without its module): the report names them. */
  notRun?: readonly NotRun[];
}

export interface SingleJobOutcome {
  results: Result[];
  builds: BuiltRunner[];
  /** Per runner that produced no clean run: what went wrong. */
  problems: string[];
  model: AggregateModel;
  reports: WrittenReports;
}

/** The CPU cases of one built runner counted under callgrind; a missing valgrind is a logged skip. */
async function countCases(built: BuiltRunner, plan: Plan, o: SingleJobOptions) {
  const found = await findCounter();
  if (!found.counter) {
    o.log(`${built.runner}: instruction counts skipped: ${found.reason}; the wall-time results stand`);
    return { result: null, problems: [] };
  }
  const run = await countRunner(built.command, {
    runner: built.runner, plan, counter: found.counter,
    out: join(resolve(o.outDir), 'counts', `${built.runner}.json`), timeoutMs: processBudgetMs(plan), fixtures: o.fixtures, onLine: (l) => o.log(`[${built.runner} count] ${l}`),
  });
  for (const p of run.problems) o.log(`${built.runner}: instruction counts: ${p}`);
  return { result: run.result, problems: run.problems.map((p) => `${built.runner}: instruction counts: ${p}`) };
}

export async function singleJob(o: SingleJobOptions): Promise<SingleJobOutcome> {
  const measure = o.measure ?? 'wall';
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
        plan, out, timeoutMs: processBudgetMs(plan), fixtures: o.fixtures, bee: o.bee, onLine: (l) => o.log(`[${r.runner}] ${l}`),
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
      if (result) mkdirSync(dirname(out), { recursive: true });
      if (result) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    }
    if (result) results.push(result);
    else notRun.push({ runner: r.runner, status: 'failed', reason: problems.filter((p) => p.startsWith(`${r.runner}:`)).at(-1) ?? 'no result' });
  }
  const environment = { loadAverage: loadavg() as [number, number, number], cpus: availableParallelism() };
  const model = aggregate(results, spec, { specHash: hash, notRun, environment });
  const reports = writeReports(o.outDir, model);
  return { results, builds, problems, model, reports };
}

export interface AbJobOptions extends Common {
  runner: Runner;
  base: ClientSource;
  head: ClientSource;
  baseLabel: string;
  headLabel: string;
  buildCommand?: string;
  rounds: number;
  alpha: number;
  threshold: number;
  runBudgetMs: number;
  /** Extra environment per side (the calibration injects a slowdown into head). */
  env?: { base?: Record<string, string>; head?: Record<string, string> };
  marker?: string;
  trendUrl?: string;
  crossClient?: AggregateModel;
  /** Default 'wall'. Instructions: the CPU rows also get a count verdict (base twice, head once under callgrind). */
  measure?: Measure;
  /** The count verdict's threshold (default INSTRUCTION_DEFAULTS.threshold). */
  instructionThreshold?: number;
}

export interface AbJobOutcome {
  rows: AbRow[];
  outcome: AbOutcome;
  input: AbReportInput;
  markdown: string;
  markdownFile: string;
  builds: { base: BuiltRunner; head: BuiltRunner };
  /** The count A/B when instructions were measured and valgrind was there. */
  counts?: InstructionAbOutcome;
  /** Why instructions were asked for but not counted. */
  countsUnavailable?: string;
}

export async function abJob(o: AbJobOptions): Promise<AbJobOutcome> {
  const { spec, hash } = loadSpec(o.specFile);
  const plan = planFor(o, spec, hash, o.runner);
  await checkNode(o, plan.units);
  const build = (source: ClientSource) =>
    buildRunner({ runner: o.runner, source, cacheDir: o.cacheDir, buildCommand: o.buildCommand, log: o.log });
  const builds = { base: await build(o.base), head: await build(o.head) };
  const caseBudgetMs = Math.max(0, ...[...new Set(plan.units.map((u) => u.id))].map((id) => processBudgetMs(planOf(plan, (u: PlanUnit) => u.id === id))));
  const asked = o.measure ?? 'wall';
  const found = measuresInstructions(asked) ? await findCounter() : null;
  const countsUnavailable = found && !found.counter ? found.reason : undefined;
  if (countsUnavailable) o.log(`instruction counts unavailable: ${countsUnavailable}; the verdicts are wall time only`);
  // Counts asked for alone but impossible here: wall time rather than nothing.
  const measure: Measure = countsUnavailable ? 'wall' : asked;
  const sides = { base: builds.base.command, head: builds.head.command };
  const wallStarted = performance.now();
  const outcome: AbOutcome = measuresWall(measure)
    ? await runAb(sides, {
        plan, rounds: o.rounds, outDir: resolve(o.outDir),
        caseBudgetMs, runBudgetMs: o.runBudgetMs, fixtures: o.fixtures, bee: o.bee, env: o.env, log: o.log,
      })
    : { cases: [], roundsDone: 0, elapsedMs: 0 };
  const wallMs = performance.now() - wallStarted;
  let rows = measuresWall(measure) ? judgePaired(pairRows(outcome), spec, { alpha: o.alpha, threshold: o.threshold }) : [];
  let counts: InstructionAbOutcome | undefined;
  if (found?.counter && measuresInstructions(measure)) {
      counts = await instructionAb(sides, {
        runner: o.runner, plan, outDir: resolve(o.outDir),
        counter: found.counter, timeoutMs: processBudgetMs(planOf(plan, isCounted)), fixtures: o.fixtures, env: o.env, log: o.log,
        verdict: { threshold: o.instructionThreshold ?? INSTRUCTION_DEFAULTS.threshold },
      });
      for (const p of counts.problems) o.log(`instruction counts: ${p}`);
      rows = measuresWall(measure) ? attachInstructionRows(rows, counts) : rowsFromCounts(counts, spec);
  }
  const firstResult = (side: 'base' | 'head') =>
    outcome.cases.flatMap((c) => c.runs).find((r) => r.side === side && r.result)?.result ?? null;
  const clientText = (r: Result | null, label: string) =>
    r ? `${r.client.name} ${r.client.version} (${r.client.source}${r.client.commit ? ` ${r.client.commit.slice(0, 12)}` : ''})` : `${label}: no result`;
  const head = firstResult('head');
  const input: AbReportInput = {
    title: `bee-bench: ${o.runner} ${o.baseLabel} → ${o.headLabel}`,
    marker: o.marker ?? `bee-bench:${o.runner}`,
    runner: o.runner,
    baseLabel: o.baseLabel,
    headLabel: o.headLabel,
    rows,
    alpha: o.alpha,
    threshold: o.threshold,
    rounds: outcome.roundsDone,
    profile: o.profile,
    env: {
      host: head?.host ?? 'unknown',
      clientBase: clientText(firstResult('base'), 'base'),
      clientHead: clientText(head, 'head'),
      specHash: hash,
      wallTimeMs: outcome.elapsedMs + (counts?.elapsedMs ?? 0),
      ...(measuresInstructions(asked) ? { measure: { wallMs, countMs: counts?.elapsedMs ?? 0, counter: counts ? `callgrind (${counts.counter})` : null, unavailable: countsUnavailable, threshold: o.instructionThreshold ?? INSTRUCTION_DEFAULTS.threshold } } : {}),
      ...(outcome.stoppedEarly ? { stoppedEarly: outcome.stoppedEarly } : {}),
    },
    ...(o.crossClient ? { crossClient: o.crossClient } : {}),
    ...(o.trendUrl ? { trendUrl: o.trendUrl } : {}),
  };
  const markdown = renderAbComment(input);
  const markdownFile = join(o.outDir, 'ab.md');
  writeText(markdownFile, markdown);
  writeText(join(o.outDir, 'ab.json'), `${JSON.stringify({ rows, roundsDone: outcome.roundsDone, stoppedEarly: outcome.stoppedEarly ?? null, elapsedMs: outcome.elapsedMs, ...(counts ? { countMs: counts.elapsedMs, countProblems: counts.problems } : {}) }, null, 2)}\n`);
  return { rows, outcome, input, markdown, markdownFile, builds, ...(counts ? { counts } : {}), ...(countsUnavailable ? { countsUnavailable } : {}) };
}
