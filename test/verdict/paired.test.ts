// The paired design from A/B runs to verdict rows (pairRows + judgePaired), on results shaped as
// the runners write them: 0 ns samples, rounds a side lost, a head that fails where base works.
import { describe, expect, it } from 'vitest';
import type { RoundsOutcome, RoundRun } from '../../src/run/rounds.js';
import type { Side } from '../../src/run/side.js';
import { pairRows } from '../../src/run/pairs.js';
import { loadSpec } from '../../src/spec/load.js';
import { ResultSchema, type CaseResult, type Result } from '../../src/spec/schema.js';
import { countRows, judgePaired, LOAD_SPREAD, loadShift } from '../../src/verdict/index.js';
import { wallOf } from '../../src/verdict/index.js';

const { spec } = loadSpec('spec/bench-spec.json');
const ID = 'cpu.keccak.chunk-hash';
const OPTS = { alpha: 0.02, threshold: 0.02 };

function result(entry: Partial<CaseResult>): Result {
  const c = {
    id: ID,
    kind: 'cpu',
    param: { label: 'quick' },
    status: 'ok',
    warmup: 1,
    samples_ns: [100, 101, 99],
    peak_rss_bytes: 1 << 20,
    work: { ops: 1 },
    ...entry,
  };
  Object.assign(c, { cpu_ns: c.samples_ns });
  return ResultSchema.parse({
    schema: 'bee-bench/result@1',
    runner: 'rs',
    client: { name: 'bee-rs', version: '1.7.0', source: 'registry' },
    bee: null,
    spec: { hash: 'ab'.repeat(32), profile: 'quick' },
    host: { os: 'linux', arch: 'x86_64', cpu_model: 'x', cpus: 2, mem_mb: 1024, runtime: 'rustc' },
    started_at: '2026-11-20T10:00:00Z',
    finished_at: '2026-11-20T10:00:00Z',
    cases: [c],
  });
}

/** R rounds; `side(round, side)` gives that run's samples, a failed entry, or a process problem. */
function outcome(R: number, side: (round: number, s: Side) => number[] | { error: string } | { problem: string }): RoundsOutcome {
  const runs: RoundRun[] = [];
  for (let round = 0; round < R; round++) {
    for (const s of ['base', 'head'] as const) {
      const v = side(round, s);
      if ('problem' in v) runs.push({ round, side: s, result: null, problem: v.problem });
      else if ('error' in v) runs.push({ round, side: s, result: result({ status: 'failed', error: v.error, samples_ns: [] }) });
      else runs.push({ round, side: s, result: result({ samples_ns: v }) });
    }
  }
  return { cases: [{ caseId: ID, runs }], roundsDone: R, elapsedMs: 1 };
}

/** Base around 1 µs; head f times slower; integers, as runners write nanoseconds. */
const slower = (f: number) => (round: number, s: Side) => [1000, 1010, 990, 1000 + round].map((v) => Math.round(s === 'base' ? v : v * f));

describe('judgePaired on paired rounds', () => {
  it('a 0 ns sample costs its pair, not the report (was: RangeError in pairRows)', () => {
    const o = outcome(12, (round, s) => (s === 'head' && round === 3 ? [0, 1100, 1110, 1090] : slower(1.1)(round, s)));
    const [row] = judgePaired(pairRows(o), spec, OPTS);
    expect(row).toMatchObject({ status: 'ok', rounds: 12, verdict: 'regression' });
    expect(wallOf(row!)?.ratio!).toBeCloseTo(1.1, 6);
  });

  it('a round with only 0 ns iterations on one side is not used, and the row says so', () => {
    const o = outcome(12, (round, s) => (s === 'base' && round === 4 ? [0, 0, 0, 0] : slower(1.1)(round, s)));
    const [row] = judgePaired(pairRows(o), spec, OPTS);
    expect(row).toMatchObject({ status: 'ok', rounds: 11, roundsRun: 12, verdict: 'regression' });
    expect(row!.note).toMatch(/^11 of 12 rounds used \(round 5: .*0 ns/);
  });

  it('rounds a side lost (killed, crashed) are counted and named: "n of R rounds used"', () => {
    const o = outcome(12, (round, s) =>
      s === 'head' && round === 2
        ? { problem: 'killed after its budget of 60 s' }
        : s === 'base' && round === 7
          ? { error: 'panic: boom' }
          : slower(1.1)(round, s),
    );
    const [row] = judgePaired(pairRows(o), spec, OPTS);
    expect(row).toMatchObject({ status: 'ok', rounds: 10, roundsRun: 12 });
    expect(row!.note).toBe('10 of 12 rounds used (round 3: head killed after its budget of 60 s; round 8: base panic: boom)');
  });

  it('a head that fails in every round where base succeeded is a failed row, counted as failed', () => {
    const o = outcome(4, (round, s) => (s === 'head' ? { error: 'thread main panicked at src/swarm/bmt.rs' } : slower(1)(round, s)));
    const rows = judgePaired(pairRows(o), spec, OPTS);
    expect(rows[0]).toMatchObject({ status: 'failed', note: 'head failed where base succeeded: thread main panicked at src/swarm/bmt.rs' });
    expect(countRows(rows).failed).toBe(1);
    const crashed = judgePaired(pairRows(outcome(4, (round, s) => (s === 'head' ? { problem: 'exit code 101' } : slower(1)(round, s)))), spec, OPTS);
    expect(crashed[0]).toMatchObject({ status: 'failed', note: 'head failed where base succeeded: exit code 101' });
  });

  it('shows no interval that is not a 95% interval; two rounds of a 2x change say too few rounds', () => {
    const [row] = judgePaired(pairRows(outcome(2, slower(2))), spec, OPTS);
    expect(row).toMatchObject({ status: 'ok', verdict: '~', note: 'too few rounds to judge (needs ≥ 7)' });
    expect(wallOf(row!)?.ci).toBeUndefined();
    const [twelve] = judgePaired(pairRows(outcome(12, slower(1))), spec, OPTS);
    expect(twelve).toMatchObject({ verdict: '~', note: 'no difference' });
  });
});

describe('the figures shown beside the verdict', () => {
  // Load halves half-way through: rounds 0-5 run at ~2x the time of rounds 6-11, and the head's
  // rounds fall more often on the slow half (as when a hog stops between a base and a head run).
  const shifted = (round: number, s: Side) => {
    const load = round < 6 ? 2 : 1;
    const skew = s === 'head' && round === 6 ? 2 : 1;
    return [1000, 1010, 990, 1005].map((v) => Math.round(v * load * skew));
  };

  it('head / base of the figures is the change, even when the load moved between rounds', () => {
    const [row] = judgePaired(pairRows(outcome(12, shifted)), spec, OPTS);
    expect(wallOf(row!)?.ratio).toBeDefined();
    expect(wallOf(row!)?.headMedianNs! / wallOf(row!)?.baseMedianNs!).toBeCloseTo(wallOf(row!)?.ratio!, 12);
    expect(loadShift(pairRows(outcome(12, shifted)))).toMatchObject({ rows: 1, of: 1 });
    expect(loadShift(pairRows(outcome(12, shifted)))!.spread).toBeGreaterThan(LOAD_SPREAD);
  });

  it('a quiet run has no load note', () => {
    expect(loadShift(pairRows(outcome(12, slower(1.1))))).toBeNull();
  });

  it('one slow round is a hiccup, not a load change', () => {
    const hiccup = (round: number, s: Side) => slower(1.0)(round, s).map((v) => (round === 4 ? v * 3 : v));
    expect(loadShift(pairRows(outcome(12, hiccup)))).toBeNull();
  });
});
