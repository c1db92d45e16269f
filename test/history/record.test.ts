// Tests of history records: made from a result, their path, parsed and written back.
import { describe, expect, it } from 'vitest';
import { compactTimestamp, parseRecord, recordPath, serializeRecord, toRecord, tryParseRecord } from '../../src/history/record.js';
import { RECORD_SCHEMA_ID } from '../../src/history/schema.js';
import { InputError } from '../../src/spec/errors.js';
import { madRaw, median } from '../../src/stats/index.js';
import { context, smallRecord, smallResult } from './helpers.js';

describe('toRecord', () => {
  it('summarizes every case with src/stats and keeps the raw samples', () => {
    const res = smallResult('go', 3);
    const rec = toRecord(res, context(3));
    expect(rec.schema).toBe(RECORD_SCHEMA_ID);
    expect(rec.runner).toBe('go');
    expect(rec.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    const src = res.cases[0]!;
    const c = rec.cases[0]!;
    expect(c.label).toBe('quick');
    expect(c.n).toBe(src.samples_ns.length);
    expect(c.median_ns).toBe(median(src.samples_ns));
    expect(c.mad_ns).toBe(madRaw(src.samples_ns));
    expect(c.min_ns).toBe(Math.min(...src.samples_ns));
    expect(c.max_ns).toBe(Math.max(...src.samples_ns));
    expect(c.samples_ns).toEqual(src.samples_ns);
    expect(c.work).toEqual(src.work);
    const skipped = rec.cases[2]!;
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'no Bee node given', n: 0, median_ns: null, mad_ns: null });
  });

  it('labels a param without label by its values', () => {
    const res = smallResult('rs', 1);
    res.cases[1]!.param = { count: 10, b: 'x' };
    expect(toRecord(res, context(1)).cases[1]!.label).toBe('b=x, count=10');
  });

  it('names a bad run context field by field', () => {
    const ctx = { ...context(1), branch: '', commit: { ...context(1).commit, sha: 'not-a-sha' } };
    expect(() => toRecord(smallResult('js', 1), ctx)).toThrow(/commit\.sha.*branch|branch.*commit\.sha/s);
  });
});

describe('recordPath', () => {
  it('is runs/YYYY/MM/<compact UTC start>-<sha7>-<runner>-<run id>.json', () => {
    const rec = smallRecord('js', 0);
    expect(recordPath(rec)).toBe(`runs/2026/11/20261120T000500Z-0101010-js-1000.json`);
  });

  it('converts offsets to UTC (month boundary included) and sanitizes the run id', () => {
    expect(compactTimestamp('2026-12-01T00:30:00.999+01:00')).toBe('20261130T233000Z');
    const rec = { ...smallRecord('rs', 0), started_at: '2026-12-01T00:30:00+01:00', run: { id: '12/../3 a' } };
    expect(recordPath(rec)).toBe('runs/2026/11/20261130T233000Z-0101010-rs-12_.._3_a.json');
  });
});

describe('parseRecord', () => {
  it('round-trips serializeRecord, and the bytes do not depend on key order', () => {
    const rec = smallRecord('js', 2);
    const text = serializeRecord(rec);
    expect(parseRecord('r.json', text)).toEqual(rec);
    const shuffled = Object.fromEntries(Object.entries(rec).reverse()) as typeof rec;
    expect(serializeRecord(shuffled)).toBe(text);
    expect(text).toContain('"samples_ns": [');
  });

  it('names the file and position of bad JSON', () => {
    const err = (() => {
      try {
        parseRecord('runs/2026/11/x.json', '{\n  "schema": "bee-bench/history-record@1",\n  oops\n}');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(String((err as Error).message)).toMatch(/^runs\/2026\/11\/x\.json: invalid JSON at line 3, column 3/);
  });

  it('names the field of a schema violation', () => {
    const rec = JSON.parse(serializeRecord(smallRecord('js', 2)));
    rec.cases[0].n = -1;
    delete rec.branch;
    const got = tryParseRecord('runs/a.json', JSON.stringify(rec));
    expect(got).toMatchObject({ file: 'runs/a.json' });
    expect('problem' in got && got.problem).toMatch(/branch: .*cases\[0\]\.n: /);
  });

  it('reports an unknown schema version as such', () => {
    const rec = { ...smallRecord('js', 2), schema: 'bee-bench/history-record@3' };
    expect(() => parseRecord('runs/b.json', JSON.stringify(rec))).toThrow(
      'runs/b.json: schema: unknown record version "bee-bench/history-record@3" (this bee-bench reads bee-bench/history-record@1 and bee-bench/history-record@2)',
    );
  });
});
