// Counting instructions under callgrind. The runners bracket each timed iteration of a CPU case
// with callgrind client requests when BEE_BENCH_COUNT=1 (runners/README.md), and this module
// starts them with instrumentation off (`--instr-atstart=no`), so only the timed region is
// simulated and counted; each iteration's count is dumped to a file of its own, named inside by
// the trigger `bee-bench <unit> <step>`, which readDumps turns back into counts per case. A
// count-mode slowdown (BEE_BENCH_SLOWDOWN with BEE_BENCH_COUNT) adds the step's injected spin as
// more dumps, `bee-bench-spin <unit> <step>`, which readDumps adds to the step's count; the
// runner finds its own dumps through BEE_BENCH_COUNT_DIR. With the cache simulation on (the
// cycles evidence, CACHE_SIM_FLAGS) the same dumps carry the cache misses beside Ir, and each
// iteration also has its estimated cycles (docs/evidence.md "Estimated cycles").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolVersion } from '../build/exec.js';
import { profileCallgrindOptions } from './profile-options.js';
import type { RunnerCommand } from '../build/builder.js';
import type { Counter, Runner } from '../spec/schema.js';
import {
  dumpEvents,
  estimatedCycles,
  inclusiveCosts,
  L1_MISS_CYCLES,
  LL_MISS_CYCLES,
  v8Costs,
  V8_HEAP_FUNCTION,
  V8_LOGGER_FUNCTION,
} from '../../runners/js/src/callgrind-costs.mjs';

/** What bee-js counts leave out (V8's heap management's own cost, its loggers with callees): function profiles too (src/profile). */
export { V8_HEAP_FUNCTION, V8_LOGGER_FUNCTION };

/**
 * V8 made as deterministic as it goes for counting (bench/det-calibrate.ts --evidence instructions measured the spread
 * they give): no background compiler or GC threads (`--single-threaded`, whose timing under
 * valgrind's serialised threads would move work in and out of the timed region), fixed hash and
 * random seeds, and a GC schedule that depends on allocation only.
 */
export const JS_COUNT_FLAGS = ['--single-threaded', '--predictable', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1'] as const;

/**
 * bee-js's counting flags for a cycles process (the cache simulation), where V8 puts code
 * and data moves the simulated misses (docs/calibration.md "Estimated cycles" has the figures):
 * - semi-spaces of 32 MiB in place of `--predictable-gc-schedule`'s 4 MiB (its other settings
 *   kept), so that loading the client and the harness (modules read asynchronously, 19 MiB of
 *   young objects in the worker) never fills new space: a scavenge during the loading kept
 *   whatever the reads' completions had left alive at that moment, so the old space a region
 *   ran against was laid out differently by process, and with it the simulated misses. The
 *   runner's first collection now comes once the loading is done (1 MiB semi-spaces, the former
 *   setting, left eight processes' heaps in three states at the region, 32 MiB in one);
 * - the optimizing compiler off until the runner's worker has set the case up and turns it on
 *   (runners/js/src/case-worker.mjs, BEE_BENCH_CACHE_SIM), and no baseline compiler: what the
 *   loading compiles depends on the order its file reads complete in, and it shifted the case's
 *   hot code within the code space, and so which code shared an instruction-cache set;
 * - one libuv thread, so those reads complete in the order they were asked for;
 * - the heap grows by 300% after a full collection (`--predictable-gc-schedule`'s 30% otherwise):
 *   the runner collects before each region, and with 30% the old generation reached its limit
 *   inside `keccak.bulk`'s region in some processes and not in others (incremental marking
 *   started there, with far more lazy sweeping), by how large the process's history left it.
 * - no garbage collection as a task (a scavenge when new space is 80% full, incremental marking's
 *   steps, idle-time work): V8 posts those to the event loop, which runs them at a moment thread
 *   timing sets, so the heap's layout at a region's start differed by process.
 */
export const JS_CYCLES_FLAGS = [
  ...JS_COUNT_FLAGS.filter((f) => f !== '--predictable-gc-schedule'),
  '--min-semi-space-size=32',
  '--max-semi-space-size=32',
  '--heap-growing-percent=300',
  '--no-memory-reducer',
  '--no-sparkplug',
  '--no-turbofan',
  '--no-minor-gc-task',
  '--no-incremental-marking-task',
  '--no-use-idle-notification',
] as const;
const JS_CYCLES_ENV = { UV_THREADPOOL_SIZE: '1', BEE_BENCH_CACHE_SIM: '1' } as const;

/**
 * V8 writes each piece of code it compiles, with its address, to a perf map, which names the
 * JIT code that callgrind can only call by address (src/profile/v8-symbols.ts; the runner marks
 * each dump with the map's length then), and to its code log (`--log-code`: each optimized code
 * object's source positions and inlined functions, src/profile/v8-log.ts; without the scripts'
 * texts, which the profiles read from the scripts' files), which countingCommand sends beside
 * the dumps (`--logfile`, one file per isolate). The loggers' own cost is left out
 * of every count (V8_LOGGER_FUNCTION). And builtins stay where the node binary's symbols name them: with
 * short builtin calls (on by default where the machine has 4 GB) an isolate whose code lies far
 * from the binary, as a worker's may, runs a copy of them that has no name, and callgrind then
 * also counts the JavaScript a copied builtin jumps into as the builtin's (docs/profiles.md,
 * "bee-js names", measures what naming costs).
 */
export const JS_NAMING_FLAGS = ['--perf-basic-prof', '--log-code', '--no-log-source-code', '--no-short-builtin-calls'] as const;

/** The name V8's code log gets beside the dumps (`--logfile`); V8 puts `isolate-<address>-<pid>-` before it (src/profile/v8-symbols.ts v8LogFiles). */
export const V8_LOG_NAME = 'v8.log';

/**
 * Go under callgrind: asynchronous preemption's signals trip an assertion in callgrind's signal
 * handling (threads.c: sigNum == current_state.sig) and kill the run; and the concurrent GC's
 * share of a timed region depends on how valgrind serialises its worker threads, which moved a
 * count by 0.5% between iterations. So counting runs without either: Go counts measure the code,
 * the GC's cost shows in wall time only. And with one P (valgrind runs one thread at a time
 * anyway): a case's goroutines then always meet the same per-P caches and pools, where
 * go-ethereum's pooled keccak state sat above or below the input by which P a goroutine ran on
 * (`keccak.bulk` 0.13% apart), and no idle P spins looking for work while a region runs.
 */
export const GO_COUNT_ENV = { GODEBUG: 'asyncpreemptoff=1', GOGC: 'off', GOMAXPROCS: '1' } as const;

/**
 * bee-rs under callgrind: one malloc arena for every thread. glibc gives threads arenas of their
 * own as they first allocate, in an order that races with tokio's start-up; in one process of
 * five the blocking thread's arena made every `manifest.lookup-large` iteration 2.06% dearer
 * (the runner also keeps all counted work on one thread, runners/rs/README.md).
 */
export const RS_COUNT_ENV = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' } as const;

const COUNT_ENV: Record<Runner, Readonly<Record<string, string>>> = { js: {}, go: GO_COUNT_ENV, rs: RS_COUNT_ENV };

/** The installed valgrind as a counter, or null with the reason counting is unavailable. */
export async function findCounter(): Promise<{ counter: Counter } | { counter: null; reason: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { counter: null, reason: `instruction counts need valgrind on Linux x86-64 (this is ${process.platform}-${process.arch})` };
  }
  const line = await toolVersion('valgrind', ['--version']);
  if (line === 'missing') return { counter: null, reason: 'valgrind is not installed (apt-get install valgrind)' };
  return { counter: { tool: 'callgrind', version: line } };
}

