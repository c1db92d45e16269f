// Test and calibration hooks from the environment (runners/README.md, identical in all runners).
// A malformed value is a usage error naming the variable.
import { UsageError } from './errors.mjs';
import { globMatches } from './glob.mjs';

export const FAULTS = ['throw', 'hang', 'reject'];

export function parseHooks(env = process.env) {
  const hooks = { fault: null, slowdown: null, iters: null, caseTimeoutS: null, paceFd: null, count: false };
  const splitLast = (name, v) => {
    const i = v.lastIndexOf(':');
    if (i <= 0) throw new UsageError(`${name}: want <glob>:<value>, got ${JSON.stringify(v)}`);
    return [v.slice(0, i), v.slice(i + 1)];
  };
  if (env.BEE_BENCH_FAULT) {
    const [glob, mode] = splitLast('BEE_BENCH_FAULT', env.BEE_BENCH_FAULT);
    if (!FAULTS.includes(mode)) throw new UsageError(`BEE_BENCH_FAULT: mode must be ${FAULTS.join(', ')}; got ${JSON.stringify(mode)}`);
    hooks.fault = { glob, mode };
  }
  if (env.BEE_BENCH_SLOWDOWN) {
    const [glob, f] = splitLast('BEE_BENCH_SLOWDOWN', env.BEE_BENCH_SLOWDOWN);
    const fraction = Number(f);
    if (f === '' || !Number.isFinite(fraction) || fraction < 0) throw new UsageError(`BEE_BENCH_SLOWDOWN: fraction must be a non-negative number, got ${JSON.stringify(f)}`);
    hooks.slowdown = { glob, fraction };
  }
  if (env.BEE_BENCH_ITERS) {
    const n = Number(env.BEE_BENCH_ITERS);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`BEE_BENCH_ITERS: must be a positive integer, got ${JSON.stringify(env.BEE_BENCH_ITERS)}`);
    hooks.iters = n;
  }
  if (env.BEE_BENCH_CASE_TIMEOUT_S) {
    const s = Number(env.BEE_BENCH_CASE_TIMEOUT_S);
    if (!Number.isFinite(s) || s <= 0) throw new UsageError(`BEE_BENCH_CASE_TIMEOUT_S: must be a positive number of seconds, got ${JSON.stringify(env.BEE_BENCH_CASE_TIMEOUT_S)}`);
    hooks.caseTimeoutS = s;
  }
  if (env.BEE_BENCH_PACE_FD) {
    const v = env.BEE_BENCH_PACE_FD;
    if (!/^\d+$/.test(v)) throw new UsageError(`BEE_BENCH_PACE_FD: must be a file descriptor number, got ${JSON.stringify(v)}`);
    hooks.paceFd = Number(v);
  }
  if (env.BEE_BENCH_COUNT) {
    const v = env.BEE_BENCH_COUNT;
    if (v !== '0' && v !== '1') throw new UsageError(`BEE_BENCH_COUNT: must be 1 or 0, got ${JSON.stringify(v)}`);
    hooks.count = v === '1';
  }
  return hooks;
}

/** The hooks that apply to one case id: {fault: mode|null, slowdown: fraction}. */
export function hooksFor(hooks, id) {
  return {
    fault: hooks.fault && globMatches(hooks.fault.glob, id) ? hooks.fault.mode : null,
    slowdown: hooks.slowdown && globMatches(hooks.slowdown.glob, id) ? hooks.slowdown.fraction : 0,
  };
}
