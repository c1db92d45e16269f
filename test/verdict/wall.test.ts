// The wall-time rule (src/verdict/wall.ts) on comparisons from src/stats.
import { describe, expect, it } from 'vitest';
import { minRounds, pairedRounds, signedRankMinP, unpairedHistory, type Comparison } from '../../src/stats/index.js';
import { judgeWall } from '../../src/verdict/index.js';
import { expectClose } from '../stats/helpers.js';

describe('judgeWall', () => {
  const row = (p: number, ratio: number, minP = 1e-6): Pick<Comparison, 'p' | 'ratio' | 'minP'> & { id: string } => ({
    id: `${p}/${ratio}`,
    p,
    ratio,
    minP,
  });

  it('needs both q < alpha and a change beyond the threshold, in either direction', () => {
    const out = judgeWall([row(0.001, 1.2), row(0.001, 0.8), row(0.001, 1.01), row(0.3, 1.5)], {
      alpha: 0.05,
      threshold: 0.05,
    });
    expect(out.map((r) => r.verdict)).toEqual(['regression', 'improvement', '~', '~']);
    expect(out[0]?.id).toBe('0.001/1.2'); // caller's fields are kept
  });

  it('improvement threshold is the reciprocal: 1/(1 + t), not 1 - t', () => {
    // 1/1.1 = 0.909...; 0.905 is beyond it, 0.91 is not.
    const out = judgeWall([row(1e-4, 0.905), row(1e-4, 0.91)], { alpha: 0.05, threshold: 0.1 });
    expect(out.map((r) => r.verdict)).toEqual(['improvement', '~']);
  });

  it('applies BH across rows: p = 0.03 alone is significant, among 10 unremarkable rows it is not', () => {
    expect(judgeWall([row(0.03, 1.3)], { alpha: 0.05, threshold: 0.05 })[0]?.verdict).toBe('regression');
    const many = [row(0.03, 1.3), ...Array.from({ length: 9 }, () => row(0.6, 1))];
    const out = judgeWall(many, { alpha: 0.05, threshold: 0.05 });
    expectClose(out[0]?.q as number, 0.3);
    expect(out[0]?.verdict).toBe('~');
  });

  it('flags rows that can never be significant: 5 rounds give at best p = 0.0625', () => {
    const five = pairedRounds.compare([1, 1, 1, 1, 1], [2, 2.1, 2.2, 2.3, 2.4]);
    expect(five.p).toBe(0.0625);
    expect(five.minP).toBe(0.0625);
    const [v] = judgeWall([five], { alpha: 0.05, threshold: 0.05 });
    expect(v).toMatchObject({ verdict: '~', note: 'too few rounds to judge (needs ≥ 6)' });
    const six = pairedRounds.compare([1, 1, 1, 1, 1, 1], [2, 2.1, 2.2, 2.3, 2.4, 2.5]);
    expect(judgeWall([six], { alpha: 0.05, threshold: 0.05 })[0]).toMatchObject({ verdict: 'regression' });
    expect(judgeWall([six], { alpha: 0.05, threshold: 0.05 })[0]?.note).toBeUndefined();
  });

  it('twelve identical rounds say "no difference", not "too few rounds"', () => {
    const c = pairedRounds.compareLogRatios(Array<number>(12).fill(0));
    expect(c).toMatchObject({ p: 1, ratio: 1, identical: true, minP: signedRankMinP(12) });
    expect(judgeWall([c], { alpha: 0.02, threshold: 0.02 })[0]).toMatchObject({ verdict: '~', note: 'no difference' });
  });

  it('zero differences make p larger, not the floor: 12 rounds with 8 zeros are not "too few rounds"', () => {
    const c = pairedRounds.compareLogRatios([0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0.1, 0.1, 0.1]);
    expect(c.minP).toBe(2 / 2 ** 12);
    expect(c.p).toBe(0.125); // scipy 1.17.1 wilcoxon(d) (permutation, zeros dropped): 0.125
    expect(judgeWall([c], { alpha: 0.02, threshold: 0.02 })[0]!.note).toBeUndefined();
  });

  it('an interval that misses its estimate or its coverage is not a 95% interval', () => {
    // Issue 10: [0.05, 0.08, 0.05] -> estimate 0.0575, interval [0.05, 0.05].
    const three = pairedRounds.compareLogRatios([0.05, 0.08, 0.05]);
    expectClose(Math.log(three.ratio), 0.0575, 1e-12);
    expect(three.intervalHolds).toBe(false);
    // Two rounds of a 2x change: a tight interval, but only 50% coverage.
    const two = pairedRounds.compareLogRatios([Math.log(2) - 0.01, Math.log(2) + 0.01]);
    expect(two.achievedConfLevel).toBeLessThan(0.95);
    expect(two.intervalHolds).toBe(false);
    expect(judgeWall([two], { alpha: 0.02, threshold: 0.02 })[0]).toMatchObject({ verdict: '~', note: 'too few rounds to judge (needs ≥ 7)' });
  });

  it('minimum-p helpers: 2 / 2^n and the fewest rounds for a given alpha', () => {
    expect(signedRankMinP(5)).toBe(0.0625);
    expect(minRounds(0.05)).toBe(6);
    expect(minRounds(0.01)).toBe(8);
    const unpaired = unpairedHistory.compare([1, 2], [3, 4]);
    expect(judgeWall([{ ...unpaired }], { alpha: 0.05, threshold: 0.05 })[0]?.note).toBe('too few samples to judge');
  });
});
