// The modes and channels that stay in the runner's environment (runners/README.md "Hooks"):
// BEE_BENCH_PACE_FD, BEE_BENCH_COUNT (with BEE_BENCH_CACHE_SIM) and BEE_BENCH_ALLOCS. The test and calibration hooks are
// plan fields. A malformed value is a usage error naming the variable.
import { UsageError } from './errors.mjs';

/** A 0/1 switch: unset or `0` is off. */
function flag(env, name) {
  const v = env[name];
  if (v && v !== '0' && v !== '1') throw new UsageError(`${name}: must be 1 or 0, got ${JSON.stringify(v)}`);
  return v === '1';
}

export function parseModes(env = process.env) {
  /** @type {{ paceFd: number | null, count: boolean, cacheSim: boolean, allocs: boolean }} */
  const modes = {
    paceFd: null,
    count: flag(env, 'BEE_BENCH_COUNT'),
    // A cycles process: counting under callgrind's cache simulation (case-worker.mjs says what changes).
    cacheSim: flag(env, 'BEE_BENCH_CACHE_SIM'),
    allocs: flag(env, 'BEE_BENCH_ALLOCS'),
  };
  if (modes.count && modes.allocs) throw new UsageError('BEE_BENCH_COUNT=1 and BEE_BENCH_ALLOCS=1: each measurement runs in its own process, set one of them');
  if (env.BEE_BENCH_PACE_FD) {
    const v = env.BEE_BENCH_PACE_FD;
    if (!/^\d+$/.test(v)) throw new UsageError(`BEE_BENCH_PACE_FD: must be a file descriptor number, got ${JSON.stringify(v)}`);
    modes.paceFd = Number(v);
  }
  return modes;
}
