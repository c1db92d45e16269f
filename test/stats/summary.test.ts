// Tests of the summary statistics.
import { describe, expect, it } from 'vitest';
import { cv, geomean, madRaw, madScaled, max, mean, median, min, quantile, summarize } from '../../src/stats/index.js';
import { expectClose } from './helpers.js';

// Reference values: numpy 2.4.6 (np.median, np.quantile default 'linear' = R type 7),
// scipy 1.17.1 (stats.median_abs_deviation, stats.variation(ddof=1), stats.gmean).
const sm = [12.1, 11.8, 12.4, 13.9, 12.0, 11.7, 25.3, 12.2, 12.3, 11.9, 12.6, 12.0];

describe('summary statistics', () => {
  it('matches numpy / scipy on a sample with an outlier', () => {
    expectClose(median(sm), 12.149999999999999);
    expectClose(quantile(sm, 0.25), 11.975);
    expectClose(quantile(sm, 0.95), 19.029999999999994);
    expectClose(madRaw(sm), 0.25);
    expectClose(madScaled(sm), 0.25 * 1.4826); // R mad(): constant 1.4826
    expectClose(mean(sm), 13.35);
    expectClose(cv(sm), 0.28517235017544174);
    expectClose(geomean(sm), 13.014063822172602);
    expect(min(sm)).toBe(11.7);
    expect(max(sm)).toBe(25.3);
  });

  it('quantile type 7 hits order statistics at the ends and interpolates between', () => {
    expect(quantile([3, 1, 2], 0)).toBe(1);
    expect(quantile([3, 1, 2], 1)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5); // R: quantile(1:4, .5) = 2.5
    expect(quantile([1, 2, 3, 4], 0.1)).toBeCloseTo(1.3, 12); // R: quantile(1:4, .1) = 1.3
  });

  it('withholds p95 below 10 samples and exposes n', () => {
    expect(summarize([1, 2, 3]).p95).toBeNull();
    const s = summarize(sm);
    expect(s.n).toBe(12);
    expectClose(s.p95 as number, 19.029999999999994);
    expectClose(s.median, 12.149999999999999);
  });

  it('gives NaN, not a throw, for empty input and geomean of non-positive data', () => {
    expect(median([])).toBeNaN();
    expect(summarize([]).mean).toBeNaN();
    expect(geomean([1, 0, 2])).toBeNaN();
  });
});
