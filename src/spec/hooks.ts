// The test and calibration hooks (runners/README.md "Hooks"), read from the engine's environment
// and resolved into the plan, so the runners never match globs. A malformed value is an input
// error naming the variable.
import { InputError } from './errors.js';
import { FAULTS, FaultSchema, type PlanHooks } from './plan.js';

type Env = Readonly<Record<string, string | undefined>>;

const bad = (name: string, why: string, fix: string) => new InputError(`environment variable ${name}`, [why], fix);

function globAndValue(name: string, value: string): [string, string] {
  const i = value.lastIndexOf(':');
  if (i <= 0) throw bad(name, `want <glob>:<value>, got ${JSON.stringify(value)}`, `e.g. ${name}='cpu.*:…'`);
  return [value.slice(0, i), value.slice(i + 1)];
}

function fraction(name: string, value: string): { glob: string; fraction: number } {
  const [glob, f] = globAndValue(name, value);
  const n = Number(f);
  if (f === '' || !Number.isFinite(n) || n < 0)
    throw bad(name, `fraction must be a non-negative number, got ${JSON.stringify(f)}`, `e.g. ${name}='cpu.*:0.01'`);
  return { glob, fraction: n };
}

function positive(name: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw bad(name, `must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`, `unset it or give e.g. ${name}=3`);
  }
  return n;
}

/** BEE_BENCH_FAULT, BEE_BENCH_SLOWDOWN, BEE_BENCH_ALLOC, BEE_BENCH_ITERS, BEE_BENCH_CASE_TIMEOUT_S. */
export function hooksFromEnv(env: Env): PlanHooks {
  const hooks: PlanHooks = {};
  if (env.BEE_BENCH_FAULT) {
    const [glob, mode] = globAndValue('BEE_BENCH_FAULT', env.BEE_BENCH_FAULT);
    const parsed = FaultSchema.safeParse(mode);
    if (!parsed.success)
      throw bad('BEE_BENCH_FAULT', `mode must be ${FAULTS.join(', ')}; got ${JSON.stringify(mode)}`, "e.g. BEE_BENCH_FAULT='cpu.keccak.*:throw'");
    hooks.fault = { glob, mode: parsed.data };
  }
  if (env.BEE_BENCH_SLOWDOWN) hooks.slowdown = fraction('BEE_BENCH_SLOWDOWN', env.BEE_BENCH_SLOWDOWN);
  if (env.BEE_BENCH_ALLOC) hooks.allocExtra = fraction('BEE_BENCH_ALLOC', env.BEE_BENCH_ALLOC);
  if (env.BEE_BENCH_ITERS) hooks.iters = positive('BEE_BENCH_ITERS', env.BEE_BENCH_ITERS, true);
  if (env.BEE_BENCH_CASE_TIMEOUT_S) hooks.timeoutS = positive('BEE_BENCH_CASE_TIMEOUT_S', env.BEE_BENCH_CASE_TIMEOUT_S, false);
  return hooks;
}

/** The hook variables: the engine resolves them, so it does not pass them on to a runner. */
export const HOOK_VARIABLES = ['BEE_BENCH_FAULT', 'BEE_BENCH_SLOWDOWN', 'BEE_BENCH_ALLOC', 'BEE_BENCH_ITERS', 'BEE_BENCH_CASE_TIMEOUT_S'] as const;
