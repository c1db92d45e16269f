// Estimated cycles in history records: the cycles evidence's figures kept in a case's metrics
// (its registry record's historyMetrics), through the store and into the series the site charts.
import { describe, expect, it } from 'vitest';
import { derive, seriesFile } from '../../src/history/derive.js';
import { parseRecord, recordPath, serializeRecord, toRecord } from '../../src/history/record.js';
import type { CaseSeriesFile } from '../../src/history/schema.js';
import { CYCLES_METRICS } from '../../src/evidence/history-metrics.js';
import type { Result } from '../../src/spec/schema.js';
import { axisTitle, formatValue, metricsOf } from '../../pages/src/metric.js';
import { context, countedResult } from './helpers.js';

/** countedResult with estimated cycles beside the counts, as a cache-simulating counting run attaches them (one iteration). */
function cycled(i: number): Result {
  const r = countedResult('rs', i);
  return { ...r, cases: r.cases.map((c) => (c.instructions ? { ...c, cycles: [c.instructions.at(-1)! * 1.04 + i] } : c)) };
}

describe('estimated cycles in history records', () => {
  it('records the median per iteration and per op of work in the case metrics, beside the counts', () => {
    const r = cycled(0);
    const rec = toRecord(r, context(0));
    const chunk = r.cases[0]!;
    expect(rec.cases[0]!.metrics).toEqual({
      [CYCLES_METRICS.perIteration]: chunk.cycles![0],
      [CYCLES_METRICS.perOp]: chunk.cycles![0]! / chunk.work.ops!,
    });
    expect(rec.cases[0]!.instructions?.median).toBe(chunk.instructions![1]);
    // A skipped case has none; a result of plain counting has none.
    expect(rec.cases[2]!.metrics).toBeUndefined();
    expect(toRecord(countedResult('rs', 0), context(0)).cases[0]!.metrics).toBeUndefined();
  });

  it('merges with allocation metrics of the same case', () => {
    const r = cycled(0);
    r.cases[0]!.alloc_bytes = [4096];
    expect(Object.keys(toRecord(r, context(0)).cases[0]!.metrics!).sort()).toEqual(
      ['B/iter', 'B/op', CYCLES_METRICS.perIteration, CYCLES_METRICS.perOp].sort(),
    );
  });

  it('survives the store round trip', () => {
    const rec = toRecord(cycled(1), context(1));
    expect(parseRecord('x.json', serializeRecord(rec)).cases[1]!.metrics).toEqual(rec.cases[1]!.metrics);
  });

  it('reaches the series points, one per run, and the site words them', () => {
    const records = [0, 1, 2].map((i) => toRecord(cycled(i), context(i)));
    const files = derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] });
    const s = JSON.parse(files.get(seriesFile('cpu.ecdsa.sign'))!) as CaseSeriesFile;
    const first = records[0]!.cases[1]!.metrics![CYCLES_METRICS.perIteration]!;
    expect(s.series[0]!.points.map((p) => p.metrics?.[CYCLES_METRICS.perIteration])).toEqual([first, first + 1, first + 2]);
    expect(metricsOf(s)).toEqual([CYCLES_METRICS.perIteration, CYCLES_METRICS.perOp]);
    expect(axisTitle({ metric: CYCLES_METRICS.perIteration })).toBe('Estimated cycles per iteration (lower is better)');
    expect(axisTitle({ metric: CYCLES_METRICS.perOp })).toBe('Estimated cycles per op (lower is better)');
    expect(formatValue({ metric: CYCLES_METRICS.perOp }, 52_000)).toBe('52.0 k cycles/op');
    expect(formatValue({ metric: CYCLES_METRICS.perIteration }, 1_586_882_090)).toBe('1.59 G cycles/iter');
  });
});
