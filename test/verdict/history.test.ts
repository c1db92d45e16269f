// Tests of the verdict against a branch's history (unpaired, across machines).
import { describe, expect, it } from 'vitest';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { branchBaseline } from '../../src/history/baseline.js';
import type { HistoryRecord } from '../../src/history/schema.js';
import { judgeHistory as judgeRows, type HistoryOptions } from '../../src/verdict/index.js';
import { loadSpec } from '../../src/spec/load.js';
import type { Result, Spec } from '../../src/spec/schema.js';
import { branchHistory, run } from './history-fixtures.js';
import { wallOf } from '../../src/verdict/index.js';

const { spec } = loadSpec('spec/bench-spec.json');
/** The head against the branch's last runs, as the action and the alerts call it. */
const judgeHistory = (head: Result, records: readonly HistoryRecord[], s: Spec, o: HistoryOptions & { lastRuns: number }) =>
  judgeRows(head, branchBaseline(records, head, o), s, o);
const history = branchHistory({ 'cpu.ecdsa.sign': 1e6, 'cpu.identity.create': 2e6 });

describe('history baseline (unpaired, cross-machine)', () => {
  const opts = { branch: 'main', lastRuns: 8, alpha: 0.05, threshold: 0.03 };

  it('flags the row whose head is 15% slower than the branch history and no other', () => {
    const head = run({ 'cpu.ecdsa.sign': 1.15e6, 'cpu.identity.create': 2e6 }, 99, '2026-11-20T10:00:00Z');
    const { rows, runs } = judgeHistory(head, history, spec, opts);
    expect(runs).toBe(8);
    const byId = Object.fromEntries(rows.map((r) => [r.caseId, r]));
    expect(byId['cpu.ecdsa.sign']).toMatchObject({ verdict: 'regression', rounds: 8 });
    expect(wallOf(byId['cpu.ecdsa.sign']!)?.ratio).toBeCloseTo(1.15, 1);
    expect(byId['cpu.identity.create']!.verdict).toBe('~');
  });

  it('marks rows the history lacks as new, and says the comparison is cross-machine', () => {
    const head = run({ 'cpu.ecdsa.sign': 1e6, 'cpu.keccak.bulk': 5e6 }, 5, '2026-11-20T10:00:00Z');
    const { rows } = judgeHistory(head, history, spec, { ...opts, branch: 'main' });
    expect(rows.find((r) => r.caseId === 'cpu.keccak.bulk')).toMatchObject({ status: 'new' });
    const md = renderAbComment({
      title: 't',
      marker: 'bee-bench:rs',
      runner: 'rs',
      baseLabel: 'main',
      headLabel: 'abc',
      rows,
      alpha: 0.05,
      threshold: 0.03,
      rounds: 0,
      profile: 'quick',
      env: { host: 'h', clientBase: 'history', clientHead: 'bee-rs 1.7.0', specHash: 'ab', wallTimeMs: 1 },
      baseline: { kind: 'history', branch: 'main', runs: 8 },
    });
    expect(md).toMatch(/Cross-machine comparison/);
    expect(md).toMatch(/\| case \| param \| history \| head \|/);
  });

  it('ignores other branches and other runners', () => {
    const head = run({ 'cpu.ecdsa.sign': 1e6 }, 3, '2026-11-20T10:00:00Z');
    expect(judgeHistory(head, history, spec, { ...opts, branch: 'dev' }).rows[0]!.status).toBe('new');
    expect(judgeHistory({ ...head, runner: 'go' }, history, spec, opts).rows[0]!.status).toBe('new');
  });

  it('three tied runs against three tied samples cannot reach alpha 0.05: too few samples, no verdict', () => {
    // Every run's median 1.00 ms and every head iteration 1.15 ms: the normal approximation put p
    // at 0.047 and called a regression; no split of 3 + 3 values reaches below 2/20 = 0.1.
    const flat = (m: number) => [m, m, m];
    const tied = branchHistory({ 'cpu.ecdsa.sign': 1e6 }, 3, 'main', flat);
    const head = run({ 'cpu.ecdsa.sign': 1.15e6 }, 1, '2026-11-20T10:00:00Z', flat);
    const [row] = judgeHistory(head, tied, spec, { ...opts, lastRuns: 3 }).rows;
    expect(row).toMatchObject({ verdict: '~', note: 'too few samples to judge', rounds: 3 });
    expect(wallOf(row!)?.p).toBeCloseTo(0.1, 12);
  });
});
