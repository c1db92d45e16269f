// Tests of the derived history files (index, series, shift markers) and their stable JSON.
import { describe, expect, it } from 'vitest';
import { catalogFromSpec, derive, deriveHistory, INDEX_SAMPLES, seriesFile } from '../../src/history/derive.js';
import { recordPath, type LoadedRecord } from '../../src/history/record.js';
import type { CaseSeriesFile, HistoryIndex, HistoryRecord } from '../../src/history/schema.js';
import { stableJson, stableJsonPretty } from '../../src/history/json.js';
import { detectShifts } from '../../src/history/shift.js';
import { geomean } from '../../src/stats/index.js';
import { realSpec } from '../report/fixtures.js';
import { smallRecord } from './helpers.js';

const loaded = (records: HistoryRecord[]): LoadedRecord[] => records.map((record) => ({ path: recordPath(record), record }));

function history(n: number, branches = ['main']): LoadedRecord[] {
  const out: HistoryRecord[] = [];
  for (let i = 0; i < n; i++) for (const runner of ['js', 'go', 'rs'] as const) out.push(smallRecord(runner, i, branches[i % branches.length]));
  return loaded(out);
}

const seriesOf = (files: Map<string, string>, id: string): CaseSeriesFile => JSON.parse(files.get(seriesFile(id))!);
const indexOf = (files: Map<string, string>): HistoryIndex => JSON.parse(files.get('index.json')!);

describe('stableJson', () => {
  it('sorts keys at every level, keeps array order, drops undefined members', () => {
    expect(stableJson({ b: 1, a: { d: [3, 1], c: undefined, b: null } })).toBe('{"a":{"b":null,"d":[3,1]},"b":1}\n');
    expect(stableJsonPretty({ b: [1, 2], a: [{ y: 1, x: 2 }] })).toBe('{\n  "a": [\n    {\n      "x": 2,\n      "y": 1\n    }\n  ],\n  "b": [1, 2]\n}\n');
  });
});

