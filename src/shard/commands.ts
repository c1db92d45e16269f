// The sharded run's three commands, shared by the CLI and the nightly workflow: `plan --shards N`
// (the matrix, and the assignment for the shard jobs), `run --shard K/N` and `merge`.
import { appendFileSync } from 'node:fs';
import { InputError } from '../spec/errors.js';
import { join, resolve } from 'node:path';
import { readRecords } from '../history/read.js';
import { withCurrentIds } from '../history/case-ids.js';
import { caseAliases } from '../spec/aliases.js';
import { aggregate } from '../report/model/aggregate.js';
import { writeReports, writeText, type WrittenReports } from '../report/write.js';
import { loadSpec } from '../spec/load.js';
import { resolvePlan, type Plan } from '../spec/plan.js';
import type { RunSize, Runner } from '../spec/schema.js';
import { assign, loadAssignment, matrixOf, selectionKey, type Assignment, type Selection } from './assignment.js';
import { MEASURES, type MeasureKind } from '../spec/measure.js';
import { historyModel, staticModel, type CostModel } from './cost.js';
import { loadShard, mergeShards, renderShardsMarkdown, type MergeOutcome } from './merge.js';
import { runShard, type ShardOptions, type ShardRun } from './run.js';
import { pieceOf } from './balance.js';

export interface SelectionRequest {
  specFile: string;
  runners: readonly Runner[];
  size: RunSize;
  cases: readonly string[];
  large: boolean;
  evidences: readonly MeasureKind[];
}

/** The full plan of every runner of the selection, and the selection as the shards record it. */
export function resolveSelection(r: SelectionRequest): { selection: Selection; plans: Map<Runner, Plan> } {
  const { spec, hash } = loadSpec(r.specFile);
  const plans = new Map(r.runners.map((runner) => [runner, resolvePlan({ spec, specHash: hash, runner, profile: r.size, cases: r.cases, large: r.large })]));
  return {
    selection: { runners: [...r.runners], profile: r.size, cases: [...r.cases], large: r.large, evidences: [...r.evidences], spec_hash: hash },
    plans,
  };
}

/** The static cost model of a selection (the spec's own estimate): it decides which pieces run fewer iterations. */
export function staticCostModel(r: SelectionRequest): CostModel {
  const quick = resolveSelection({ ...r, size: 'quick', large: false, cases: [] }).plans;
  return staticModel(quick, loadSpec(r.specFile).spec.profiles.quick.iters);
}

/** The cost model of a selection: the history's medians where given, else the static estimate. */
export function costModel(r: SelectionRequest, historyDir?: string): CostModel {
  const fallback = staticCostModel(r);
  if (!historyDir) return fallback;
  const aliases = caseAliases(loadSpec(r.specFile).spec); // a renamed case's past medians still count
  return historyModel(
    readRecords(resolve(historyDir)).records.map((l) => withCurrentIds(l.record, aliases)),
    fallback,
  );
}

export function planShards(r: SelectionRequest, n: number, historyDir?: string): Assignment {
  const { selection, plans } = resolveSelection(r);
  return assign(selection, [...plans.values()], costModel(r, historyDir), n, staticCostModel(r));
}

export type ShardCommand = ShardRequest & Omit<ShardOptions, 'assignment' | 'index' | 'plans'>;
type ShardRequest = SelectionRequest & { index: number; total: number; assignmentFile?: string; historyDir?: string };

/** The shard's assignment (the plan job's file, or worked out again) and plans; `hasNet`: it needs a Bee node. */
export function shardPlan(o: ShardRequest): { assignment: Assignment; plans: Map<Runner, Plan>; hasNet: boolean } {
  const { selection, plans } = resolveSelection(o);
  const assignment = o.assignmentFile
    ? loadAssignment(o.assignmentFile)
    : assign(selection, [...plans.values()], costModel(o, o.historyDir), o.total, staticCostModel(o));
  if (selectionKey(assignment.selection) !== selectionKey(selection) || assignment.shards.length !== o.total) {
    throw new InputError(
      o.assignmentFile ?? 'the assignment',
      [`for another selection or shard count than this run's`],
      `pass the same --runner, --profile, --case, --large, --measure and spec as the plan, and --shard K/${assignment.shards.length}`,
    );
  }
  const mine = assignment.shards.find((s) => s.index === o.index)!;
  const hasNet = [...plans].some(([runner, plan]) => plan.units.some((u) => u.kind === 'net' && MEASURES.some((k) => pieceOf(mine, k, u, runner))));
  return { assignment, plans, hasNet };
}

export function shardCommand(o: ShardCommand, planned = shardPlan(o)): Promise<ShardRun> {
  return runShard({ ...o, assignment: planned.assignment, plans: planned.plans });
}

export function mergeCommand(specFile: string, shardDirs: readonly string[], outDir: string): { merged: MergeOutcome; reports: WrittenReports } {
  const shards = shardDirs.map((d) => loadShard(resolve(d)));
  const sel = shards[0]?.run.assignment.selection;
  const { plans } = sel ? resolveSelection({ specFile, ...sel, size: sel.profile, evidences: sel.evidences }) : { plans: new Map() };
  const { spec, hash } = loadSpec(specFile);
  if (sel && sel.spec_hash !== hash)
    throw new InputError(
      specFile,
      [`the shards ran spec ${sel.spec_hash.slice(0, 12)}, this is ${hash.slice(0, 12)}`],
      'merge with the spec the shards ran (--spec)',
    );
  const merged = mergeShards(shards, plans);
  for (const r of merged.results) writeText(join(resolve(outDir), 'results', `${r.runner}.json`), `${JSON.stringify(r, null, 2)}\n`);
  const reports = writeReports(outDir, aggregate(merged.results, spec, { specHash: hash }));
  // The report names every shard and what is missing, as the exit code does.
  appendFileSync(reports.markdown, `\n${renderShardsMarkdown(merged)}`);
  return { merged, reports };
}

export { matrixOf };
