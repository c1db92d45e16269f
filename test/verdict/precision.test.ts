// The low-precision rule (src/verdict/precision.ts): too few ops over all iterations, or too wide a
// median interval; byte figures are judged by the interval only; nothing without samples.
import { describe, expect, it } from 'vitest';
import { LOW_PRECISION_RULE, MAX_SPREAD, MIN_TOTAL_OPS, lowPrecision, medianSpread, precisionReasons } from '../../src/verdict/precision.js';

const steady = (n: number, ns = 1e6) => Array.from({ length: n }, (_, i) => ns * (1 + 0.001 * (i % 3)));

describe('low precision', () => {
  it('marks a per-op figure on fewer than 30 ops in all (bee-js recovering 2 signatures in each of 5 iterations)', () => {
    expect(precisionReasons(steady(5), { ops: 2 })).toEqual([{ kind: 'ops', totalOps: 10, iterations: 5 }]);
    expect(precisionReasons(steady(5), { ops: 5 })).toEqual([{ kind: 'ops', totalOps: 25, iterations: 5 }]);
    expect(precisionReasons(steady(5), { ops: 6 })).toEqual([]);
    expect(MIN_TOTAL_OPS).toBe(30);
  });

  it('judges byte figures by their interval only (one keccak over 32 MiB is not one op to count)', () => {
    expect(precisionReasons(steady(5), { ops: 1, bytes: 33_554_432 })).toEqual([]);
    expect(precisionReasons(steady(5), { bytes: 33_554_432 })).toEqual([]);
  });

  it('marks a median whose interval reaches beyond ±10%: with 5 iterations the whole range', () => {
    // 100, 100, 100, 100, 125: the median 100, the range reaches +25%.
    const wide = [100, 100, 125, 100, 100];
    expect(medianSpread(wide)).toBeCloseTo(0.25, 12);
    expect(precisionReasons(wide, { ops: 1000 })).toEqual([{ kind: 'spread', spread: 0.25, iterations: 5 }]);
    expect(lowPrecision([100, 100, 110, 100, 91], { ops: 1000 })).toBe(false); // ±10% exactly is not beyond
    expect(MAX_SPREAD).toBe(0.1);
  });

  it('with 20 iterations one slow iteration does not move the interval (the 6th to 15th value)', () => {
    const xs = [...steady(19, 100), 300];
    expect(Math.max(...xs) / 100 - 1).toBeGreaterThan(1); // the range says ±200%
    expect(medianSpread(xs)!).toBeLessThan(0.01);
    expect(lowPrecision(xs, { ops: 10 })).toBe(false);
  });

  it('names both reasons, and judges nothing without samples (imported points carry none)', () => {
    expect(precisionReasons([100, 150, 100], { ops: 2 }).map((r) => r.kind)).toEqual(['ops', 'spread']);
    expect(precisionReasons([], { ops: 1 })).toEqual([]);
    expect(medianSpread([5])).toBeUndefined();
  });

  it('says its rule with the constants in it', () => {
    expect(LOW_PRECISION_RULE).toContain(`fewer than ${MIN_TOTAL_OPS} ops`);
    expect(LOW_PRECISION_RULE).toContain(`±${MAX_SPREAD * 100}%`);
  });
});