/**
 * Callgrind's cache simulation for estimated cycles, with a fixed geometry: valgrind otherwise
 * reads the host CPU's caches (CPUID), so two machines (a laptop, a CI runner, next year's CI
 * runner) would simulate different caches and their cycles could not be compared, in an A/B or
 * in history. The geometry is a common x86-64 core's: 32 KiB 8-way L1 instruction and data caches
 * and an 8 MiB 16-way last level, 64-byte lines (valgrind needs a power-of-two number of sets,
 * which many real last levels do not have). No branch simulation: KCachegrind's formula as
 * docs/evidence.md states it reads the cache misses only.
 */
/** What one cache line missed in both levels adds to the estimated cycles (the estimate's weights). */
export const LINE_MISS_CYCLES = L1_MISS_CYCLES + LL_MISS_CYCLES;

export const CACHE_SIM_FLAGS = ['--cache-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64'] as const;

/**
 * The runner's command wrapped in callgrind, with its dumps going to `dumpDir`; `names: false`
 * leaves out bee-js's perf map (JS_NAMING_FLAGS), whose file collectPerfMaps moves next to the
 * dumps; `cacheSim` adds the cache simulation (CACHE_SIM_FLAGS).
 */
export function countingCommand(
  cmd: RunnerCommand,
  runner: Runner,
  dumpDir: string,
  o: { names?: boolean; logFile?: string; cacheSim?: boolean } = {},
): RunnerCommand {
  const [exe, ...rest] = cmd.argv;
  if (!exe) throw new Error('empty runner command');
  const countFlags = o.cacheSim ? JS_CYCLES_FLAGS : JS_COUNT_FLAGS;
  const jsFlags = o.names === false ? countFlags : [...countFlags, ...JS_NAMING_FLAGS, `--logfile=${join(dumpDir, V8_LOG_NAME)}`];
  const inner = runner === 'js' ? [exe, ...jsFlags, ...rest] : [exe, ...rest];
  return {
    ...cmd,
    argv: [
      'valgrind',
      '--tool=callgrind',
      '--instr-atstart=no',
      // Cost by source line and by instruction address (bee-js's JIT code has no line tables: its
      // addresses are placed through V8's code log): function profiles' "Source lines",
      // docs/profiles.md; the counts are the same.
      '--dump-line=yes',
      '--dump-instr=yes',
      '--compress-strings=yes',
      // What function profiles ask of the dumps (caller context): src/count/profile-options.ts.
      ...profileCallgrindOptions(runner),
      ...(o.cacheSim ? CACHE_SIM_FLAGS : []),
      `--callgrind-out-file=${join(dumpDir, 'callgrind.out.%p')}`,
      // valgrind's own "==pid==" lines to a file of their own, not the console among the runner's.
      ...(o.logFile ? [`--log-file=${o.logFile}`] : []),
      '--quiet',
      ...inner,
    ],
    env: { ...cmd.env, ...COUNT_ENV[runner], ...(runner === 'js' && o.cacheSim ? JS_CYCLES_ENV : {}), BEE_BENCH_COUNT: '1', BEE_BENCH_COUNT_DIR: dumpDir },
  };
}

