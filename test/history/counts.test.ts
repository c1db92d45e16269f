// Instruction counts in the history: records @2 carry each counted case's count per iteration
// (median, per op, per byte) and the counter; records @1 (the fixture was written by bee-bench
// before counts) stay readable; a GAB export carries the counts as separate benches, and import
// gives them back exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derive } from '../../src/history/derive.js';
import { exportGab, exportGabData, importGab, renderGabDataJs } from '../../src/history/gab.js';
import { parseRecord, recordPath, serializeRecord, toRecord } from '../../src/history/record.js';
import { EVIDENCES } from '../../src/evidence/index.js';
import { RECORD_SCHEMA_ID, RECORD_SCHEMA_V1, type SeriesPoint } from '../../src/history/schema.js';
import { DEFAULT_COUNT_SPREAD } from '../../src/history/count-steps.js';
import { median } from '../../src/stats/index.js';
import { context, COUNTER, countedRecord, countedResult, countHistory, RUNTIMES, smallResult } from './helpers.js';

const V1 = join(import.meta.dirname, 'fixtures/records/v1-go.json');

describe('records with counts', () => {
  it('carry the median count per iteration, per op and per byte, and the counter', () => {
    const res = countedResult('go', 1);
    const rec = countedRecord('go', 1);
    expect(rec.schema).toBe(RECORD_SCHEMA_ID);
    expect(rec.counter).toEqual(COUNTER);
    const src = res.cases[0]!;
    const hash = rec.cases[0]!;
    expect(hash.id).toBe('cpu.keccak.chunk-hash');
    const m = median(src.instructions!);
    expect(hash.instructions).toEqual({ samples: src.instructions, median: m, per_op: m / 2000, per_byte: m / 8192000 });
    // ecdsa declares ops only; the skipped net case has no count.
    expect(rec.cases[1]!.instructions).toEqual({
      samples: res.cases[1]!.instructions,
      median: median(res.cases[1]!.instructions!),
      per_op: median(res.cases[1]!.instructions!) / 10,
    });
    expect(rec.cases[2]!.instructions).toBeUndefined();
    // Stored bytes read back to the same record.
    expect(parseRecord('runs/x.json', serializeRecord(rec))).toEqual(rec);
  });

  it('a wall-time result with a counting run attached (single runs and the nightly merge, the instructions evidence attach) records the counts', () => {
    const wall = smallResult('rs', 4);
    const counted = countedResult('rs', 4, 40); // a counting run: valgrind's wall samples, meaningless
    const rec = toRecord(EVIDENCES.instructions.attach(wall, counted), context(4));
    expect(rec.counter).toEqual(COUNTER);
    // Time from the wall run, counts from the counting run.
    expect(rec.cases.map((c) => c.median_ns)).toEqual(toRecord(wall, context(4)).cases.map((c) => c.median_ns));
    expect(rec.cases.map((c) => c.instructions?.samples)).toEqual(counted.cases.map((c) => c.instructions));
  });

  it('a run without counts writes no counter and no instructions', () => {
    const rec = parseRecord(
      'runs/x.json',
      serializeRecord({ ...countedRecord('rs', 2), counter: undefined, cases: countedRecord('rs', 2).cases.map(({ instructions: _, ...c }) => c) }),
    );
    expect(rec.counter).toBeUndefined();
    expect(rec.cases.some((c) => c.instructions)).toBe(false);
  });

  it('reads records @1 (written before counts) as they are, and derives their series', () => {
    const text = readFileSync(V1, 'utf8');
    const rec = parseRecord('runs/2026/11/v1.json', text);
    expect(rec.schema).toBe(RECORD_SCHEMA_V1);
    expect(rec.cases.map((c) => c.instructions)).toEqual([undefined, undefined, undefined]);
    // Read back byte for byte: nothing is upgraded or rewritten.
    expect(serializeRecord(rec)).toBe(text);
    const files = derive({
      records: [
        { path: recordPath(rec), record: rec },
        { path: recordPath(countedRecord('go', 4)), record: countedRecord('go', 4) },
      ],
      invalid: [],
    });
    const points = JSON.parse(files.get('series/cpu.keccak.chunk-hash.json')!).series[0].points;
    expect(points.map((p: { instructions?: number }) => p.instructions)).toEqual([undefined, countedRecord('go', 4).cases[0]!.instructions!.median]);
  });

  it('a record @1 that carries counts is named invalid, field by field', () => {
    const v1 = JSON.parse(readFileSync(V1, 'utf8'));
    v1.cases[0].instructions = { samples: [5], median: 5 };
    expect(() => parseRecord('runs/v1.json', JSON.stringify(v1))).toThrow(
      /runs\/v1\.json: cases\[0\]\.instructions: bee-bench\/history-record@1 records carry no instructions/,
    );
  });
});

