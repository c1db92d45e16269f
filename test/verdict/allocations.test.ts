// The allocation rule (src/verdict/allocations.ts): the count rule's shape on bytes and allocations.
import { describe, expect, it } from 'vitest';
import { judgeAllocations } from '../../src/verdict/index.js';

const o = { floor: 0.01 };
const bytes = (xs: number[]) => ({ bytes: xs });
const scaled = (xs: number[], f: number) => xs.map((x) => Math.round(x * f));
const B = [100_000, 100_000, 100_000];

describe('judgeAllocations', () => {
  it('identical base runs (spread 0): a 1% change flags either way', () => {
    expect(judgeAllocations(bytes(B), bytes(B), bytes(scaled(B, 1.01)), o)).toMatchObject({ verdict: 'regression', bytes: { spread: 0 } });
    expect(judgeAllocations(bytes(B), bytes(B), bytes(scaled(B, 0.99)), o).verdict).toBe('improvement');
  });

  it('a 0.5% change at a 1% threshold does not flag', () => {
    expect(judgeAllocations(bytes(B), bytes(B), bytes(scaled(B, 1.005)), o).verdict).toBe('~');
  });

  it('A/A noise does not flag: head within the base runs, and a change inside ten spreads', () => {
    const a = [100_000, 100_400, 99_800];
    const b = [100_300, 99_900, 100_200];
    expect(judgeAllocations(bytes(a), bytes(b), bytes([100_100, 100_200, 99_900]), o).verdict).toBe('~');
    // The base runs 0.3% apart: a 1.2% change is below ten spreads (3%).
    const wide = judgeAllocations(bytes(B), bytes(scaled(B, 1.003)), bytes(scaled(B, 1.012)), o);
    expect(wide.verdict).toBe('~');
    expect(wide.bytes.bar).toBeGreaterThan(0.012);
  });

  it('zero allocations compare as equal, and something against nothing is a change', () => {
    const zero = [0, 0, 0];
    expect(judgeAllocations(bytes(zero), bytes(zero), bytes(zero), o)).toMatchObject({ verdict: '~', bytes: { base: 0, head: 0, ratio: 1 } });
    expect(judgeAllocations(bytes(zero), bytes(zero), bytes([64, 64, 64]), o).verdict).toBe('regression');
  });

  it('a change in allocation counts alone flags the row (bytes unchanged)', () => {
    const side = (allocs: number[]) => ({ bytes: B, allocs });
    const v = judgeAllocations(side([100, 100, 100]), side([100, 100, 100]), side([110, 110, 110]), o);
    expect(v).toMatchObject({ verdict: 'regression', bytes: { verdict: '~' }, allocs: { verdict: 'regression' } });
  });
});
