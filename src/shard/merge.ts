// Joining the outputs of a sharded run into what one `run --out DIR` writes: results/<runner>.json
// per client (wall-time cases with their counts attached) and one report, with every planned row
// accounted for. A shard whose output is missing, or a row no shard delivered, is named with its
// rows (and makes the merge fail); a digest that differs between shards is named too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, describeIssues, parseJson } from '../spec/errors.js';
import { loadResult } from '../spec/load.js';
import type { Plan } from '../spec/plan.js';
import type { CaseResult, Result, Runner } from '../spec/schema.js';
import { EVIDENCES } from '../evidence/index.js';
import { isDeterministic, MEASURES, type MeasureKind } from '../spec/measure.js';
import { pieceOf } from './balance.js';
import { selectionKey, type Assignment } from './assignment.js';
import { SHARD_FILE, ShardRunSchema, type ShardRun } from './run.js';

export interface LoadedShard {
  dir: string;
  run: ShardRun;
}

export function loadShard(dir: string): LoadedShard {
  const file = join(dir, SHARD_FILE);
  if (!existsSync(file)) throw new InputError(file, ['missing'], 'pass the folders `bee-bench run --shard K/N --out DIR` wrote');
  const parsed = ShardRunSchema.safeParse(parseJson(file, readFileSync(file, 'utf8')));
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error), 'pass the folders `bee-bench run --shard K/N --out DIR` wrote');
  return { dir, run: parsed.data };
}

export interface MergeOutcome {
  results: Result[];
  /** Shard indices of the assignment with no output. */
  missingShards: number[];
  /** Planned rows no shard delivered: "shard 2: wall js cpu.keccak.bulk quick". */
  missingRows: string[];
  /** Problems the shards reported, and digests that differ between shards. */
  problems: string[];
  shards: LoadedShard[];
  assignment: Assignment;
}

const rowKey = (runner: Runner, id: string, label: unknown) => `${runner} ${id} ${String(label)}`;

/** Joins shard outputs; `plans` is the selection's full plan per runner (the engine resolves it again). */
export function mergeShards(shards: readonly LoadedShard[], plans: ReadonlyMap<Runner, Plan>): MergeOutcome {
  if (shards.length === 0) throw new InputError('merge', ['no shard folders given'], 'pass the folders of every shard');
  const assignment = shards[0]!.run.assignment;
  const key = selectionKey(assignment.selection);
  const seen = new Map<number, string>();
  for (const s of shards) {
    if (selectionKey(s.run.assignment.selection) !== key || s.run.shard.total !== assignment.shards.length) {
      throw new InputError(join(s.dir, SHARD_FILE), ['belongs to another sharded run (selection or shard count differs)'], 'merge the shards of one run only');
    }
    const other = seen.get(s.run.shard.index);
    if (other) throw new InputError(join(s.dir, SHARD_FILE), [`shard ${s.run.shard.index} is also in ${other}`], 'pass each shard once');
    seen.set(s.run.shard.index, s.dir);
  }
  const missingShards = assignment.shards.map((s) => s.index).filter((i) => !seen.has(i));
  const problems = shards.flatMap((s) => s.run.problems.map((p) => `shard ${s.run.shard.index}: ${p}`));

  // Every case record each shard delivered, per evidence.
  const delivered = new Map<MeasureKind, Map<string, { shard: number; c: CaseResult; result: Result }>>(MEASURES.map((k) => [k, new Map()]));
  for (const s of shards) {
    for (const f of s.run.files) {
      const result = loadResult(join(s.dir, f.file));
      for (const c of result.cases) delivered.get(f.evidence)!.set(rowKey(f.runner, c.id, c.param.label), { shard: s.run.shard.index, c, result });
    }
  }
  checkDigests(delivered, problems);

  const missingRows: string[] = [];
  const results: Result[] = [];
  for (const [runner, plan] of plans) {
    for (const evidence of assignment.selection.evidences) {
      for (const u of plan.units) {
        if (!EVIDENCES[evidence].takes(u)) continue;
        if (delivered.get(evidence)!.has(rowKey(runner, u.id, u.param.label))) continue;
        const owner = assignment.shards.find((s) => pieceOf(s, evidence, u, runner));
        missingRows.push(
          `shard ${owner?.index ?? '?'}${owner && missingShards.includes(owner.index) ? ' (no output)' : ''}: ${evidence} ${rowKey(runner, u.id, u.param.label)}`,
        );
      }
    }
    const merged = mergeRunner(runner, plan, delivered);
    if (merged) results.push(merged);
  }
  return { results, missingShards, missingRows, problems, shards: [...shards], assignment };
}

