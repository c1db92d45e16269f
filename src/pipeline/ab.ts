// A same-job A/B of one runner built on two client sources (`bee-bench ab`, the action's pull
// requests and base-ref runs, each bisect step): build -> plan -> lock-step rounds (src/run) ->
// counting runs -> allocation runs -> verdicts (src/verdict) -> ab.md, ab.json, counts and
// annotations (ab-report.ts).
import { resolve } from 'node:path';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { findCounter } from '../count/callgrind.js';
import { measuresAllocations, measuresInstructions, measuresWall, type Measure } from '../spec/measure.js';
import type { AbReportInput } from '../report/render/ab-comment.js';
import type { AggregateModel } from '../report/model/types.js';
import { allocationAb, type AllocationAbOutcome } from '../run/alloc-ab.js';
import { isCounted } from '../run/count.js';
import { instructionAb, type InstructionAbOutcome } from '../run/count-ab.js';
import { pairRows } from '../run/pairs.js';
import { runRounds, type RoundsOutcome } from '../run/rounds.js';
import type { Side } from '../run/side.js';
import { loadSpec } from '../spec/load.js';
import { planOf, type PlanUnit } from '../spec/plan.js';
import type { Runner } from '../spec/schema.js';
import { ALLOCATION_DEFAULTS, attachAllocationRows, attachInstructionRows, INSTRUCTION_DEFAULTS, judgePaired, rowsFromCounts } from '../verdict/index.js';
import { clientText, writeAbReport, type AbReport } from './ab-report.js';
import { checkNode, planFor, processBudgetMs, type PipelineOptions } from './options.js';

export interface AbPipelineOptions extends PipelineOptions {
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
  env?: Partial<Record<Side, Record<string, string>>>;
  marker?: string;
  trendUrl?: string;
  crossClient?: AggregateModel;
  /** Default wall. Instructions, allocations: the CPU rows also get that verdict (base twice, head once). */
  measure?: Measure;
  /** The count verdict's threshold (default INSTRUCTION_DEFAULTS.threshold). */
  instructionThreshold?: number;
  /** The allocation verdict's threshold (default ALLOCATION_DEFAULTS.threshold). */
  allocationThreshold?: number;
}

export interface AbPipelineOutcome {
  report: AbReport;
  rounds: RoundsOutcome;
  builds: Record<Side, BuiltRunner>;
  /** The count A/B when instructions were measured and valgrind was there. */
  counts?: InstructionAbOutcome;
  /** Why instructions were asked for but not counted. */
  countsUnavailable?: string;
  /** The allocation A/B when allocations were measured. */
  allocations?: AllocationAbOutcome;
}

