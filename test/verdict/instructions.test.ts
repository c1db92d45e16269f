// Tests of the step rule that judges instruction counts, and the A/A spread.
import { describe, expect, it } from 'vitest';
import { aaSpread, judgeSteps as judgeInstructions, NOISE_FLOOR, TOLERANCE_SPREADS } from '../../src/verdict/steps.js';

describe('judgeInstructions', () => {
  const opts = { floor: 0.01 };

  it('flags a 1.5% rise over a deterministic base', () => {
    const v = judgeInstructions([1_000_000, 1_000_000], [1_000_000, 1_000_000], [1_015_000, 1_015_000], opts);
    expect(v.ratio).toBeCloseTo(1.015, 9);
    expect(v.spread).toBe(0);
    expect(v.bar).toBeCloseTo(0.01 - NOISE_FLOOR, 12);
    expect(v.verdict).toBe('regression');
  });

  it('flags a change of exactly the threshold whichever way the last instructions fall', () => {
    // The 1% injection measured against bee-rs and bee-go bases: a few hundred instructions either side of 1.0100.
    const base = [840_174_945, 840_174_945, 840_175_422];
    for (const head of [
      [848_576_218, 848_576_218, 848_576_218],
      [848_576_718, 848_577_000, 848_576_718],
      [848_540_000, 848_540_000, 848_540_000],
    ]) {
      const v = judgeInstructions(base, base, head, opts);
      expect(v.ratio).toBeLessThan(1.0100001);
      expect(v.verdict).toBe('regression');
    }
    // bee-go manifest.hash: head 0.02% under its bases, times 1.01.
    expect(judgeInstructions([988_565_933], [988_655_000], [998_349_000], opts).verdict).toBe('regression');
    // Short of the threshold by more than the tolerance: not a change.
    expect(judgeInstructions([1_000_000], [1_000_000], [1_009_400], opts).verdict).toBe('~');
  });

  it('flags a fall as an improvement and a change under the threshold as nothing', () => {
    expect(judgeInstructions([1000], [1000], [980], opts).verdict).toBe('improvement');
    expect(judgeInstructions([1000], [1000], [1009], opts).verdict).toBe('~');
  });

  it('needs ten times the A/A spread: a row whose base moves 0.3% is not flagged at 2%', () => {
    const v = judgeInstructions([1_000_000], [1_003_000], [1_021_500], opts);
    expect(v.spread).toBeCloseTo(0.003, 9);
    expect(v.bar).toBeCloseTo(0.03, 9);
    expect(v.verdict).toBe('~');
    expect(judgeInstructions([1_000_000], [1_003_000], [1_040_000], opts).verdict).toBe('regression');
  });

  it('compares step by step, so a JIT tiering up over the iterations is not a spread', () => {
    // The first timed iteration costs 5x the later ones, in every process alike.
    const base = [5_000_000, 1_000_000, 1_000_000];
    const v = judgeInstructions(base, base, [5_100_000, 1_020_000, 1_020_000], opts);
    expect(v.spread).toBe(0);
    expect(v.ratio).toBeCloseTo(1.02, 9);
    expect(v.verdict).toBe('regression');
  });

  it('takes three A/A spreads as its tolerance when that is wider than the noise floor', () => {
    // bee-go manifest.lookup-large: processes 0.06% apart; an injected 1% reads 0.90% against them.
    const v = judgeInstructions([529_300_000], [529_617_580], [534_250_000], opts);
    expect(v.spread).toBeCloseTo(0.0006, 6);
    expect(v.bar).toBeCloseTo(0.01 - TOLERANCE_SPREADS * 0.0006, 6);
    expect(v.verdict).toBe('regression');
    // ... and a wandering A/A head stays far under it.
    expect(judgeInstructions([529_300_000], [529_617_580], [529_900_000], opts).verdict).toBe('~');
  });

  it('refuses empty sides and zero counts', () => {
    expect(() => judgeInstructions([], [1], [1], opts)).toThrow(/two base runs/);
    expect(() => judgeInstructions([0], [1], [1], opts)).toThrow(/zero/);
  });
});

describe('aaSpread', () => {
  it('is how far the median step-wise ratio puts two runs apart, either way', () => {
    expect(aaSpread([200, 100, 300], [202, 101, 303])).toBeCloseTo(0.01, 12);
    expect(aaSpread([202, 101, 303], [200, 100, 300])).toBeCloseTo(0.01, 12);
    expect(aaSpread([5], [5])).toBe(0);
  });

  it("is not moved by one odd iteration, as the verdict's median is not", () => {
    // bee-rs harness.noop: an allocator's first call lands in one step of one process.
    expect(aaSpread([1395, 918, 918], [918, 918, 918])).toBe(0);
  });
});
