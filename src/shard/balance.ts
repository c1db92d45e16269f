// Splitting a run into N shards (issue: the nightly as a matrix). A piece of wall-time work is
// one case with all its params and every runner (cross-client ratios need one host); counts and
// allocations, which do not depend on the host, split down to one unit of one runner. Pieces go to
// the least loaded shard, largest first (LPT), ties broken by shard number: the same inputs give
// the same shards.
import type { Plan, PlanUnit } from '../spec/plan.js';
import type { Runner } from '../spec/schema.js';
import { EVIDENCES } from '../evidence/index.js';
import { isDeterministic, type MeasureKind } from '../spec/measure.js';
import { unitCostS, type CostModel } from './cost.js';

export interface Piece {
  evidence: MeasureKind;
  case: string;
  runners: Runner[];
  /** The one plan unit of a count or allocation piece; absent: every unit of the case. */
  unit?: number;
  /** Timed iterations of a deterministic piece cut below the evidence's own to fit PIECE_BUDGET_S; absent: the evidence's. */
  iterations?: number;
  /** Expected seconds. */
  cost: number;
}

export interface Shard {
  /** 1-based. */
  index: number;
  pieces: Piece[];
  cost: number;
}

/**
 * The longest a deterministic piece may take in the model: the nightly's makespan target is 60
 * minutes, and the largest count piece (js counting cpu.bmt.file-root at 100 MiB, 1.3 h in the
 * model at 3 iterations) would bound it. Counts and allocations are deterministic per iteration,
 * so such a piece runs fewer timed iterations (at least 1) instead. The static model decides
 * (`iterationsWithin` gets it from the caller), so a unit's iterations do not change from night
 * to night with the history's medians.
 */
export const PIECE_BUDGET_S = 35 * 60;

/** The most iterations (up to the evidence's own) whose cost stays within PIECE_BUDGET_S; 1 at least. */
export function iterationsWithin(model: CostModel, plan: Plan, unit: PlanUnit, evidence: MeasureKind): number | undefined {
  const ev = EVIDENCES[evidence];
  if (!ev.deterministic) return undefined;
  let n = ev.iterations;
  while (n > 1 && unitCostS(model, plan, unit, evidence, n) > PIECE_BUDGET_S) n--;
  return n < ev.iterations ? n : undefined;
}

/** `budgetModel`: the model that decides cut iterations (the static one); `model` costs the pieces. */
export function piecesOf(plans: readonly Plan[], evidences: readonly MeasureKind[], model: CostModel, budgetModel: CostModel = model): Piece[] {
  const cases = [...new Set(plans.flatMap((p) => p.units.map((u) => u.id)))];
  const pieces: Piece[] = [];
  for (const evidence of evidences) {
    for (const id of cases) {
      const units = (plan: Plan) => plan.units.filter((u) => u.id === id && EVIDENCES[evidence].takes(u));
      // Wall time's units of a case run in one piece over every runner (its rounds are the runners' together).
      if (!isDeterministic(evidence)) {
        const having = plans.filter((p) => units(p).length > 0);
        const cost = having.reduce((s, p) => s + units(p).reduce((t, u) => t + unitCostS(model, p, u, evidence), 0), 0);
        if (having.length > 0) pieces.push({ evidence, case: id, runners: having.map((p) => p.runner), cost });
        continue;
      }
      for (const p of plans)
        for (const u of units(p)) {
          const iterations = iterationsWithin(budgetModel, p, u, evidence);
          pieces.push({
            evidence,
            case: id,
            runners: [p.runner],
            unit: u.unit,
            ...(iterations ? { iterations } : {}),
            cost: unitCostS(model, p, u, evidence, iterations),
          });
        }
    }
  }
  return pieces;
}

export function balance(pieces: readonly Piece[], n: number): Shard[] {
  const shards: Shard[] = Array.from({ length: n }, (_, i) => ({ index: i + 1, pieces: [], cost: 0 }));
  const order = [...pieces].sort((a, b) => b.cost - a.cost || pieceKey(a).localeCompare(pieceKey(b)));
  for (const piece of order) {
    const target = shards.reduce((best, s) => (s.cost < best.cost ? s : best));
    target.pieces.push(piece);
    target.cost += piece.cost;
  }
  return shards;
}

export const pieceKey = (p: Pick<Piece, 'evidence' | 'case' | 'runners' | 'unit'>) => `${p.evidence} ${p.case} ${p.runners.join(',')} ${p.unit ?? ''}`;

/** The shard's piece holding the `evidence` of a unit for `runner`, if any. */
export const pieceOf = (shard: Pick<Shard, 'pieces'>, evidence: MeasureKind, unit: Pick<PlanUnit, 'id' | 'unit'>, runner: Runner) =>
  shard.pieces.find((p) => p.evidence === evidence && p.case === unit.id && p.runners.includes(runner) && (p.unit === undefined || p.unit === unit.unit));
