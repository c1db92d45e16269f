// Instruction counting of the timed region (BEE_BENCH_COUNT=1, runners/README.md): callgrind
// client requests around each timed iteration, through @codspeed/core's native hooks (a prebuilt
// N-API addon shipped inside the package). Under valgrind they zero the counters and switch
// instrumentation on (startBenchmark), switch it off (stopBenchmark) and dump the count under a
// name (setExecutedBenchmark), which the engine reads back: `bee-bench <unit> <step>`. Natively
// they do nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Loads the hooks; fails the case with a clear error when the addon cannot be bound here. */
export async function loadCounter() {
  const core = await import('@codspeed/core');
  const { InstrumentHooks: hooks } = core.default ?? core;
  if (!(core.isBound ?? core.default?.isBound)) {
    throw new Error(`BEE_BENCH_COUNT=1 but @codspeed/core's native addon does not load on ${process.platform}-${process.arch}`);
  }
  const start = () => hooks.startBenchmark();
  const stopAs = (name) => {
    hooks.stopBenchmark();
    hooks.setExecutedBenchmark(process.pid, name);
  };
  let spin = null;
  return {
    start,
    stop: (unit, step) => stopAs(`bee-bench ${unit} ${step}`),
    /**
     * BEE_BENCH_SLOWDOWN while counting: right after `stop`, a counted spin of `fraction` x that
     * step's own instruction count, dumped as `bee-bench-spin <unit> <step>` (the engine adds the
     * two), so the injected share of the count is the fraction, as it is of the wall time
     * natively. Reading dumps and calibrating happen outside the counted regions.
     */
    slowDown: (fraction, unit, step) => {
      const dir = process.env.BEE_BENCH_COUNT_DIR;
      if (!dir) throw new Error("BEE_BENCH_SLOWDOWN with BEE_BENCH_COUNT=1 needs BEE_BENCH_COUNT_DIR, callgrind's dump folder (the engine sets it)");
      const body = lastDump(dir);
      spin ??= calibrate(dir, start, stopAs);
      const passes = Math.max(0, Math.ceil((fraction * body - spin.overhead) / spin.perPass));
      start();
      spinPasses(passes);
      stopAs(`bee-bench-spin ${unit} ${step}`);
    },
  };
}

const CALIBRATE_PASSES = 100_000;

/**
 * What a counted spin costs (`overhead + passes x perPass`): spins of none and of
 * CALIBRATE_PASSES passes, dumped as `bee-bench-calibrate` (ignored by the engine), after the
 * spin has been run uncounted until V8 has optimised it, so no tier-up falls inside a count.
 */
function calibrate(dir, start, stopAs) {
  for (let i = 0; i < 200; i++) spinPasses(CALIBRATE_PASSES);
  const counted = (passes) => {
    start();
    spinPasses(passes);
    stopAs(`bee-bench-calibrate ${passes}`);
    return lastDump(dir);
  };
  const overhead = counted(0);
  const perPass = (counted(CALIBRATE_PASSES) - overhead) / CALIBRATE_PASSES;
  if (!(perPass > 0)) throw new Error('BEE_BENCH_SLOWDOWN: the calibration spin counted no instructions (not under callgrind?)');
  return { overhead, perPass };
}

let sink = 0;

/** A fixed number of passes of a simple integer loop. */
function spinPasses(passes) {
  let x = 1;
  for (let i = 0; i < passes; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  sink ^= x;
}

/** The total of this process's newest dump: callgrind writes `callgrind.out.<pid>.<n>`, n from 1. */
function lastDump(dir) {
  const prefix = `callgrind.out.${process.pid}.`;
  const newest = Math.max(0, ...readdirSync(dir).filter((f) => f.startsWith(prefix)).map((f) => Number(f.slice(prefix.length))).filter(Number.isInteger));
  if (newest === 0) throw new Error(`no callgrind dump of this process in ${dir}`);
  const path = join(dir, `${prefix}${newest}`);
  const totals = /^totals: (\d+)$/m.exec(readFileSync(path, 'utf8'));
  if (!totals) throw new Error(`${path}: no "totals:" line`);
  return Number(totals[1]);
}
