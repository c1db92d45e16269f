// Tests of the paired and history designs and a round's log ratio.
import { describe, expect, it } from 'vitest';
import { median, pairedRounds, roundLogRatio, unpairedHistory } from '../../src/stats/index.js';
import { judgeWall } from '../../src/verdict/index.js';
import { expectClose } from './helpers.js';
import { normals, rng } from './random.js';

/** R rounds of paired round-medians: base ~ 1 ms with 3% noise, head = base * shift * own 2% noise. */
function rounds(seed: number, R: number, shift: number): { base: number[]; head: number[] } {
  const z = normals(rng(seed));
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < R; i++) {
    const common = 1e6 * Math.exp(0.03 * z()); // machine drift hits both processes of a round
    base.push(common * Math.exp(0.02 * z()));
    head.push(common * shift * Math.exp(0.02 * z()));
  }
  return { base, head };
}

const pair = (r: { base: number[]; head: number[] }): [number[], number[]] => [r.base, r.head];

describe('pairedRounds', () => {
  it('identical base and head: ratio 1, p = 1, interval [1, 1], verdict ~', () => {
    const v = [1200, 1180, 1250, 1190, 1210, 1230, 1205, 1199];
    const c = pairedRounds.compare(v, v);
    expect(c).toMatchObject({ ratio: 1, p: 1, ci: [1, 1], n: 8, crossMachine: false });
    expect(judgeWall([c], { alpha: 0.05, threshold: 0.02 })[0]?.verdict).toBe('~');
  });

  it('a consistent 10% slowdown over 20 rounds: ratio ~1.10, p < 0.001, interval excludes 1', () => {
    const { base, head } = rounds(7, 20, 1.1);
    const c = pairedRounds.compare(base, head);
    expect(c.method).toBe('exact');
    // sd of the HL estimate here is ~0.7%; 2.5% is > 3 sd.
    expect(Math.abs(c.ratio - 1.1)).toBeLessThan(0.025);
    expect(c.p).toBeLessThan(0.001);
    expect(c.ci[0]).toBeGreaterThan(1);
    expect(c.ci[0]).toBeLessThan(c.ratio);
    expect(c.ci[1]).toBeGreaterThan(c.ratio);
    expect(judgeWall([c], { alpha: 0.05, threshold: 0.05 })[0]?.verdict).toBe('regression');
  });

  it('the 95% interval covers the true 1.10 in ~95% of 400 seeded experiments', () => {
    let covered = 0;
    for (let s = 0; s < 400; s++) {
      const { ci } = pairedRounds.compare(...pair(rounds(5000 + s, 20, 1.1)));
      if (ci[0] <= 1.1 && 1.1 <= ci[1]) covered++;
    }
    // Exact coverage at n = 20 is 95.2%; sampling sd over 400 runs ~1.1%.
    expect(covered / 400).toBeGreaterThan(0.92);
    expect(covered / 400).toBeLessThan(0.985);
  });

  it('twelve rounds of a real change give a true 95% interval', () => {
    expect(pairedRounds.compare(...pair(rounds(21, 12, 1.1))).intervalHolds).toBe(true);
  });

  it('is unit-free and antisymmetric: scaling leaves it unchanged, swapping inverts the ratio', () => {
    const { base, head } = rounds(11, 15, 1.04);
    const c = pairedRounds.compare(base, head);
    const scaled = pairedRounds.compare(
      base.map((v) => v / 1e3),
      head.map((v) => v / 1e3),
    );
    expectClose(scaled.ratio, c.ratio, 1e-9);
    expectClose(scaled.p, c.p, 1e-9);
    const swapped = pairedRounds.compare(head, base);
    expectClose(swapped.ratio, 1 / c.ratio, 1e-9);
    expectClose(swapped.ci[0], 1 / c.ci[1], 1e-9);
    expectClose(swapped.p, c.p, 1e-12);
  });

  it('A/A: identical builds are flagged at most ~alpha of the time (400 seeded experiments)', () => {
    let flagged = 0;
    for (let s = 0; s < 400; s++) {
      const { base, head } = rounds(1000 + s, 12, 1);
      if (pairedRounds.compare(base, head).p < 0.05) flagged++;
    }
    // The exact test has size <= alpha; 0.07 leaves room for sampling noise (sd ~ 0.011).
    expect(flagged / 400).toBeLessThanOrEqual(0.07);
    expect(flagged).toBeGreaterThan(0); // and it is not blind
  });

  it('rejects mismatched lengths and non-positive times', () => {
    expect(() => pairedRounds.compare([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedRounds.compare([1, 0], [1, 2])).toThrow(/> 0/);
  });
});

describe('unpairedHistory', () => {
  it('head 10% slower than 30 history runs: ratio ~1.10, significant, cross-machine', () => {
    const z = normals(rng(3));
    const history = Array.from({ length: 30 }, () => 2e6 * Math.exp(0.04 * z()));
    const head = Array.from({ length: 20 }, () => 2.2e6 * Math.exp(0.04 * z()));
    const c = unpairedHistory.compare(history, head);
    expect(c).toMatchObject({ design: 'unpaired-history', crossMachine: true, n: 20, nBase: 30, method: 'exact' });
    expect(Math.abs(c.ratio - 1.1)).toBeLessThan(0.03);
    expect(c.p).toBeLessThan(1e-6);
    expect(c.ci[0]).toBeLessThan(c.ratio);
    expect(c.ci[1]).toBeGreaterThan(c.ratio);
  });

  it('same distribution: not significant', () => {
    const z = normals(rng(5));
    const history = Array.from({ length: 30 }, () => 2e6 * Math.exp(0.04 * z()));
    const head = Array.from({ length: 20 }, () => 2e6 * Math.exp(0.04 * z()));
    expect(unpairedHistory.compare(history, head).p).toBeGreaterThan(0.05);
  });
});

describe('roundLogRatio', () => {
  it('pairs iteration i of base with iteration i of head: a speed spell both met cancels', () => {
    // The machine runs at 1x, then 2x slower for three lock-step pairs; head is 5% slower throughout.
    const speed = [1, 1, 2, 2, 2];
    const base = speed.map((s) => 100 * s);
    const head = speed.map((s) => 105 * s);
    expectClose(roundLogRatio(base, head)!, Math.log(1.05), 1e-12);
    // The ratio of the medians would have compared a slow base with a fast head here.
    const shifted = [1, 2, 2, 2, 2].map((s) => 105 * s);
    expect(Math.log(median(shifted) / median(base))).toBeCloseTo(Math.log(1.05), 6);
    expect(roundLogRatio([100, 100, 200, 200, 200], [105, 105, 210, 210, 420])).toBeCloseTo(Math.log(1.05), 12);
  });

  it('takes the ratio of the medians when the counts differ (no pairing possible)', () => {
    expectClose(roundLogRatio([100, 300, 200], [220, 210])!, Math.log(215 / 200), 1e-12);
  });

  it('refuses an empty side', () => {
    expect(() => roundLogRatio([], [1])).toThrow(/both sides/);
  });

  it('leaves out a pair with a 0 ns iteration (valid in a result); null when no pair is left', () => {
    expectClose(roundLogRatio([0, 100, 200, 100], [105, 105, 0, 105])!, Math.log(1.05), 1e-12);
    expect(roundLogRatio([0, 0], [1, 2])).toBeNull();
    expect(roundLogRatio([0, 0, 0], [1, 2])).toBeNull();
    expectClose(roundLogRatio([0, 100, 300], [210, 0])!, Math.log(210 / 200), 1e-12);
  });

  it('is the median of the pair ratios, not the ratio of the medians (they differ here)', () => {
    // Pairs 1 and 2: head 5% slower; pair 3 met a fast spell on the head side only.
    const base = [100, 300, 300];
    const head = [105, 315, 100];
    expectClose(roundLogRatio(base, head)!, Math.log(1.05), 1e-12);
    expect(Math.log(median(head) / median(base))).toBeCloseTo(Math.log(0.35), 12);
  });

  it('compareLogRatios is compare on ln(head/base)', () => {
    const { base, head } = rounds(13, 12, 1.06);
    const direct = pairedRounds.compare(base, head);
    const viaLogs = pairedRounds.compareLogRatios(head.map((h, i) => Math.log(h / base[i]!)));
    expectClose(viaLogs.ratio, direct.ratio, 1e-12);
    expectClose(viaLogs.p, direct.p, 1e-12);
  });
});
