// `bee-bench plan`: the resolved plan one runner would execute, as JSON on stdout
// (runners/README.md); with --shards N the matrix of a sharded run (and, with --assignment FILE,
// the assignment for the shards).
import { resolve } from 'node:path';
import { writeText } from '../../report/write.js';
import { matrixOf, planShards } from '../../shard/commands.js';
import { hooksFromEnv } from '../../spec/hooks.js';
import { loadSpec } from '../../spec/load.js';
import { resolvePlan } from '../../spec/plan.js';
import { common, oneRunner, selectionOf, shardCount, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';

export function plan(v: Values): number {
  if (v.shards !== undefined) {
    const assignment = planShards(selectionOf(v), shardCount(v), v.history);
    if (v.assignment) writeText(resolve(v.assignment), `${JSON.stringify(assignment, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(matrixOf(assignment))}\n`);
    return 0;
  }
  const c = common(v);
  const runner = oneRunner(v, 'plan');
  const { spec, hash } = loadSpec(c.specFile);
  const plan = resolvePlan({ spec, specHash: hash, runner, profile: c.size, cases: c.cases, large: c.large, hooks: hooksFromEnv(process.env) });
  process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  return 0;
}

/** `bee-bench plan`: its help, its flags and what it runs. */
export const planCli: CliCommand = {
  name: 'plan',
  usage: [
    'bee-bench plan    --runner js|go|rs [--size quick|full] [--case GLOB]... [--large]',
    'bee-bench plan    --shards N [--runner js,go,rs] [--size quick|full] [--case GLOB]... [--large]',
    '                  [--measure M] [--history DIR] [--assignment FILE]',
  ],
  summary: 'the resolved plan a runner executes, or the matrix of a sharded run',
  details: `With --runner: the plan (bee-bench/plan@1, spec/plan.schema.json) as JSON on stdout; a runner
runs it with \`run --plan FILE --out FILE\` (runners/README.md). The test hooks (BEE_BENCH_FAULT,
BEE_BENCH_SLOWDOWN, BEE_BENCH_ALLOC, BEE_BENCH_ITERS, BEE_BENCH_CASE_TIMEOUT_S) are resolved into it.
With --shards N: a matrix for GitHub's strategy.matrix ({"include": [{"shard": "1/N", ...}]}),
shards balanced by expected cost (--history DIR: a history folder's last recorded times, else
an estimate from the spec). Wall time keeps every client of a case on one shard; counts split
per runner and unit. --assignment FILE also writes which shard runs what, for the shard jobs.
Defaults: --size quick, every case, --measure wall; with --shards, all three runners.
--spec FILE: the case spec (default: the bundled spec/bench-spec.json).`,
  fails: 'never (problems are bad input: 2)',
  flags: ['spec', 'size', 'profile', 'case', 'large', 'runner', 'measure', 'shards', 'history', 'assignment'],
  run: plan,
};
