// Instruction counts in the history: records @2 carry each counted case's count per iteration
// (median, per op, per byte) and the counter; records @1 (the fixture was written by bee-bench
// before counts) stay readable; a GAB export carries the counts as separate benches, and import
// gives them back exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derive } from '../../src/history/derive.js';
import { exportGab, exportGabData, importGab, renderGabDataJs } from '../../src/history/gab.js';
import { parseRecord, recordPath, serializeRecord } from '../../src/history/record.js';
import { RECORD_SCHEMA_ID, RECORD_SCHEMA_V1 } from '../../src/history/schema.js';
import { median } from '../../src/stats/index.js';
import { COUNTER, countedRecord, countedResult } from './helpers.js';

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
      ['cpu.ecdsa.sign-1000 [quick] (go)', 'ns'],
      ['cpu.ecdsa.sign-1000 [quick] (go) instructions', 'instructions/iter'],
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