/** One runner's result in plan order: the wall-time records, counts attached; counted-only rows when no wall time was asked. */
function mergeRunner(runner: Runner, plan: Plan, delivered: Map<MeasureKind, Map<string, { c: CaseResult; result: Result }>>): Result | null {
  const pick = (evidence: MeasureKind) =>
    plan.units.map((u) => delivered.get(evidence)!.get(rowKey(runner, u.id, u.param.label))).filter((d) => d !== undefined);
  const picked = MEASURES.map((k) => ({ kind: k, records: pick(k) }));
  const sources = picked.flatMap((p) => p.records.map((d) => d.result));
  if (sources.length === 0) return null;
  const finished = sources.map((r) => r.finished_at);
  const joined = (records: (typeof picked)[number]['records']): Result => ({
    ...records[0]!.result,
    started_at: sources.map((r) => r.started_at).sort()[0]!,
    finished_at: finished.includes(null) ? null : finished.sort().at(-1)!,
    cases: records.map((d) => d.c),
  });
  // Wall-time records carry the figures of the other evidences; without wall time, the first evidence's records do.
  const [first, ...rest] = picked.filter((p) => p.records.length > 0);
  let merged = joined(first!.records);
  for (const p of rest) if (isDeterministic(p.kind)) merged = EVIDENCES[p.kind].attach(merged, joined(p.records));
  return merged;
}

/** The same row's digest must be the same wherever it was computed (wall run, counting run, any shard). */
function checkDigests(delivered: Map<MeasureKind, Map<string, { shard: number; c: CaseResult }>>, problems: string[]): void {
  const first = new Map<string, { shard: number; digest: string }>();
  for (const byRow of delivered.values()) {
    for (const [row, { shard, c }] of byRow) {
      if (c.digest === undefined) continue;
      const seen = first.get(row);
      if (!seen) first.set(row, { shard, digest: c.digest });
      else if (seen.digest !== c.digest)
        problems.push(`digest of ${row} differs between shard ${seen.shard} (${seen.digest.slice(0, 12)}) and shard ${shard} (${c.digest.slice(0, 12)})`);
    }
  }
}

/** The shards section of a merged report: each shard's machine, time and outcome. */
export function renderShardsMarkdown(m: MergeOutcome): string {
  const lines = ['## Shards', '', '| shard | machine | expected | took | result files | problems |', '|---|---|---|---|---|---|'];
  for (const s of m.assignment.shards) {
    const got = m.shards.find((l) => l.run.shard.index === s.index);
    if (!got) {
      lines.push(
        `| ${s.index}/${m.assignment.shards.length} | — | ${Math.round(s.cost)} s | **no output** | — | its ${s.pieces.length} piece(s) are missing |`,
      );
      continue;
    }
    const host = got.run.machine.host;
    const machine = `${got.run.machine.hostname}${host ? ` (${host.cpu_model}, ${host.cpus} CPUs)` : ''}`;
    lines.push(
      `| ${s.index}/${m.assignment.shards.length} | ${machine} | ${Math.round(s.cost)} s | ${Math.round(got.run.elapsed_s)} s | ${got.run.files.length} | ${got.run.problems.length || '—'} |`,
    );
  }
  if (m.missingRows.length > 0) lines.push('', `**${m.missingRows.length} planned row(s) missing:**`, '', ...m.missingRows.map((r) => `- ${r}`));
  if (m.problems.length > 0) lines.push('', '**Problems:**', '', ...m.problems.map((p) => `- ${p}`));
  return `${lines.join('\n')}\n`;
}
