// Shard planning: pieces, balance, determinism, and the cost model's sources.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { balance, pieceOf, piecesOf, PIECE_BUDGET_S } from '../../src/shard/balance.js';
import { matrixOf, parseShardRef } from '../../src/shard/assignment.js';
import { planShards, resolveSelection } from '../../src/shard/commands.js';
import { historyModel, staticModel, unitCostS, QUICK_ITERATION_S } from '../../src/shard/cost.js';
import type { HistoryRecord } from '../../src/history/schema.js';

const specFile = join(process.cwd(), 'spec', 'bench-spec.json');
const request = {
  specFile,
  runners: ['js', 'go', 'rs'] as const,
  size: 'quick' as const,
  cases: ['cpu.*'],
  large: false,
  evidences: ['wall', 'instructions'] as const,
};
const sel = () => ({ ...request, runners: [...request.runners], evidences: [...request.evidences] });

describe('plan --shards', () => {
  it('keeps every runner of a case on one shard for wall time and splits counts per runner and unit', () => {
    const a = planShards(sel(), 4);
    const { plans } = resolveSelection(sel());
    for (const [runner, plan] of plans) {
      for (const u of plan.units) {
        const wall = a.shards.filter((s) => pieceOf(s, 'wall', u, runner));
        expect(wall, `${runner} ${u.id}`).toHaveLength(1);
        // The wall piece holds all three runners: cross-client ratios come from one host.
        expect(pieceOf(wall[0]!, 'wall', u, runner)!.runners).toEqual(['js', 'go', 'rs']);
        expect(
          a.shards.filter((s) => pieceOf(s, 'instructions', u, runner)),
          `${runner} ${u.id}`,
        ).toHaveLength(1);
      }
    }
    expect(
      a.shards
        .flatMap((s) => s.pieces)
        .filter((p) => p.evidence === 'instructions')
        .every((p) => p.runners.length === 1 && p.unit !== undefined),
    ).toBe(true);
  });

  it('is deterministic and balanced by expected cost', () => {
    const [x, y] = [planShards(sel(), 8), planShards(sel(), 8)];
    expect(x).toEqual(y);
    const costs = x.shards.map((s) => s.cost);
    const biggest = Math.max(...x.shards.flatMap((s) => s.pieces.map((p) => p.cost)));
    // LPT: no shard exceeds the mean by more than the largest piece.
    expect(Math.max(...costs)).toBeLessThanOrEqual(costs.reduce((s, c) => s + c, 0) / costs.length + biggest);
    expect(matrixOf(x).include.map((e) => e.shard)).toEqual(['1/8', '2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8']);
  });

  it('balances largest first onto the least loaded shard', () => {
    const piece = (c: string, cost: number) => ({ evidence: 'wall' as const, case: c, runners: ['js' as const], cost });
    const shards = balance([piece('a', 5), piece('b', 4), piece('c', 3), piece('d', 3), piece('e', 3)], 2);
    expect(shards.map((s) => s.pieces.map((p) => p.case))).toEqual([
      ['a', 'd'],
      ['b', 'c', 'e'],
    ]);
    expect(shards.map((s) => s.cost)).toEqual([8, 10]);
  });

  it('uses the history where it has a median, the spec-derived estimate elsewhere', () => {
    const { plans } = resolveSelection(sel());
    const quick = staticModel(plans, 5);
    const rs = plans.get('rs')!;
    const bulk = rs.units.find((u) => u.id === 'cpu.keccak.bulk')!;
    expect(quick.iterationS(rs, bulk)).toEqual({ seconds: QUICK_ITERATION_S, from: 'static' });
    const noop = rs.units.find((u) => u.id === 'cpu.harness.noop')!;
    // The noop case's 200 iterations take the time of five ordinary ones.
    expect(quick.iterationS(rs, noop).seconds).toBeCloseTo((QUICK_ITERATION_S * 5) / 200);
    const record = (median: number, at: string) =>
      ({
        runner: 'rs',
        spec: { hash: 'x', profile: 'quick' },
        started_at: at,
        cases: [{ id: 'cpu.keccak.bulk', label: String(bulk.param.label), status: 'ok', median_ns: median }],
      }) as unknown as HistoryRecord;
    const model = historyModel([record(2e9, '2026-01-01T00:00:00Z'), record(3e9, '2026-02-01T00:00:00Z')], quick);
    expect(model.iterationS(rs, bulk)).toEqual({ seconds: 3, from: 'history' });
    expect(model.iterationS(rs, noop).from).toBe('static');
  });

  it('costs a case the history shows skipped at its overhead only, until it runs again', () => {
    const { plans } = resolveSelection(sel());
    const rs = plans.get('rs')!;
    const bulk = rs.units.find((u) => u.id === 'cpu.keccak.bulk')!;
    const row = (status: string, at: string) =>
      ({
        runner: 'rs',
        spec: { hash: 'x', profile: 'quick' },
        started_at: at,
        cases: [{ id: bulk.id, label: String(bulk.param.label), status, median_ns: status === 'ok' ? 2e9 : null }],
      }) as unknown as HistoryRecord;
    const quick = staticModel(plans, 5);
    const skipped = historyModel([row('ok', '2026-01-01T00:00:00Z'), row('skipped', '2026-02-01T00:00:00Z')], quick);
    expect(skipped.iterationS(rs, bulk)).toEqual({ seconds: 0, from: 'history' });
    expect(unitCostS(skipped, rs, bulk, 'instructions')).toBeLessThan(unitCostS(quick, rs, bulk, 'instructions'));
    // A failed row says nothing about the time: the last good median stands.
    expect(historyModel([row('ok', '2026-01-01T00:00:00Z'), row('failed', '2026-02-01T00:00:00Z')], quick).iterationS(rs, bulk).seconds).toBe(2);
    expect(historyModel([row('skipped', '2026-01-01T00:00:00Z'), row('ok', '2026-02-01T00:00:00Z')], quick).iterationS(rs, bulk).seconds).toBe(2);
  });

  it('makes one wall piece per case and reads K/N', () => {
    expect(piecesOf([...resolveSelection(sel()).plans.values()], ['wall'], staticModel(new Map(), 5))).toHaveLength(11);
    expect(parseShardRef('3/8')).toEqual({ index: 3, total: 8 });
    expect(parseShardRef('9/8')).toBeNull();
    expect(parseShardRef('0/8')).toBeNull();
  });
});

describe('the nightly at 60 minutes', () => {
  it('cuts a count piece beyond the piece budget to fewer iterations, never below one, and leaves the others whole', () => {
    const full = { ...sel(), size: 'full' as const, cases: [], evidences: ['wall' as const, 'instructions' as const, 'allocations' as const] };
    const a = planShards(full, 16);
    const pieces = a.shards.flatMap((s) => s.pieces);
    const cut = pieces.filter((p) => p.iterations !== undefined);
    // js counting cpu.bmt.file-root at 100 MiB was 1.3 h in the model at 3 iterations.
    expect(cut.map((p) => `${p.evidence} ${p.case} ${p.runners.join()}`)).toContain('instructions cpu.bmt.file-root js');
    for (const p of cut) expect(p.iterations).toBeGreaterThanOrEqual(1);
    for (const p of pieces.filter((q) => q.evidence !== 'wall'))
      expect(p.cost, `${p.evidence} ${p.case} ${p.runners.join()} ${p.unit}`).toBeLessThanOrEqual(PIECE_BUDGET_S);
    expect(Math.max(...a.shards.map((s) => s.cost))).toBeLessThanOrEqual(3600);
    // The same inputs give the same cut, night after night.
    expect(planShards(full, 16)).toEqual(a);
  });
});
