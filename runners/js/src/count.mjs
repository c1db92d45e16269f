// Instruction counting of the timed region (BEE_BENCH_COUNT=1, runners/README.md): callgrind
// client requests around each timed iteration, through @codspeed/core's native hooks (a prebuilt
// N-API addon shipped inside the package). Under valgrind they zero the counters and switch
// instrumentation on (startBenchmark), switch it off (stopBenchmark) and dump the count under a
// name (setExecutedBenchmark), which the engine reads back: `bee-bench <unit> <step>`. Natively
// they do nothing.

/** Loads the hooks; fails the case with a clear error when the addon cannot be bound here. */
export async function loadCounter() {
  const core = await import('@codspeed/core');
  const { InstrumentHooks: hooks } = core.default ?? core;
  if (!(core.isBound ?? core.default?.isBound)) {
    throw new Error(`BEE_BENCH_COUNT=1 but @codspeed/core's native addon does not load on ${process.platform}-${process.arch}`);
  }
  return {
    start: () => hooks.startBenchmark(),
    stop: (unit, step) => {
      hooks.stopBenchmark();
      hooks.setExecutedBenchmark(process.pid, `bee-bench ${unit} ${step}`);
    },
  };
}
