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
  const plan = resolvePlan({ spec, specHash: hash, runner, profile: c.profile, cases: c.cases, large: c.large, hooks: hooksFromEnv(process.env) });
  process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  return 0;
}
