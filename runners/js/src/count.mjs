// Instruction counting of the timed region (BEE_BENCH_COUNT=1, runners/README.md): callgrind
// client requests around each timed iteration, through @codspeed/core's native hooks (a prebuilt
// N-API addon shipped inside the package). Under valgrind they zero the counters and switch
// instrumentation on (startBenchmark), switch it off (stopBenchmark) and dump the count under a
// name (setExecutedBenchmark), which the engine reads back: `bee-bench <unit> <step>`. Natively
// they do nothing. When V8 writes a perf map (`--perf-basic-prof`, the engine's way of naming
// JIT code in a dump), each dump's name also carries the map's length at that moment,
// `perf-map=<bytes>`: the code addresses a dump saw are those the map named up to there (V8
// reuses an address for later code, src/profile/v8-symbols.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { v8SlowdownCost } from './callgrind-costs.mjs';

/** Loads the hooks; fails the case with a clear error when the addon cannot be bound here. */
export async function loadCounter() {
  const core = await import('@codspeed/core');
  const { InstrumentHooks: hooks } = core.default ?? core;
  if (!(core.isBound ?? core.default?.isBound)) {
    throw new Error(`BEE_BENCH_COUNT=1 but @codspeed/core's native addon does not load on ${process.platform}-${process.arch}`);
  }
  const start = () => hooks.startBenchmark();
  // A dump's name is built after its region closes, so building it is not counted.
  const dumpAs = (name) => hooks.setExecutedBenchmark(process.pid, perfMap ? `${name} perf-map=${statSync(perfMap).size}` : name);
  return {
    start,
    stop: (unit, step) => {
      hooks.stopBenchmark();
      dumpAs(`bee-bench ${unit} ${step}`);
    },
    /**
     * The unit's slowdown while counting: right after `stop`, counted spins adding up to
     * `fraction` x that step's own count (its estimated cycles when callgrind simulates the caches,
     * callgrind-costs.mjs v8SlowdownCost), each dumped as `bee-bench-spin <unit> <step>`
     * (the engine adds a step's dumps), so the injected share of the count is the fraction, as it
     * is of the wall time natively. Each spin's size comes from the instructions per pass the
     * last one measured, and the spins go on until the target is reached (a few hundred
     * instructions over at most). Reading dumps happens outside the counted regions.
     */
    slowDown: (fraction, unit, step) => {
      const dir = process.env.BEE_BENCH_COUNT_DIR;
      if (!dir) throw new Error("a slowdown with BEE_BENCH_COUNT=1 needs BEE_BENCH_COUNT_DIR, callgrind's dump folder (the engine sets it)");
      const target = fraction * lastDump(dir);
      if (!warm) {
        // Uncounted, so V8's tier-ups of the spin fall outside every count.
        for (let i = 0; i < 200; i++) spinPasses(100_000);
        warm = true;
      }
      let spun = 0;
      let passes = FIRST_SPIN_PASSES;
      for (let i = 0; i < MAX_SPINS && spun < target; i++) {
        start();
        spinPasses(passes);
        hooks.stopBenchmark();
        dumpAs(`bee-bench-spin ${unit} ${step}`);
        const got = lastDump(dir);
        if (got === 0) throw new Error('slowdown: a spin counted no instructions (not under callgrind?)');
        spun += got;
        passes = Math.max(1, Math.ceil((target - spun) / (got / passes)));
      }
    },
  };
}

/** V8's perf map of this process when it writes one (V8's fixed location, no flag moves it). */
const perfMap = process.execArgv.includes('--perf-basic-prof') ? `/tmp/perf-${process.pid}.map` : null;

/** The first spin's passes: small, so a cheap step is not overshot by much. */
const FIRST_SPIN_PASSES = 1000;
/** Spins per step at most (it takes about four: each one's overhead is topped up by the next). */
const MAX_SPINS = 8;
let warm = false;
let sink = 0;

/** A fixed number of passes of a simple integer loop. */
function spinPasses(passes) {
  let x = 1;
  for (let i = 0; i < passes; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  sink ^= x;
}

/**
 * The count of this process's newest dump as the engine reads it (V8's heap management and
 * loggers left out; estimated cycles with cache events, callgrind-costs.mjs v8SlowdownCost):
 * callgrind writes `callgrind.out.<pid>.<n>`, n from 1.
 */
function lastDump(dir) {
  const prefix = `callgrind.out.${process.pid}.`;
  const newest = Math.max(
    0,
    ...readdirSync(dir)
      .filter((f) => f.startsWith(prefix))
      .map((f) => Number(f.slice(prefix.length)))
      .filter(Number.isInteger),
  );
  if (newest === 0) throw new Error(`no callgrind dump of this process in ${dir}`);
  const path = join(dir, `${prefix}${newest}`);
  const text = readFileSync(path, 'utf8');
  const count = v8SlowdownCost(text);
  if (count === null) throw new Error(`${path}: no "totals:" line`);
  return count;
}