/** One dumped count: the case/param's index in the run's plan, the iteration's step, Ir, and estimated cycles when the dump has cache events. */
export interface Dump {
  unit: number;
  step: number;
  instructions: number;
  /** Ir + 10 x L1 misses + 100 x last-level misses (docs/evidence.md); absent without the cache simulation. */
  cycles?: number;
}

// `bee-bench <unit> <step>` (the iteration) or `bee-bench-spin <unit> <step>` (its count-mode
// slowdown), with bee-js's ` perf-map=<bytes>` after them when naming is on; any other dump is
// not an iteration's.
const TRIGGER = /^desc: Trigger: Client Request: bee-bench(?:-spin)? (\d+) (\d+)(?: perf-map=\d+)?$/m;

/**
 * Functions whose instructions are not the timed code's: they run on a wall clock, which
 * callgrind stretches ~50x, so their share of a region depends on how long it took. Go's
 * `runtime.sysmon` is a monitor thread that wakes every 20 us to 10 ms (preemption, cgroup
 * re-reads, netpoll); counted, it moved bee-go's rows by up to 0.02% between processes. Go's
 * `runtime.findRunnable` is an idle thread looking for work (spinning, stealing, then parking)
 * while the region runs on another: up to 0.05% of `manifest.lookup-large`, more or less by
 * how the threads were scheduled. The work it finds runs outside it, so it is still counted.
 */
export const WALL_CLOCK_FUNCTIONS = ['runtime.sysmon', 'runtime.findRunnable'] as const;

/**
 * Parses one callgrind output file; null for files that are not an iteration's dump. The count
 * leaves out WALL_CLOCK_FUNCTIONS (Go) and V8's heap management and loggers (bee-js, v8Costs; the
 * runner sizes its count-mode slowdown from the same count), and so do the cache misses the
 * estimated cycles read: a left-out function's misses are as much the wall clock's or the
 * heap's layout's as its instructions are.
 */
export function parseDump(text: string): Dump | null {
  const trigger = TRIGGER.exec(text);
  if (!trigger) return null;
  const total = v8Costs(text);
  const wall = wallClockCosts(text);
  const costs = (total ?? []).map((n, i) => n - (wall[i] ?? 0));
  const cycles = total === null ? null : estimatedCycles(dumpEvents(text), costs);
  return { unit: Number(trigger[1]), step: Number(trigger[2]), instructions: costs[0] ?? 0, ...(cycles === null ? {} : { cycles }) };
}

/** callgrind marks a function's recursion levels as `name'2`, `name'3`. */
const isWallClock = (fn: string) => WALL_CLOCK_FUNCTIONS.some((w) => fn === w || fn.startsWith(`${w}'`));

/** WALL_CLOCK_FUNCTIONS with their callees, per event: own cost lines plus each call out of the set. */
function wallClockCosts(text: string): number[] {
  if (!WALL_CLOCK_FUNCTIONS.some((w) => text.includes(w))) return [];
  return inclusiveCosts(text, isWallClock);
}

/**
 * Every iteration's figure under `dir` (its dumps added up), by unit, in step order: its
 * instruction count, or with `figure: 'cycles'` its estimated cycles (a step any of whose dumps
 * lacks cache events has none).
 */
export function readDumps(dir: string, figure: 'instructions' | 'cycles' = 'instructions'): Map<number, number[]> {
  const steps = new Map<string, Dump>();
  for (const f of readdirSync(dir).filter((name) => name.startsWith('callgrind.out.'))) {
    const d = parseDump(readFileSync(join(dir, f), 'utf8'));
    if (!d) continue;
    const key = `${d.unit} ${d.step}`;
    const seen = steps.get(key);
    steps.set(
      key,
      seen
        ? {
            ...seen,
            instructions: seen.instructions + d.instructions,
            ...(seen.cycles === undefined || d.cycles === undefined ? { cycles: undefined } : { cycles: seen.cycles + d.cycles }),
          }
        : d,
    );
  }
  const byUnit = new Map<number, number[]>();
  for (const d of [...steps.values()].sort((a, b) => a.unit - b.unit || a.step - b.step)) {
    const n = d[figure];
    if (n === undefined) continue;
    byUnit.set(d.unit, [...(byUnit.get(d.unit) ?? []), n]);
  }
  return byUnit;
}
