// Tests of the least-squares fit (overhead and throughput).
import { describe, expect, it } from 'vitest';
import { linearFit, overheadAndThroughput } from '../../src/stats/index.js';
import { expectClose } from './helpers.js';

// Latency (ns) against payload size (bytes); reference: scipy 1.17.1 stats.linregress.
const sizes = [1024, 4096, 16384, 65536, 262144, 1048576];
const times = [21000, 24500, 37900, 91800, 310000, 1190000];

describe('least-squares fit', () => {
  it('matches scipy linregress: slope, intercept, r^2 and standard errors', () => {
    const f = linearFit(sizes, times);
    expectClose(f.slope, 1.1161301714631036, 1e-12);
    expectClose(f.intercept, 19186.315255955386, 1e-10);
    expectClose(f.r2, 0.9999954249050589, 1e-12);
    expectClose(f.slopeStderr, 0.0011936744592251289, 1e-8);
    expectClose(f.interceptStderr, 527.7454994838437, 1e-8);
  });

  it('recovers overhead and throughput from exact data', () => {
    const t = sizes.map((b) => 5000 + b / 2.5); // 5 µs overhead, 2.5 bytes/ns
    const o = overheadAndThroughput(sizes, t);
    expectClose(o.overhead, 5000, 1e-9);
    expectClose(o.throughput, 2.5, 1e-12);
    expectClose(o.r2, 1, 1e-12);
  });

  it('degenerate inputs: constant x gives NaN slope; constant y fits exactly', () => {
    expect(linearFit([1, 1, 1], [1, 2, 3]).slope).toBeNaN();
    expect(linearFit([1, 2, 3], [4, 4, 4])).toMatchObject({ slope: 0, intercept: 4, r2: 1 });
  });
});
