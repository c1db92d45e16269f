// One shard of a sharded run: for each runner, its wall-time units in one process, its counted
// units under callgrind in another and its allocation units in a third, written as results/<runner>.<evidence>.json beside shard.json
// (what the shard was, where it ran, what went wrong). `merge` joins the shards.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { buildRunner, type ClientSource } from '../build/index.js';
import { findCounter } from '../count/callgrind.js';
import { allocationRun } from '../run/alloc-ab.js';
import { countRunner, isCounted } from '../run/count.js';
import { invokeRunner, type BeeTarget } from '../run/invoke.js';
import { processBudgetMs } from '../pipeline/options.js';
import { planOf, type Plan } from '../spec/plan.js';
import { HostSchema, RunnerSchema, type Runner } from '../spec/schema.js';
import { pieceOf } from './balance.js';
import { AssignmentSchema, EvidenceSchema, type Assignment } from './assignment.js';
import type { Evidence } from './cost.js';

export const SHARD_RUN_SCHEMA_ID = 'bee-bench/shard-run@1';

export const ShardRunSchema = z.strictObject({
  schema: z.literal(SHARD_RUN_SCHEMA_ID),
  shard: z.strictObject({ index: z.number().int().positive(), total: z.number().int().positive() }),
  assignment: AssignmentSchema,
  /** The machine the shard ran on (cross-client ratios are only meaningful within one). */
  machine: z.strictObject({ hostname: z.string(), host: HostSchema.nullable() }),
  elapsed_s: z.number().nonnegative(),
  /** Result files written, relative to the shard folder, per runner and evidence. */
  files: z.array(z.strictObject({ runner: RunnerSchema, evidence: EvidenceSchema, file: z.string() })),
  problems: z.array(z.string()),
});
export type ShardRun = z.infer<typeof ShardRunSchema>;

export const SHARD_FILE = 'shard.json';
export const shardResultFile = (runner: Runner, evidence: Evidence) => join('results', `${runner}.${evidence}.json`);

export interface ShardOptions {
  assignment: Assignment;
  index: number;
  plans: ReadonlyMap<Runner, Plan>;
  sources: ReadonlyMap<Runner, ClientSource>;
  outDir: string;
  cacheDir?: string;
  /** Shards of a matrix use the build job's artifact and never build (a miss is an error). */
  reuseBuilds?: boolean;
  bee?: BeeTarget;
  log: (line: string) => void;
}

export async function runShard(o: ShardOptions): Promise<ShardRun> {
  const started = performance.now();
  const shard = o.assignment.shards.find((s) => s.index === o.index);
  if (!shard) throw new Error(`shard ${o.index} is not in the assignment (1-${o.assignment.shards.length})`);
  const outDir = resolve(o.outDir);
  const run: ShardRun = {
    schema: SHARD_RUN_SCHEMA_ID,
    shard: { index: o.index, total: o.assignment.shards.length },
    assignment: o.assignment,
    machine: { hostname: hostname(), host: null },
    elapsed_s: 0,
    files: [],
    problems: [],
  };
  const problem = (text: string) => {
    run.problems.push(text);
    o.log(text);
  };
  for (const [runner, plan] of o.plans) {
    const mine = (evidence: Evidence) => planOf(plan, (u) => pieceOf(shard, evidence, u, runner) !== undefined && (evidence === 'wall' || isCounted(u)));
    const wall = mine('wall');
    const counted = mine('instructions');
    const allocated = mine('allocations');
    if (wall.units.length + counted.units.length + allocated.units.length === 0) continue;
    let command;
    try {
      command = (await buildRunner({ runner, source: o.sources.get(runner)!, cacheDir: o.cacheDir, reuseOnly: o.reuseBuilds, log: o.log })).command;
    } catch (e) {
      problem(`${runner}: build: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (wall.units.length > 0) {
      const file = shardResultFile(runner, 'wall');
      const inv = await invokeRunner(command, {
        plan: wall,
        out: join(outDir, file),
        timeoutMs: processBudgetMs(wall),
        bee: o.bee,
        onLine: (l) => o.log(`[${runner}] ${l}`),
      });
      if (inv.problem) problem(`${runner} wall: ${inv.problem}`);
      if (inv.result) {
        run.files.push({ runner, evidence: 'wall', file });
        run.machine.host ??= inv.result.host;
      }
    }
    const found = counted.units.length > 0 ? await findCounter() : null;
    if (found && !found.counter) problem(`${runner} instructions: ${found.reason}`);
    if (found?.counter) {
      const counter = found.counter;
      const file = shardResultFile(runner, 'instructions');
      const counts = await countRunner(command, {
        runner,
        plan: counted,
        counter,
        out: join(outDir, file),
        timeoutMs: processBudgetMs(counted),
        onLine: (l) => o.log(`[${runner} count] ${l}`),
      });
      for (const p of counts.problems) problem(`${runner} instructions: ${p}`);
      if (counts.result) run.files.push({ runner, evidence: 'instructions', file });
    }
    if (allocated.units.length > 0) {
      const file = shardResultFile(runner, 'allocations');
      const allocs = await allocationRun(command, {
        plan: allocated,
        out: join(outDir, file),
        timeoutMs: processBudgetMs(allocated),
        onLine: (l) => o.log(`[${runner} allocations] ${l}`),
      });
      for (const p of allocs.problems) problem(`${runner} allocations: ${p}`);
      if (allocs.result) run.files.push({ runner, evidence: 'allocations', file });
    }
  }
  run.elapsed_s = (performance.now() - started) / 1000;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, SHARD_FILE), `${JSON.stringify(run, null, 2)}\n`);
  return run;
}
