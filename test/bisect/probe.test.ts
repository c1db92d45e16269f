// A step's probe from the engine's rows: the instruction-count verdict when the row has one, the
// wall-time verdict otherwise; the slowest regressed row speaks for the step (and is the row bisect explains); a step that compared
// nothing stops the bisect with the rows' reasons instead of passing for "no change".
import { describe, expect, it } from 'vitest';
import { probeOf } from '../../src/bisect/step-probe.js';
import type { AbRow, RowEvidence, Verdict } from '../../src/verdict/index.js';
import { judgedRow, wallVerdict } from '../verdict/ab-rows.js';

const row = (evidence: RowEvidence, o: Partial<AbRow> = {}): AbRow =>
  judgedRow('cpu.keccak.chunk-hash', evidence, { group: 'keccak', work: {}, rounds: 6, ...o });
/** A timed row: wall time's ratio and verdict, its interval when given (else none: not a true 95% interval). */
const timed = (ratio: number, verdict: Verdict, ci?: [number, number]): RowEvidence => {
  const { ci: _ci, ...w } = wallVerdict(ratio, 0.01, verdict);
  return { wall: { judged: { ...w, ...(ci ? { ci } : {}) } } };
};
const counted = (ratio: number, verdict: '~' | 'regression' | 'improvement') => ({
  base: 1e6,
  head: 1e6 * ratio,
  ratio,
  spread: 0.001,
  threshold: 0.01,
  bar: 0.01,
  verdict,
});

describe('probeOf', () => {
  it('takes the wall-time verdict and interval of a timed row', () => {
    expect(probeOf([row(timed(1.93, 'regression', [1.84, 2.04]))], 'a'.repeat(40))).toEqual({
      ratio: 1.93,
      ci: [1.84, 2.04],
      exceeds: true,
      verdict: 'regression',
      row: { caseId: 'cpu.keccak.chunk-hash', label: 'quick' },
    });
  });

  it('prefers the instruction-count verdict of a counted row', () => {
    const p = probeOf([row({ instructions: { judged: counted(1.004, '~') } }, { rounds: 0 })], 'a'.repeat(40));
    expect(p).toEqual({ ratio: 1.004, exceeds: false, verdict: '~', row: { caseId: 'cpu.keccak.chunk-hash', label: 'quick' } });
  });

  it('a regressed row wins over a slower unflagged one, and the note names it', () => {
    const p = probeOf([row(timed(1.3, '~'), { label: 'a' }), row(timed(1.12, 'regression'), { label: 'b' })], 'a'.repeat(40));
    expect(p).toMatchObject({
      ratio: 1.12,
      exceeds: true,
      note: 'cpu.keccak.chunk-hash [b], slowest of 2 rows',
      row: { caseId: 'cpu.keccak.chunk-hash', label: 'b' },
    });
  });

  it('a step that compared nothing is an error naming the rows', () => {
    expect(() => probeOf([row({}, { status: 'failed', note: 'build failed' })], 'abcdef1234567890')).toThrow(
      /abcdef123456 compared nothing \(cpu\.keccak\.chunk-hash \[quick\]: build failed\)/,
    );
  });
});
