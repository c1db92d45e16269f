import { describe, expect, it } from 'vitest';
import { judgeInstructions, stepSpread } from '../../src/verdict/instructions.js';

describe('judgeInstructions', () => {
  const opts = { threshold: 0.01 };

  it('flags a 1.5% rise over a deterministic base', () => {
    const v = judgeInstructions([1_000_000, 1_000_000], [1_000_000, 1_000_000], [1_015_000, 1_015_000], opts);
    expect(v.ratio).toBeCloseTo(1.015, 9);
    expect(v.spread).toBe(0);
    expect(v.bar).toBe(0.01);
    expect(v.verdict).toBe('regression');
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

  it('refuses empty sides and zero counts', () => {
    expect(() => judgeInstructions([], [1], [1], opts)).toThrow(/two base runs/);
    expect(() => judgeInstructions([0], [1], [1], opts)).toThrow(/zero/);
  });
});

describe('stepSpread', () => {
  it('is the largest relative distance between two runs at the same step', () => {
    expect(stepSpread([200, 100], [202, 100])).toBeCloseTo(0.01, 12);
    expect(stepSpread([5], [5])).toBe(0);
  });
});
