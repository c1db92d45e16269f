// One timed iteration: wall time from the monotonic clock (ns) and process CPU time (user+sys of
// the whole process, converted from us to ns), read immediately around the operation. The
// plan's slowdown spin and fault injections live here, inside the timed region.

/** Busy-spins (CPU work, not sleep) until the monotonic clock reaches `until` (ns). */
function spinUntil(until) {
  let now = process.hrtime.bigint();
  while (now < until) now = process.hrtime.bigint();
  return now;
}

/**
 * Times `op()` once; `value` is what it returned (awaited), for the caller to read, never to pass on
 * (see sampleMessage in case-worker.mjs). A sync op is not awaited, so an empty
 * op costs only the clock reads.
 * `slowdown` is the unit's slowdown fraction (0: none).
 */
export async function timeIteration(op, slowdown = 0) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const pending = op();
  const value = pending && typeof pending.then === 'function' ? await pending : pending;
  let t1 = process.hrtime.bigint();
  if (slowdown > 0) t1 = spinUntil(t1 + BigInt(Math.round(Number(t1 - t0) * slowdown)));
  const cpu = process.cpuUsage(cpu0);
  return { wall: Number(t1 - t0), cpu: (cpu.user + cpu.system) * 1000, value };
}

/** The timed operation with the unit's fault mode applied (undefined: unchanged). */
export function withFault(op, mode) {
  switch (mode) {
    case undefined:
      return op;
    case 'throw':
      return () => {
        throw new Error('BEE_BENCH_FAULT: injected throw in the timed iteration');
      };
    case 'hang':
      // Synchronous on purpose: the worst kind of hang, one that never yields to the event loop.
      return () => {
        for (;;);
      };
    case 'reject':
      return () => {
        // A detached task that fails: nothing awaits this promise.
        Promise.reject(new Error('BEE_BENCH_FAULT: injected rejection from a detached task'));
        return op();
      };
    default:
      throw new Error(`unknown fault mode ${mode}`);
  }
}
