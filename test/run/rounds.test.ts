// The A/B execution on the real JS runner: AB/BA order, pairing, and skipped cases not re-run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { roundOrder, runRounds } from '../../src/run/rounds.js';
import { pairRows } from '../../src/run/pairs.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan } from '../../src/spec/plan.js';

const SPEC = join(process.cwd(), 'spec', 'bench-spec.json');
const { spec, hash } = loadSpec(SPEC);
const js = { argv: [process.execPath, join(process.cwd(), 'runners', 'js', 'bin', 'bee-bench-js.mjs')] };

describe('runRounds', () => {
  it('alternates the order AB, BA, AB, ...', () => {
    expect([0, 1, 2, 3].map(roundOrder)).toEqual([
      ['base', 'head'],
      ['head', 'base'],
      ['base', 'head'],
      ['head', 'base'],
    ]);
  });

  it('pairs rounds per row and runs a case skipped on both sides only once', async () => {
    const lines: string[] = [];
    const outcome = await runRounds(
      { base: js, head: js },
      {
        plan: resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases: ['cpu.harness.noop', 'cpu.bmt.encrypted-file-root'] }),
        rounds: 3,
        outDir: mkdtempSync(join(tmpdir(), 'bee-bench-ab-')),
        caseBudgetMs: 120_000,
        runBudgetMs: 600_000,
        env: { base: { BEE_BENCH_ITERS: '3' }, head: { BEE_BENCH_ITERS: '3' } },
        log: (l) => lines.push(l),
      },
    );
    expect(outcome.roundsDone).toBe(3);
    const runsOf = (id: string) => outcome.cases.find((c) => c.caseId === id)!.runs;
    expect(runsOf('cpu.harness.noop').map((r) => `${r.round}${r.side}`)).toEqual(['0base', '0head', '1head', '1base', '2base', '2head']);
    expect(runsOf('cpu.bmt.encrypted-file-root')).toHaveLength(2);
    const rows = pairRows(outcome);
    expect(rows.find((r) => r.caseId === 'cpu.harness.noop')).toMatchObject({ status: 'ok', label: 'empty' });
    expect(rows.find((r) => r.caseId === 'cpu.harness.noop')!.base).toHaveLength(3);
    expect(rows.find((r) => r.caseId === 'cpu.bmt.encrypted-file-root')).toMatchObject({ status: 'skipped', note: expect.stringMatching(/encrypt/) });
  });
});
