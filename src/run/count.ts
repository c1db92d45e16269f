// A counting run: one runner process under callgrind over the CPU cases only (net cases are the
// node's time, never counted), with few iterations since counts barely move. Its result keeps the
// runner's record of each case with `instructions` added; its wall samples are valgrind's and
// mean nothing, so only the counts are copied onto a wall-time result (src/evidence/instructions.ts).
// With `cacheSim` (the cycles evidence, src/evidence/cycles.ts) callgrind also simulates the
// caches, and the same dumps give each case its estimated cycles beside its instructions; with
// `processPerUnit` each case runs in a runner process of its own, its dumps in the same folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunnerCommand } from '../build/builder.js';
import { countingCommand, readDumps } from '../count/callgrind.js';
import { collectPerfMaps } from '../profile/v8-symbols.js';
import { invokeRunner, type InvokeOptions } from './invoke.js';
import { planOf, type Plan, type PlanUnit } from '../spec/plan.js';
import type { CaseResult, Counter, Result, Runner } from '../spec/schema.js';

/** Timed iterations of a counting run: enough to compare step by step, few since each is ~50x slower. */
export const COUNT_ITERATIONS = 3;
/** Callgrind runs a case this many times slower than natively: the case timeout grows by it. */
export const COUNT_SLOWDOWN = 10;

export interface CountOptions extends Omit<InvokeOptions, 'bee' | 'pace'> {
  runner: Runner;
  counter: Counter;
  iterations?: number;
  /**
   * A folder where callgrind's dumps stay for later reading (function profiles); emptied first.
   * Without it they go to a temporary folder deleted once the counts are read.
   */
  keepDumps?: string;
  /** Callgrind's cache simulation (CACHE_SIM_FLAGS): the cases gain `cycles` beside `instructions`. */
  cacheSim?: boolean;
  /** bee-js's perf map and code log beside the dumps (JS_NAMING_FLAGS), which only function profiles read; default on. */
  names?: boolean;
  /**
   * Each unit in a runner process of its own, so that no case starts from the memory an earlier
   * one left (the cycles evidence's bee-js processes: docs/calibration.md "Estimated cycles").
   */
  processPerUnit?: boolean;
}

export interface CountRun {
  /** The counting run's result with `instructions` (and with `cacheSim`, `cycles`) on every counted case; null when it wrote none. */
  result: Result | null;
  /** Each case or process that gave no usable count, named; the run's other counts stand. */
  problems: string[];
}

export const isCounted = (u: Pick<PlanUnit, 'kind'>) => u.kind === 'cpu';

/** The counting run's plan: the CPU units, few iterations, budgets stretched by the simulator. */
export function countingPlan(plan: Plan, iterations = COUNT_ITERATIONS): Plan {
  const cpu = planOf(plan, isCounted);
  return { ...cpu, units: cpu.units.map((u) => ({ ...u, iters: iterations, timeout_s: u.timeout_s * COUNT_SLOWDOWN })) };
}

export async function countRunner(cmd: RunnerCommand, o: CountOptions): Promise<CountRun> {
  const plan = countingPlan(o.plan, o.iterations);
  if (plan.units.length === 0) return { result: null, problems: [] };
  mkdirSync(dirname(o.out), { recursive: true });
  if (o.keepDumps) rmSync(o.keepDumps, { recursive: true, force: true });
  const dumpDir = o.keepDumps ? (mkdirSync(o.keepDumps, { recursive: true }), o.keepDumps) : mkdtempSync(join(dirname(o.out), 'callgrind-'));
  try {
    const inv = await invokeCounting(cmd, dumpDir, plan, o);
    const problems = inv.problems;
    if (!inv.result) return { result: null, problems };
    const counts = readDumps(dumpDir);
    const cycles = o.cacheSim ? readDumps(dumpDir, 'cycles') : null;
    const result: Result = { ...inv.result, counter: o.counter, cases: [] };
    for (const [unit, c] of inv.cases) {
      const got = counts.get(unit) ?? [];
      if (c.status !== 'ok') {
        result.cases.push(c);
        continue;
      }
      if (got.length !== c.samples_ns.length || got.some((n) => n === 0)) {
        problems.push(
          `${c.id} ${c.param.label}: ${got.length === 0 ? 'no instruction count was dumped' : `counts ${got.join(', ')} for ${c.samples_ns.length} iterations`} (does the ${o.runner} runner bracket its timed region when BEE_BENCH_COUNT=1?)`,
        );
        result.cases.push(c);
        continue;
      }
      const est = cycles?.get(unit) ?? [];
      if (cycles && est.length !== got.length) {
        problems.push(`${c.id} ${c.param.label}: ${est.length} estimated cycles for ${got.length} iterations (did callgrind run with --cache-sim=yes?)`);
        result.cases.push({ ...c, instructions: got });
        continue;
      }
      result.cases.push({ ...c, instructions: got, ...(cycles ? { cycles: est } : {}) });
    }
    // The runner's file gains the counts, so the run's artifacts carry them.
    writeFileSync(o.out, `${JSON.stringify(result, null, 2)}\n`);
    return { result, problems };
  } finally {
    // V8's perf maps (bee-js) name the dumps' JIT code: they go beside the dumps, out of /tmp.
    collectPerfMaps(dumpDir);
    if (!o.keepDumps) rmSync(dumpDir, { recursive: true, force: true });
  }
}

/**
 * The counting plan's runner processes: their result (the first one's, holding every case), each
 * case with its plan unit, and their problems, each naming the file with valgrind's own messages.
 */
async function invokeCounting(
  cmd: RunnerCommand,
  dumpDir: string,
  plan: Plan,
  o: CountOptions,
): Promise<{ result: Result | null; cases: Array<[number, CaseResult]>; problems: string[] }> {
  const run = async (p: Plan, logName: string, timeoutMs: number) => {
    const logFile = join(dirname(o.out), logName);
    const command = countingCommand(cmd, o.runner, dumpDir, { logFile, cacheSim: o.cacheSim, names: o.names });
    const inv = await invokeRunner(command, { ...o, plan: p, timeoutMs });
    return { ...inv, problem: inv.problem && `${o.runner} under callgrind: ${inv.problem} (valgrind's messages: ${logFile})` };
  };
  if (!o.processPerUnit) {
    const inv = await run(plan, `valgrind-${o.runner}.log`, o.timeoutMs * COUNT_SLOWDOWN);
    const cases = (inv.result?.cases ?? []).map((c, i): [number, CaseResult] => [plan.units[i]?.unit ?? -1, c]);
    return { result: inv.result, cases, problems: inv.problem ? [inv.problem] : [] };
  }
  const results: Result[] = [];
  const cases: Array<[number, CaseResult]> = [];
  const problems: string[] = [];
  for (const u of plan.units) {
    // Each process may take the plan's budget: the runner's own timeout ends a case that hangs
    // (runners/README.md), so the budget only bounds a runner that hangs outside any case.
    const inv = await run({ ...plan, units: [u] }, `valgrind-${o.runner}-unit-${u.unit}.log`, o.timeoutMs * COUNT_SLOWDOWN);
    if (inv.problem) problems.push(`${u.id} ${u.param.label}: ${inv.problem}`);
    if (!inv.result) continue;
    results.push(inv.result);
    cases.push(...inv.result.cases.map((c): [number, CaseResult] => [u.unit, c]));
  }
  const [first, last] = [results[0], results.at(-1)];
  return { result: first && last ? { ...first, finished_at: last.finished_at } : null, cases, problems };
}
