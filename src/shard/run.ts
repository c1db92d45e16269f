// One shard of a sharded run: for each runner, each evidence's units of the shard in a process of
// their own (src/evidence), written as results/<runner>.<evidence>.json beside shard.json (what
// the shard was, where it ran, what went wrong). `merge` joins the shards.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { buildRunner, type ClientSource } from '../build/index.js';
import { EVIDENCES, runEvidence } from '../evidence/index.js';
import type { BeeTarget } from '../run/invoke.js';
import { processBudgetMs } from '../pipeline/options.js';
import { planOf, type Plan } from '../spec/plan.js';
import { MeasureKindSchema, isDeterministic, type MeasureKind } from '../spec/measure.js';
import { HostSchema, RunnerSchema, type Runner } from '../spec/schema.js';
import { pieceOf } from './balance.js';
import { AssignmentSchema, type Assignment } from './assignment.js';

export const SHARD_RUN_SCHEMA_ID = 'bee-bench/shard-run@1';

export const ShardRunSchema = z.strictObject({
  schema: z.literal(SHARD_RUN_SCHEMA_ID),
  shard: z.strictObject({ index: z.number().int().positive(), total: z.number().int().positive() }),
  assignment: AssignmentSchema,
  /** The machine the shard ran on (cross-client ratios are only meaningful within one). */
  machine: z.strictObject({ hostname: z.string(), host: HostSchema.nullable() }),
  elapsed_s: z.number().nonnegative(),
  /** Result files written, relative to the shard folder, per runner and evidence. */
  files: z.array(z.strictObject({ runner: RunnerSchema, evidence: MeasureKindSchema, file: z.string() })),
  problems: z.array(z.string()),
});
export type ShardRun = z.infer<typeof ShardRunSchema>;

export const SHARD_FILE = 'shard.json';
/** A shard's result file of one evidence; pieces cut to fewer iterations run in a process (and file) of their own. */
export const shardResultFile = (runner: Runner, evidence: MeasureKind, iterations?: number) =>
  join('results', `${runner}.${evidence}${iterations ? `.${iterations}-iterations` : ''}.json`);

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
    // One process per evidence, and per iteration count where pieces were cut to fewer iterations.
    const parts = o.assignment.selection.evidences.flatMap((evidence) => {
      const units = plan.units.filter((u) => EVIDENCES[evidence].takes(u) && pieceOf(shard, evidence, u, runner));
      const counts = [...new Set(units.map((u) => pieceOf(shard, evidence, u, runner)!.iterations))];
      return counts.map((iterations) => ({
        evidence,
        iterations,
        plan: planOf(plan, (u) => units.includes(u) && pieceOf(shard, evidence, u, runner)!.iterations === iterations),
      }));
    });
    if (parts.length === 0) continue;
    let command;
    try {
      command = (await buildRunner({ runner, source: o.sources.get(runner)!, cacheDir: o.cacheDir, reuseOnly: o.reuseBuilds, log: o.log })).command;
    } catch (e) {
      problem(`${runner}: build: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const { evidence, iterations, plan: part } of parts) {
      const file = shardResultFile(runner, evidence, iterations);
      const got = await runEvidence(evidence, command, {
        runner,
        plan: part,
        ...(iterations ? { iterations } : {}),
        out: join(outDir, file),
        budgetMs: processBudgetMs,
        ...(isDeterministic(evidence) ? {} : { bee: o.bee }),
        log: o.log,
      });
      run.problems.push(...got.problems, ...(got.skipped ? [got.skipped] : []));
      if (!got.result) continue;
      run.files.push({ runner, evidence, file });
      if (!isDeterministic(evidence)) run.machine.host ??= got.result.host;
    }
  }
  run.elapsed_s = (performance.now() - started) / 1000;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, SHARD_FILE), `${JSON.stringify(run, null, 2)}\n`);
  return run;
}
