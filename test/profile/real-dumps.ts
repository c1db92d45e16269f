// Real callgrind dumps for the profile tests: a runner built as the engine builds it, counted by
// countRunner with its dumps kept, on two cheap rows (the empty operation and a manifest lookup).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildRunner, parseSource } from '../../src/build/index.js';
import { findCounter } from '../../src/count/callgrind.js';
import { countRunner, type CountRun } from '../../src/run/count.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan, type Plan } from '../../src/spec/plan.js';
import type { Runner } from '../../src/spec/schema.js';

export const CASES = ['cpu.harness.noop', 'cpu.manifest.lookup-large'];
export const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-profile-'));

/** Runners to test: bee-rs from the registry, bee-go when BEE_GO_PATH names a checkout. */
export const SOURCES: Array<{ runner: Runner; source: string }> = [
  { runner: 'rs', source: 'registry' },
  ...(process.env.BEE_GO_PATH ? [{ runner: 'go' as const, source: process.env.BEE_GO_PATH }] : []),
];

export interface CountedDumps {
  plan: Plan;
  run: CountRun;
  dir: string;
}

/** One counting process of `cases` (CASES) with its dumps kept; `env` reaches the runner (a slowdown). */
export async function countedDumps(runner: Runner, source: string, env: Record<string, string> = {}, cases: string[] = CASES): Promise<CountedDumps> {
  const { spec, hash } = loadSpec(resolve('spec/bench-spec.json'));
  const plan = resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases });
  const { command } = await buildRunner({ runner, source: parseSource(source), log: () => {} });
  const found = await findCounter();
  if (!found.counter) throw new Error(`these tests need valgrind: ${found.reason}`);
  const out = tmp();
  const dir = join(out, 'dumps');
  const run = await countRunner(command, {
    runner,
    plan,
    counter: found.counter,
    out: join(out, 'count.json'),
    timeoutMs: 600_000,
    iterations: 2,
    env,
    keepDumps: dir,
  });
  if (run.problems.length > 0) throw new Error(run.problems.join('; '));
  return { plan, run, dir };
}