describe('derive', () => {
  it('is deterministic: input order does not change a byte', () => {
    const recs = history(8, ['main', 'dev']);
    const a = derive({ records: recs, invalid: [] });
    const b = derive({ records: [...recs].reverse(), invalid: [] });
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [k, v] of a) expect(b.get(k)).toBe(v);
    expect([...a.keys()]).toEqual(['index.json', 'series/cpu.ecdsa.sign.json', 'series/cpu.keccak.chunk-hash.json']);
  });

  it('builds series per (case, label, runner), points in commit-time order, with record identity', () => {
    const files = derive({ records: history(4), invalid: [] });
    const s = seriesOf(files, 'cpu.keccak.chunk-hash');
    expect(s.schema).toBe('bee-bench/history-series@1');
    expect(s.series.map((x) => `${x.label}/${x.runner}`)).toEqual(['quick/js', 'quick/go', 'quick/rs']);
    const js = s.series[0]!;
    expect(js.points.map((p) => p.run_id)).toEqual(['1000', '1001', '1002', '1003']);
    expect(js.points[0]).toMatchObject({ branch: 'main', message: 'commit 0', author: 'Ada', ops: 200, bytes: 819200, n: 7, client_version: '12.1.0' });
    expect(js.points[0]!.record).toMatch(/^runs\/2026\/11\/20261120T000500Z-0101010-js-1000\.json$/);
    const idx = indexOf(files);
    expect(idx.generated_from).toBe(12);
    expect(idx.runners).toEqual(['js', 'go', 'rs']);
    expect(idx.cases.map((c) => c.id)).toEqual(['cpu.ecdsa.sign', 'cpu.keccak.chunk-hash']);
    const latest = idx.cases[1]!.series[0]!.latest['main']!;
    expect(latest.sha).toBe(js.points[3]!.sha);
    expect(latest.trend).toEqual(js.points.map((p) => p.median_ns));
    expect(latest.change).toBeCloseTo(js.points[3]!.median_ns / js.points[2]!.median_ns - 1, 12);
  });

  it('marks the same shifts on kept points whatever the retention', () => {
    const recs: HistoryRecord[] = [];
    for (let i = 0; i < 40; i++) recs.push(smallRecord('rs', i, 'main', i >= 22 ? 1.4 : 1));
    const marks = (maxRuns: number) =>
      seriesOf(derive({ records: loaded(recs), invalid: [] }, { maxRuns }), 'cpu.ecdsa.sign')
        .series[0]!.points.filter((p) => p.shift)
        .map((p) => [p.run_id, p.shift]);
    expect(marks(1000).map((m) => m[0])).toEqual(['1022']);
    expect(marks(18)).toEqual(marks(1000));
    expect(marks(17)).toEqual([]);
  });

  it('retention keeps the latest maxRuns points per branch and series, and says so in the index', () => {
    const recs = history(9, ['main', 'main', 'dev']); // main: 0 1 3 4 6 7, dev: 2 5 8
    const files = derive({ records: recs, invalid: [] }, { maxRuns: 2 });
    const js = seriesOf(files, 'cpu.ecdsa.sign').series[0]!;
    expect(js.points.map((p) => `${p.branch}:${p.run_id}`)).toEqual(['dev:1005', 'main:1006', 'main:1007', 'dev:1008']);
    const idx = indexOf(files);
    expect(idx.generated_from).toBe(27);
    expect(idx.cases[0]!.series[0]!.points).toBe(4);
    expect(idx.branches).toEqual(['dev', 'main']);
    expect(idx.scoreboard.map((e) => e.run_id)).toEqual(['1005', '1006', '1007', '1008']);
  });

  it('scores each run on time per work unit, only rows with two or more ok runners', () => {
    const recs = history(1);
    recs.find((r) => r.record.runner === 'rs')!.record.cases[1]!.status = 'failed';
    const [entry] = indexOf(derive({ records: recs, invalid: [] })).scoreboard;
    const cost = (runner: string, k: number) => {
      const c = recs.find((r) => r.record.runner === runner)!.record.cases[k]!;
      return c.median_ns! / (k === 0 ? c.work.bytes! : c.work.ops!);
    };
    // chunk-hash: per byte (all have bytes); sign: per op, rs failed so js vs go only.
    const hash = { js: cost('js', 0), go: cost('go', 0), rs: cost('rs', 0) };
    const hashBest = Math.min(hash.js, hash.go, hash.rs);
    const sign = { js: cost('js', 1), go: cost('go', 1) };
    const signBest = Math.min(sign.js, sign.go);
    expect(entry).toMatchObject({ run_id: '1000', branch: 'main', rows: 2, wins: { rs: 1, go: 1, js: 0 } });
    expect(entry!.geomean.js).toBeCloseTo(geomean([hash.js / hashBest, sign.js / signBest]), 12);
    expect(entry!.geomean.rs).toBeCloseTo(1, 12);
  });

  it('leaves the harness group out of the scoreboard, as the report does (one implementation)', () => {
    const catalog = catalogFromSpec(realSpec().spec);
    const noop = (record: HistoryRecord, ns: number): HistoryRecord => ({
      ...record,
      cases: [...record.cases, { ...record.cases[1]!, id: 'cpu.harness.noop', label: 'empty', param: { label: 'empty' }, median_ns: ns, work: { ops: 1 } }],
    });
    const plain = history(1);
    const withNoop = plain.map((r, i) => ({ ...r, record: noop(r.record, [1000, 100, 100][i]!) }));
    const board = (recs: LoadedRecord[]) => indexOf(derive({ records: recs, invalid: [] }, { catalog })).scoreboard;
    expect(board(withNoop)).toEqual(board(plain));
    const noopOnly = plain.map((r, i) => ({
      ...r,
      record: { ...noop(r.record, [1000, 100, 100][i]!), cases: noop(r.record, [1000, 100, 100][i]!).cases.slice(-1) },
    }));
    expect(board(noopOnly)).toEqual([]);
  });

  it('branch retention: the default branch and the most recently active others; records are all counted', () => {
    // main: runs 0-9; feature branches f10..f39 get one run each, later and later.
    const recs: HistoryRecord[] = [];
    for (let i = 0; i < 40; i++) for (const runner of ['js', 'go'] as const) recs.push(smallRecord(runner, i, i < 10 ? 'main' : `f${i}`));
    const idx = indexOf(derive({ records: loaded(recs), invalid: [] }, { branches: { maxBranches: 5 } }));
    expect(idx.default_branch).toBe('main');
    expect(idx.branches).toEqual(['f35', 'f36', 'f37', 'f38', 'f39', 'main']);
    expect(idx.expired_branches).toBe(25);
    expect(idx.generated_from).toBe(80);
    expect(Object.keys(idx.cases[0]!.series[0]!.latest).sort()).toEqual(idx.branches);
    expect(new Set(idx.scoreboard.map((e) => e.branch))).toEqual(new Set(idx.branches));
    const series = seriesOf(derive({ records: loaded(recs), invalid: [] }, { branches: { maxBranches: 5 } }), 'cpu.ecdsa.sign');
    expect(new Set(series.series.flatMap((s) => s.points.map((p) => p.branch)))).toEqual(new Set(idx.branches));
    // Inactive for longer than activeDays before the newest record: expired even when there is room.
    const old = indexOf(derive({ records: loaded(recs), invalid: [] }, { branches: { maxBranches: 100, activeDays: 1 } }));
    expect(old.branches).toEqual([
      'f15',
      'f16',
      'f17',
      'f18',
      'f19',
      'f20',
      'f21',
      'f22',
      'f23',
      'f24',
      'f25',
      'f26',
      'f27',
      'f28',
      'f29',
      'f30',
      'f31',
      'f32',
      'f33',
      'f34',
      'f35',
      'f36',
      'f37',
      'f38',
      'f39',
      'main',
    ]);
    // An explicit default branch is kept whatever its age.
    expect(indexOf(derive({ records: loaded(recs), invalid: [] }, { branches: { maxBranches: 1, default: 'f10' } })).branches).toEqual(['f10', 'f39']);
  });

  it('uses the catalog for kind, group and doc; groups follow the catalog order', () => {
    const { spec } = realSpec();
    const idx = indexOf(derive({ records: history(2), invalid: [] }, { catalog: catalogFromSpec(spec) }));
    expect(idx.cases[1]).toMatchObject({ id: 'cpu.keccak.chunk-hash', group: 'cpu', kind: 'cpu', file: 'series/cpu.keccak.chunk-hash.json' });
    expect(idx.cases[1]!.doc.length).toBeGreaterThan(0);
    expect(idx.groups).toEqual([{ id: 'cpu', title: 'CPU (no network)' }]);
  });

  it('lists invalid records in the index and nowhere else', () => {
    const invalid = [{ file: 'runs/2026/11/z.json', problem: 'invalid JSON at line 1, column 2' }];
    const d = deriveHistory({ records: history(1), invalid });
    expect(d.index.invalid).toEqual(invalid);
    expect(JSON.stringify(d.series)).not.toContain('z.json');
  });

  it('gives unsafe case ids a safe, distinct series file', () => {
    expect(seriesFile('cpu.a-b.c_1')).toBe('series/cpu.a-b.c_1.json');
    expect(seriesFile('../x')).toMatch(/^series\/_._x~[0-9a-f]{16}\.json$/);
    expect(seriesFile('a/b')).not.toBe(seriesFile('a_b'));
  });

  it('never maps two case ids to one series file, case-insensitively either', () => {
    // A plain id that imitates another id's hashed name, ids equal but for case, ids equal once sanitized.
    const hashedName = seriesFile('a/b').slice('series/'.length, -'.json'.length);
    const ids = [
      'a_b',
      'a/b',
      'a b',
      'a:b',
      'A_b',
      'a_B',
      'A/B',
      hashedName,
      hashedName.toUpperCase(),
      '.',
      '..',
      '...',
      'x'.repeat(300),
      `${'x'.repeat(300)}y`,
    ];
    const files = ids.map((id) => seriesFile(id).toLowerCase());
    expect(new Set(files).size).toBe(ids.length);
    for (const f of files) expect(f).toMatch(/^series\/[a-z0-9._~-]+\.json$/);
    expect(files.every((f) => !f.includes('/..') && f.length < 150)).toBe(true);
  });
});

