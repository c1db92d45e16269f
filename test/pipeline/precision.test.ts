// Which rows a run measures again (src/pipeline/precision.ts): a row where some client's ratio to the
// fastest has an interval reaching 1, and only the clients in doubt; rows far apart, single-client
// rows and the harness group are left alone. A round goes row by row, a row's clients back to back.
// The words of each row's line say what ended it.
import { describe, expect, it } from 'vitest';
import { openRows, precisionJobs, precisionWords } from '../../src/pipeline/precision.js';
import { caseResult, result } from '../report/fixtures.js';

const spread = (m: number, f: number) => [1 - f, 1 - f / 2, 1, 1 + f / 2, 1 + f].map((x) => Math.round(m * x));
const cell = (id: string, m: number, f: number) =>
  caseResult({ id, param: { label: 'quick', count: 1 }, work: { ops: 1 }, samples_ns: spread(m, f), cpu_ns: spread(m, f) });
const groupOf = (id: string) => (id.startsWith('cpu.harness.') ? 'harness' : 'cpu');

describe('the rows measured again', () => {
  it('are those whose fastest interval reaches another, with the clients in doubt', () => {
    const results = [
      // keccak: bee-go and bee-rs 1.3x apart, each ±40%: open, bee-js (17x) not in doubt.
      result('js', [cell('cpu.keccak.bulk', 17_000, 0.2), cell('cpu.bmt.file-root', 17_000, 0.2), cell('cpu.harness.noop', 90, 0.5)]),
      result('go', [cell('cpu.keccak.bulk', 1_300, 0.4), cell('cpu.bmt.file-root', 1_000, 0.05), cell('cpu.harness.noop', 30, 0.5)]),
      result('rs', [cell('cpu.keccak.bulk', 1_000, 0.4), cell('cpu.bmt.file-root', 2_000, 0.05), cell('cpu.harness.noop', 31, 0.5)]),
    ];
    const open = openRows(results, groupOf);
    expect([...open]).toEqual([['cpu.keccak.bulk quick', ['go', 'rs']]]);
    // One client alone is no comparison.
    expect(openRows([results[0]!], groupOf).size).toBe(0);
  });

  it("are measured row by row, a row's clients back to back, their order turned each round", () => {
    const open = new Map([
      ['cpu.keccak.bulk quick', ['go', 'rs'] as const],
      ['cpu.bmt.file-root quick', ['go', 'rs'] as const],
      ['cpu.ecdsa.sign quick', ['js', 'go', 'rs'] as const],
    ]);
    const jobs = (round: number) => precisionJobs(open, round).map((j) => `${j.row.split(' ')[0]}:${j.runner}`);
    // A budget that ends after k jobs leaves whole rows measured (never bee-go of every row and no bee-rs).
    expect(jobs(1)).toEqual([
      'cpu.keccak.bulk:go',
      'cpu.keccak.bulk:rs',
      'cpu.bmt.file-root:go',
      'cpu.bmt.file-root:rs',
      'cpu.ecdsa.sign:js',
      'cpu.ecdsa.sign:go',
      'cpu.ecdsa.sign:rs',
    ]);
    expect(jobs(2).slice(0, 2)).toEqual(['cpu.keccak.bulk:rs', 'cpu.keccak.bulk:go']);
    expect(jobs(2).slice(4)).toEqual(['cpu.ecdsa.sign:go', 'cpu.ecdsa.sign:rs', 'cpu.ecdsa.sign:js']);
  });

  it('say what ended them', () => {
    expect(precisionWords({ row: 'r', added: { go: 10, rs: 10 }, ended: 'ranked', ms: 23_400 }, 60_000)).toBe(
      'ranked after 10 more iterations of bee-go, 10 of bee-rs (23 s)',
    );
    expect(precisionWords({ row: 'r', added: { go: 30 }, ended: 'budget', ms: 61_000 }, 60_000)).toBe(
      'still open when the 60 s budget ended (30 more iterations of bee-go)',
    );
    expect(precisionWords({ row: 'r', added: {}, ended: 'rounds', ms: 1 }, 60_000)).toMatch(/^still open after 3 rounds \(no more iterations\)/);
  });
});
