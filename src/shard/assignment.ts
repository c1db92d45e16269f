// The assignment of a sharded run: which shard does which pieces, for one selection. `plan --shards`
// makes it (and can write it for the shard jobs); `run --shard` runs its part; `merge` checks
// every planned row against it. zod-validated where it crosses a job boundary.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError, describeIssues, parseJson } from '../spec/errors.js';
import { MeasureKindSchema } from '../spec/measure.js';
import { RunSizeSchema, RunnerSchema } from '../spec/schema.js';
import { balance, piecesOf, type Shard } from './balance.js';
import type { CostModel } from './cost.js';
import type { Plan } from '../spec/plan.js';

export const ASSIGNMENT_SCHEMA_ID = 'bee-bench/shards@1';

export const SelectionSchema = z.strictObject({
  runners: z.array(RunnerSchema).min(1),
  profile: RunSizeSchema,
  cases: z.array(z.string()),
  large: z.boolean(),
  evidences: z.array(MeasureKindSchema).min(1),
  spec_hash: z.string(),
});
export type Selection = z.infer<typeof SelectionSchema>;

const PieceSchema = z.strictObject({
  evidence: MeasureKindSchema,
  case: z.string(),
  runners: z.array(RunnerSchema).min(1),
  unit: z.number().int().nonnegative().optional(),
  iterations: z.number().int().positive().optional(),
  cost: z.number().nonnegative(),
});

export const AssignmentSchema = z.strictObject({
  schema: z.literal(ASSIGNMENT_SCHEMA_ID),
  selection: SelectionSchema,
  /** Where the costs came from: "history" for some pieces, else "static". */
  costs: z.enum(['history', 'static']),
  shards: z.array(z.strictObject({ index: z.number().int().positive(), cost: z.number().nonnegative(), pieces: z.array(PieceSchema) })).min(1),
});
export type Assignment = z.infer<typeof AssignmentSchema>;

export const selectionKey = (s: Selection) => createHash('sha256').update(JSON.stringify(s)).digest('hex').slice(0, 16);

/** `budgetModel` decides which deterministic pieces run fewer iterations (PIECE_BUDGET_S); default `model`. */
export function assign(selection: Selection, plans: readonly Plan[], model: CostModel, n: number, budgetModel: CostModel = model): Assignment {
  const shards: Shard[] = balance(piecesOf(plans, selection.evidences, model, budgetModel), n);
  const fromHistory = plans.some((p) => p.units.some((u) => model.iterationS(p, u).from === 'history'));
  return { schema: ASSIGNMENT_SCHEMA_ID, selection, costs: fromHistory ? 'history' : 'static', shards };
}

export function loadAssignment(file: string): Assignment {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(
      file,
      [`cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`],
      'pass the file `bee-bench plan --shards N --assignment FILE` wrote',
    );
  }
  const parsed = AssignmentSchema.safeParse(parseJson(file, text));
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error), 'write it again with bee-bench plan --shards N --assignment FILE');
  return parsed.data;
}

/** `K/N` with 1 <= K <= N. */
export function parseShardRef(text: string): { index: number; total: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return null;
  const [index, total] = [Number(m[1]), Number(m[2])];
  return index >= 1 && index <= total ? { index, total } : null;
}

/** The matrix for GitHub's `strategy.matrix`: one entry per shard (256 jobs at most there). */
export function matrixOf(a: Assignment): { include: Array<{ shard: string; index: number; cost_s: number; pieces: number }> } {
  const n = a.shards.length;
  return { include: a.shards.map((s) => ({ shard: `${s.index}/${n}`, index: s.index, cost_s: Math.round(s.cost), pieces: s.pieces.length })) };
}