describe('shift markers', () => {
  const noisy = (n: number, level: number, seed: number) => Array.from({ length: n }, (_, i) => level * (1 + 0.01 * Math.sin(seed + i * 1.7)));

  it('marks exactly the first point of a step', () => {
    const values = [...noisy(10, 100, 1), ...noisy(10, 120, 2)];
    const shifts = detectShifts(values);
    expect(shifts).toHaveLength(1);
    expect(shifts[0]!.index).toBe(10);
    expect(shifts[0]!.ratio).toBeGreaterThan(1.15);
    expect(shifts[0]!.p).toBeLessThan(0.01);
  });

  it('marks the first point after the step when neighbouring candidates reach the same p', () => {
    // Index 5 (102) and 6 (125) both split the windows perfectly (exact p = 2/252 each); the step is at 6.
    const shifts = detectShifts([100, 101, 99, 100.5, 98, 102, 125, 126, 124, 125.5, 127, 126.5]);
    expect(shifts.map((s) => s.index)).toEqual([6]);
    expect(shifts[0]!.p).toBeCloseTo(2 / 252, 12);
  });

  it('marks a step whose windows hold tied values (exact permutation p, not a normal approximation)', () => {
    const shifts = detectShifts([100, 101, 99, 100, 98, 97, 125, 126, 124, 125, 127, 126.5]);
    expect(shifts.map((s) => s.index)).toEqual([6]);
    expect(shifts[0]!.p).toBeCloseTo(2 / 252, 12);
    expect(shifts[0]!.ratio).toBeGreaterThan(1.2);
  });

  it('marks nothing on noise, on a step below the threshold, or on too short a series', () => {
    expect(detectShifts(noisy(40, 100, 3))).toEqual([]);
    expect(detectShifts([...noisy(10, 100, 1), ...noisy(10, 103, 2)])).toEqual([]);
    expect(detectShifts([...noisy(4, 100, 1), ...noisy(5, 150, 2)])).toEqual([]);
  });

  it('is local: marking from an offset equals the full pass restricted to it (what retention relies on)', () => {
    let seed = 7;
    const u = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const values = Array.from({ length: 300 }, (_, i) => 100 * (1 + 0.15 * Math.floor(i / 37)) * (1 + 0.04 * (u() - 0.5)));
    const full = detectShifts(values);
    expect(full.length).toBeGreaterThan(3);
    for (const from of [0, 1, 5, 36, 37, 100, 250, 299]) {
      const margin = 2 * 5 - 1;
      const start = Math.max(0, from - margin);
      const local = detectShifts(values.slice(start), undefined, from - start).map((s) => ({ ...s, index: s.index + start }));
      expect(local).toEqual(full.filter((s) => s.index >= from));
    }
  });

  it('lands in the series file on the point that starts the shift (same branch only)', () => {
    const recs: HistoryRecord[] = [];
    for (let i = 0; i < 12; i++) recs.push(smallRecord('rs', i, 'main', i >= 6 ? 1.5 : 1));
    for (let i = 12; i < 16; i++) recs.push(smallRecord('rs', i, 'dev', 3));
    const s = seriesOf(derive({ records: loaded(recs), invalid: [] }), 'cpu.ecdsa.sign').series[0]!;
    const marked = s.points.filter((p) => p.shift);
    expect(marked.map((p) => p.run_id)).toEqual(['1006']);
    expect(marked[0]!.shift!.ratio).toBeCloseTo(1.5, 1);
  });
});

describe('the index keeps a bounded set of the latest iterations', () => {
  it('a latest point of 1000 iterations keeps 64 order statistics, its fastest and slowest among them', () => {
    const recs = history(1);
    const record = recs[0]!.record;
    const many = Array.from({ length: 1000 }, (_, k) => 1_000_000 + ((k * 7919) % 1000) * 10);
    record.cases[0] = { ...record.cases[0]!, samples_ns: many };
    const idx = indexOf(derive({ records: recs, invalid: [] }));
    const latest = idx.cases.flatMap((c) => c.series).find((s) => s.runner === record.runner && s.latest['main']?.samples_ns?.length === INDEX_SAMPLES);
    const kept = latest!.latest['main']!.samples_ns!;
    expect(kept).toHaveLength(64);
    expect(kept[0]).toBe(Math.min(...many));
    expect(kept[63]).toBe(Math.max(...many));
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    // A run of a few iterations keeps them all.
    expect(idx.cases.flatMap((c) => c.series).some((s) => (s.latest['main']?.samples_ns?.length ?? 0) > 0 && s.latest['main']!.samples_ns!.length < 64)).toBe(
      true,
    );
  });
});