export async function abPipeline(o: AbPipelineOptions): Promise<AbPipelineOutcome> {
  const { spec, hash } = loadSpec(o.specFile);
  const plan = planFor(o, spec, hash, o.runner);
  await checkNode(o, plan.units);
  const build = (source: ClientSource) => buildRunner({ runner: o.runner, source, cacheDir: o.cacheDir, buildCommand: o.buildCommand, log: o.log });
  const builds = { base: await build(o.base), head: await build(o.head) };
  const caseBudgetMs = Math.max(0, ...[...new Set(plan.units.map((u) => u.id))].map((id) => processBudgetMs(planOf(plan, (u: PlanUnit) => u.id === id))));
  const asked = o.measure ?? ['wall'];
  const found = measuresInstructions(asked) ? await findCounter() : null;
  const countsUnavailable = found && !found.counter ? found.reason : undefined;
  if (countsUnavailable) o.log(`instruction counts unavailable: ${countsUnavailable}; the verdicts are wall time only`);
  // Counts impossible here: without them, and wall time rather than nothing.
  const measure: Measure = countsUnavailable ? ['wall', ...asked.filter((k) => k === 'allocations')] : asked;
  const sides = { base: builds.base.command, head: builds.head.command };
  const wallStarted = performance.now();
  const rounds: RoundsOutcome = measuresWall(measure)
    ? await runRounds(sides, {
        plan,
        rounds: o.rounds,
        outDir: resolve(o.outDir),
        caseBudgetMs,
        runBudgetMs: o.runBudgetMs,
        fixtures: o.fixtures,
        bee: o.bee,
        env: o.env,
        log: o.log,
      })
    : { cases: [], roundsDone: 0, elapsedMs: 0 };
  const wallMs = performance.now() - wallStarted;
  let rows = measuresWall(measure) ? judgePaired(pairRows(rounds), spec, { alpha: o.alpha, threshold: o.threshold }) : [];
  const countRule = { threshold: o.instructionThreshold ?? INSTRUCTION_DEFAULTS.threshold };
  let counts: InstructionAbOutcome | undefined;
  if (found?.counter && measuresInstructions(measure)) {
    counts = await instructionAb(sides, {
      runner: o.runner,
      plan,
      outDir: resolve(o.outDir),
      counter: found.counter,
      timeoutMs: processBudgetMs(planOf(plan, isCounted)),
      fixtures: o.fixtures,
      env: o.env,
      log: o.log,
    });
    for (const p of counts.problems) o.log(`instruction counts: ${p}`);
    rows = measuresWall(measure) ? attachInstructionRows(rows, counts.rows, countRule) : rowsFromCounts(counts.rows, spec, countRule);
  }
  const allocRule = { threshold: o.allocationThreshold ?? ALLOCATION_DEFAULTS.threshold };
  let allocations: AllocationAbOutcome | undefined;
  if (measuresAllocations(measure)) {
    allocations = await allocationAb(sides, {
      plan,
      outDir: resolve(o.outDir),
      timeoutMs: processBudgetMs(planOf(plan, isCounted)),
      fixtures: o.fixtures,
      env: o.env,
      log: o.log,
    });
    for (const p of allocations.problems) o.log(`allocations: ${p}`);
    rows = attachAllocationRows(rows, allocations.rows, spec, allocRule);
  }
  // The sides' client and host: from the rounds, else from the counting or allocation runs.
  const firstResult = (side: Side) =>
    rounds.cases.flatMap((c) => c.runs).find((r) => r.side === side && r.result)?.result ?? counts?.results[side] ?? allocations?.results[side] ?? null;
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
    rounds: rounds.roundsDone,
    profile: o.profile,
    env: {
      host: head?.host ?? 'unknown',
      clientBase: clientText(firstResult('base'), 'base'),
      clientHead: clientText(head, 'head'),
      specHash: hash,
      wallTimeMs: rounds.elapsedMs + (counts?.elapsedMs ?? 0) + (allocations?.elapsedMs ?? 0),
      ...(measuresInstructions(asked)
        ? {
            measure: {
              wallMs,
              countMs: counts?.elapsedMs ?? 0,
              counter: counts ? `callgrind (${counts.counter})` : null,
              unavailable: countsUnavailable,
              threshold: countRule.threshold,
            },
          }
        : {}),
      ...(allocations ? { allocations: { threshold: allocRule.threshold, counter: allocations.counter, ms: allocations.elapsedMs } } : {}),
      ...(rounds.stoppedEarly ? { stoppedEarly: rounds.stoppedEarly } : {}),
    },
    ...(o.crossClient ? { crossClient: o.crossClient } : {}),
    ...(o.trendUrl ? { trendUrl: o.trendUrl } : {}),
  };
  const report = writeAbReport(o.outDir, input, {
    roundsDone: rounds.roundsDone,
    stoppedEarly: rounds.stoppedEarly ?? null,
    elapsedMs: rounds.elapsedMs,
    ...(counts ? { countMs: counts.elapsedMs, countProblems: counts.problems } : {}),
    ...(allocations ? { allocationMs: allocations.elapsedMs, allocationProblems: allocations.problems } : {}),
  });
  return {
    report,
    rounds,
    builds,
    ...(counts ? { counts } : {}),
    ...(countsUnavailable ? { countsUnavailable } : {}),
    ...(allocations ? { allocations } : {}),
  };
}
