import { describe, expect, it } from 'vitest';
import { toRecord } from '../../src/history/record.js';
import { renderAbComment } from '../../src/report/ab-comment.js';
import { judgeHistory } from '../../src/verdict/index.js';
import { loadSpec } from '../../src/spec/load.js';
import { ResultSchema, type CaseResult, type Result } from '../../src/spec/schema.js';

const { spec } = loadSpec('spec/bench-spec.json');

/** Deterministic jitter around m: ±2%. */
const around = (m: number, n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.round(m * (1 + 0.02 * Math.sin(seed * 7.1 + i * 2.3))));

function run(medians: Record<string, number>, seed: number, started: string): Result {
  const cases: CaseResult[] = Object.entries(medians).map(([id, m]) => ({
    id, kind: 'cpu', param: { label: 'quick', count: 10 }, status: 'ok', warmup: 1,
    samples_ns: around(m, 7, seed), cpu_ns: around(m, 7, seed), peak_rss_bytes: 1 << 20, work: { ops: 10 },
  }));
  return ResultSchema.parse({
    schema: 'bee-bench/result@1', runner: 'rs', client: { name: 'bee-rs', version: '1.7.0', source: 'registry' }, bee: null,
    spec: { hash: 'ab'.repeat(32), profile: 'quick' },
    host: { os: 'linux', arch: 'x86_64', cpu_model: 'x', cpus: 2, mem_mb: 1024, runtime: 'rustc' },
    started_at: started, finished_at: started, cases,
  });
}

const history = Array.from({ length: 8 }, (_, i) => {
  const ts = `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00Z`;
  return toRecord(run({ 'cpu.ecdsa.sign-1000': 1e6, 'cpu.identity.create': 2e6 }, i + 1, ts), {
    commit: { sha: `${i}`.repeat(40), message: `commit ${i}`, author: 'a', timestamp: ts },
    branch: 'main', event: 'push', run: { id: String(i) },
  });
});

describe('history baseline (unpaired, cross-machine)', () => {
  const opts = { branch: 'main', lastRuns: 8, alpha: 0.05, threshold: 0.03 };

  it('flags the row whose head is 15% slower than the branch history and no other', () => {
    const head = run({ 'cpu.ecdsa.sign-1000': 1.15e6, 'cpu.identity.create': 2e6 }, 99, '2026-11-20T10:00:00Z');
    const { rows, runs } = judgeHistory(head, history, spec, opts);
    expect(runs).toBe(8);
    const byId = Object.fromEntries(rows.map((r) => [r.caseId, r]));
    expect(byId['cpu.ecdsa.sign-1000']).toMatchObject({ verdict: 'regression', rounds: 8 });
    expect(byId['cpu.ecdsa.sign-1000']!.ratio).toBeCloseTo(1.15, 1);
    expect(byId['cpu.identity.create']!.verdict).toBe('~');
  });

  it('marks rows the history lacks as new, and says the comparison is cross-machine', () => {
    const head = run({ 'cpu.ecdsa.sign-1000': 1e6, 'cpu.keccak.bulk': 5e6 }, 5, '2026-11-20T10:00:00Z');
    const { rows } = judgeHistory(head, history, spec, { ...opts, branch: 'main' });
    expect(rows.find((r) => r.caseId === 'cpu.keccak.bulk')).toMatchObject({ status: 'new' });
    const md = renderAbComment({
      title: 't', marker: 'bee-bench:rs', runner: 'rs', baseLabel: 'main', headLabel: 'abc', rows, alpha: 0.05, threshold: 0.03,
      rounds: 0, profile: 'quick', env: { host: 'h', clientBase: 'history', clientHead: 'bee-rs 1.7.0', specHash: 'ab', wallTimeMs: 1 },
      baseline: { kind: 'history', branch: 'main', runs: 8 },
    });
    expect(md).toMatch(/Cross-machine comparison/);
    expect(md).toMatch(/\| case \| param \| history \| head \|/);
  });

  it('ignores other branches and other runners', () => {
    const head = run({ 'cpu.ecdsa.sign-1000': 1e6 }, 3, '2026-11-20T10:00:00Z');
    expect(judgeHistory(head, history, spec, { ...opts, branch: 'dev' }).rows[0]!.status).toBe('new');
    expect(judgeHistory({ ...head, runner: 'go' }, history, spec, opts).rows[0]!.status).toBe('new');
  });
});
