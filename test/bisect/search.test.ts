// The bisect search alone, with a probe that answers from a known first bad position: it names
// that commit within ceil(log2 n) + 1 probes at every position and range length, and says "no
// change" (null) when nothing exceeds, measuring the tip before saying so.
import { describe, expect, it } from 'vitest';
import { firstExceeding } from '../../src/bisect/search.js';

const probeFrom = (firstBad: number, probed: number[]) => async (c: number) => {
  probed.push(c);
  return { exceeds: c >= firstBad, verdict: c >= firstBad ? 'regression' : '~', ratio: c >= firstBad ? 1.5 : 1 };
};

describe('firstExceeding', () => {
  it('finds the first exceeding commit at every position within ceil(log2 n) + 1 probes', async () => {
    for (const n of [1, 2, 3, 5, 8, 13]) {
      const commits = Array.from({ length: n }, (_, i) => i);
      for (let firstBad = 0; firstBad < n; firstBad++) {
        const probed: number[] = [];
        const out = await firstExceeding(commits, probeFrom(firstBad, probed));
        expect(out.first, `n=${n} firstBad=${firstBad}`).toBe(firstBad);
        expect(out.steps.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 1);
        expect(out.steps.map((s) => s.commit)).toEqual(probed);
        expect(new Set(probed).size).toBe(probed.length);
      }
    }
  });

  it('eight commits with the slowdown in the sixth: three probes, none of them the tip', async () => {
    const probed: number[] = [];
    const out = await firstExceeding([0, 1, 2, 3, 4, 5, 6, 7], probeFrom(5, probed));
    expect(out.first).toBe(5);
    expect(probed).toEqual([3, 5, 4]);
  });

  it('says no change (null) only after measuring the tip', async () => {
    const probed: number[] = [];
    const out = await firstExceeding([0, 1, 2, 3, 4], probeFrom(99, probed));
    expect(out.first).toBeNull();
    expect(probed.at(-1)).toBe(4);
    expect(out.steps.every((s) => !s.exceeds)).toBe(true);
  });

  it('an empty range probes nothing', async () => {
    expect(await firstExceeding([], probeFrom(0, []))).toEqual({ first: null, steps: [] });
  });
});
