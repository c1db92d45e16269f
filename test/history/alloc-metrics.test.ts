// Allocation figures in history records (RecordCase.metrics) and the series the trend site charts.
import { describe, expect, it } from 'vitest';
import { derive, seriesFile } from '../../src/history/derive.js';
import { ALLOC_METRICS, parseRecord, recordPath, serializeRecord, toRecord } from '../../src/history/record.js';
import type { CaseSeriesFile } from '../../src/history/schema.js';
import type { Result } from '../../src/spec/schema.js';
import { context, smallResult } from './helpers.js';

/** smallResult with allocation figures on chunk-hash (per iteration, 7 samples) and bytes only on sign. */
function allocating(i: number): Result {
  const r = smallResult('go', i);
  const chunk = r.cases[0]!;
  const sign = r.cases[1]!;
  chunk.alloc_bytes = chunk.samples_ns.map((_, k) => (k === 0 ? 9_000_000 : 8_192_000 + i));
  chunk.allocs = chunk.samples_ns.map(() => 4000);
  sign.alloc_bytes = sign.samples_ns.map(() => 960);
  return { ...r, alloc_counter: { method: 'test' } };
}

describe('allocation metrics in history records', () => {
  it('records the median per iteration and per op of work', () => {
    const rec = toRecord(allocating(0), context(0));
    // chunk-hash: 2000 ops; the one odd iteration does not move the median.
    expect(rec.cases[0]!.metrics).toEqual({ 'B/iter': 8_192_000, 'B/op': 4096, 'allocs/iter': 4000, 'allocs/op': 2 });
    // Bytes only (as bee-js gives): no allocation counts invented.
    expect(rec.cases[1]!.metrics).toEqual({ 'B/iter': 960, 'B/op': 96 });
    // A skipped case and a result without allocation runs carry none.
    expect(rec.cases[2]!.metrics).toBeUndefined();
    expect(toRecord(smallResult('go', 0), context(0)).cases[0]!.metrics).toBeUndefined();
  });

  it('survives the store round trip', () => {
    const rec = toRecord(allocating(1), context(1));
    expect(parseRecord('x.json', serializeRecord(rec)).cases[0]!.metrics).toEqual(rec.cases[0]!.metrics);
  });

  it('reaches the series points, one per run, for the site to chart', () => {
    const records = [0, 1, 2].map((i) => toRecord(allocating(i), context(i)));
    const files = derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] });
    const s = JSON.parse(files.get(seriesFile('cpu.keccak.chunk-hash'))!) as CaseSeriesFile;
    const points = s.series[0]!.points;
    expect(points.map((p) => p.metrics?.[ALLOC_METRICS.bytesPerIteration])).toEqual([8_192_000, 8_192_001, 8_192_002]);
    expect(points.map((p) => p.metrics?.[ALLOC_METRICS.allocsPerOp])).toEqual([2, 2, 2]);
    // Keys sorted, as every derived file's.
    expect(Object.keys(points[0]!.metrics!)).toEqual(['B/iter', 'B/op', 'allocs/iter', 'allocs/op']);
  });
});