describe('GAB export and import with counts', () => {
  const records = [0, 1, 2].flatMap((i) => (['js', 'go', 'rs'] as const).map((r) => countedRecord(r, i, 'main', 1 + i / 100)));

  it('exports each counted case as a second bench with its unit', () => {
    const benches = exportGab(records[1]!);
    expect(benches.map((b) => [b.name, b.unit])).toEqual([
      ['cpu.ecdsa.sign [quick] (go)', 'ns'],
      ['cpu.ecdsa.sign [quick] (go) instructions', 'instructions/iter'],
      ['cpu.keccak.chunk-hash [quick] (go)', 'ns'],
      ['cpu.keccak.chunk-hash [quick] (go) instructions', 'instructions/iter'],
    ]);
    const hash = records[1]!.cases[0]!.instructions!;
    expect(benches[3]!.value).toBe(hash.median);
    expect(benches[3]!.extra).toBe(
      `samples: ${hash.samples.join(',')}\nper-op: ${hash.per_op}\nper-byte: ${hash.per_byte}\ncounter: callgrind valgrind-3.22.0`,
    );
  });

  it('round trip: records -> data.js -> records -> data.js is equal, counts and counter included', () => {
    const data = exportGabData(records);
    const text = renderGabDataJs(data);
    const { records: back, skipped } = importGab('data.js', text);
    expect(skipped).toEqual([]);
    expect(back).toHaveLength(records.length);
    for (const r of back) {
      const orig = records.find((o) => o.commit.sha === r.commit.sha && o.runner === r.runner)!;
      expect(r.counter).toEqual(COUNTER);
      const counted = (rs: typeof r.cases) =>
        rs
          .filter((c) => c.status === 'ok')
          .map((c) => [c.id, c.label, c.instructions])
          .sort();
      expect(counted(r.cases)).toEqual(counted(orig.cases));
    }
    // And back out again: the same data.js, byte for byte.
    expect(renderGabDataJs(exportGabData(back))).toBe(text);
    // Stored and read back, the imported records keep them.
    for (const r of back) expect(parseRecord('runs/r.json', serializeRecord(r))).toEqual(r);
  });
});

describe('count steps in the derived series', () => {
  const STEP = 11;
  const seriesOf = (records: ReturnType<typeof countHistory>, caseId: string) => {
    const files = derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] });
    return {
      index: JSON.parse(files.get('index.json')!),
      series: JSON.parse(files.get(`series/${caseId}.json`)!).series as Array<{ runner: string; points: SeriesPoint[] }>,
    };
  };
  const marked = (points: SeriesPoint[]) => points.flatMap((p, i) => (p.count_step ? [i] : []));

  it('a 1% step injected at one commit of 20 is marked there, with the change and the commit range, and nowhere else; wall noise of ±15% marks nothing', () => {
    const records = countHistory({ commits: 20, noise: 0.15, counts: (_r, i) => (i >= STEP ? 1.01 : 1) });
    const { series, index } = seriesOf(records, 'cpu.keccak.chunk-hash');
    for (const s of series) {
      expect(s.points).toHaveLength(20);
      expect(marked(s.points)).toEqual([STEP]);
      const step = s.points[STEP]!.count_step!;
      expect(step.change).toBeCloseTo(0.01, 4);
      expect(step).toMatchObject({ since: s.points[STEP - 1]!.sha, spread: DEFAULT_COUNT_SPREAD, spread_from: 'default' });
      expect(step.cause).toBeUndefined();
    }
    // ecdsa's counts moved too (every CPU case got the factor); the index carries the latest counts.
    const hash = index.cases.find((c: { id: string }) => c.id === 'cpu.keccak.chunk-hash');
    const go = hash.series.find((s: { runner: string }) => s.runner === 'go').latest.main;
    expect(go.instructions).toBe(series.find((s) => s.runner === 'go')!.points[19]!.instructions);
    expect(go.count_change).toBe(0);
    expect(go.count_trend).toHaveLength(20);
    // The scoreboard on counts: every runner counted both cases in every run.
    expect(index.scoreboard_counts).toHaveLength(20);
  });

  it('unchanged code: no marks at all', () => {
    const { series } = seriesOf(countHistory({ commits: 20, noise: 0.15 }), 'cpu.ecdsa.sign');
    for (const s of series) expect(marked(s.points)).toEqual([]);
  });

  it('a Go version change at one commit is marked as a toolchain change, with the counts it moved, not as a client change', () => {
    const records = countHistory({
      commits: 20,
      runtime: (r, i) => (r === 'go' && i >= 6 ? 'go1.23.4 linux/amd64' : RUNTIMES[r]),
      counts: (r, i) => (r === 'go' && i >= 6 ? 0.997 : 1),
    });
    const { series } = seriesOf(records, 'cpu.keccak.chunk-hash');
    const go = series.find((s) => s.runner === 'go')!;
    expect(marked(go.points)).toEqual([6]);
    expect(go.points[6]!.count_step).toMatchObject({
      cause: { kind: 'toolchain', from: 'go1.22.5 linux/amd64; callgrind valgrind-3.22.0', to: 'go1.23.4 linux/amd64; callgrind valgrind-3.22.0' },
    });
    expect(go.points[6]!.count_step!.change).toBeCloseTo(-0.003, 4);
    // The client's version did not change: the site's client-version mark stays off.
    expect(new Set(go.points.map((p) => p.client_version)).size).toBe(1);
    for (const s of series.filter((x) => x.runner !== 'go')) expect(marked(s.points)).toEqual([]);
  });

  it('holds a change against the spread a record stored: below it no mark, above it a mark', () => {
    const withSpread = (records: ReturnType<typeof countHistory>, spread: number) =>
      records.map((r) => ({ ...r, cases: r.cases.map((c) => (c.instructions ? { ...c, instructions: { ...c.instructions, aa_spread: spread } } : c)) }));
    const records = countHistory({ commits: 6, runners: ['rs'], counts: (_r, i) => (i >= 3 ? 1.002 : 1) });
    expect(marked(seriesOf(withSpread(records, 0.005), 'cpu.keccak.chunk-hash').series[0]!.points)).toEqual([]);
    const at = seriesOf(withSpread(records, 0.001), 'cpu.keccak.chunk-hash').series[0]!.points;
    expect(marked(at)).toEqual([3]);
    expect(at[3]!.count_step).toMatchObject({ spread: 0.001, spread_from: 'record' });
  });
});
