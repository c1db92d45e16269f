// Tests of exporting to and importing from github-action-benchmark's data.js, on real repositories'
// files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { derive } from '../../src/history/derive.js';
import { exportGab, exportGabData, gabEntry, importGab, parseGab, renderGabDataJs, type GabData } from '../../src/history/gab.js';
import { parseRecord, recordPath, serializeRecord, toRecord } from '../../src/history/record.js';
import { writeHistory } from '../../src/history/store.js';
import { InputError } from '../../src/spec/errors.js';
import { bareRemote, context, removeAll, smallRecord, smallResult, tempDir, tip } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('exportGab', () => {
  it('turns a Result or a record into customSmallerIsBetter benches (median ns, ± MAD, extra)', () => {
    const res = smallResult('go', 1);
    const fromResult = exportGab(res);
    const fromRecord = exportGab(toRecord(res, context(1)));
    expect(fromRecord).toEqual(fromResult);
    expect(fromResult.map((b) => b.name)).toEqual(['cpu.ecdsa.sign [quick] (go)', 'cpu.keccak.chunk-hash [quick] (go)']);
    const rec = toRecord(res, context(1));
    const hash = rec.cases[0]!;
    expect(fromResult[1]).toEqual({
      name: 'cpu.keccak.chunk-hash [quick] (go)',
      value: hash.median_ns,
      unit: 'ns',
      range: `± ${hash.mad_ns}`,
      extra: `n: 7\nclient: github.com/ethswarm-tools/bee-go 1.1.0\nops: 2000\nbytes: 8192000\nper-op: ${Number((hash.median_ns! / 2000).toPrecision(6))} ns`,
    });
  });
});

describe('importGab', () => {
  it('round-trips bee-bench history through a GAB data.js', () => {
    const records = [0, 1, 2].flatMap((i) => (['js', 'go', 'rs'] as const).map((r) => smallRecord(r, i)));
    // GAB keeps one entry per run and suite; our export puts all runners of a run in one entry.
    const entries = [0, 1, 2].map((i) => {
      const run = records.filter((r) => r.run.id === String(1000 + i));
      const e = gabEntry(run[0]!);
      e.benches = run.flatMap((r) => exportGab(r));
      return e;
    });
    const data: GabData = { lastUpdate: 1, repoUrl: 'https://github.com/x/y', entries: { 'bee-bench': entries } };
    const { records: back, skipped } = importGab('data.js', renderGabDataJs(data));
    expect(skipped).toEqual([]);
    expect(back).toHaveLength(9);
    for (const r of back) {
      const orig = records.find((o) => o.commit.sha === r.commit.sha && o.runner === r.runner)!;
      expect(r.commit.sha).toBe(orig.commit.sha);
      expect(r.commit.timestamp).toBe(orig.commit.timestamp);
      expect(r.client.version).toBe(orig.client.version);
      expect(r.client.name).toBe(orig.client.name);
      expect(r.event).toBe('import');
      const ok = orig.cases.filter((c) => c.status === 'ok').sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(r.cases.map((c) => [c.id, c.label, c.median_ns, c.mad_ns, c.n, c.work])).toEqual(
        ok.map((c) => [c.id, c.label, c.median_ns, c.mad_ns, c.n, c.work]),
      );
    }
    // The series medians a site shows are the same either way.
    const medians = (rs: typeof records) => {
      const files = derive({ records: rs.map((record) => ({ path: recordPath(record), record })), invalid: [] });
      return JSON.parse(files.get('series/cpu.keccak.chunk-hash.json')!).series.map(
        (s: { runner: string; points: Array<{ median_ns: number; sha: string }> }) => [s.runner, s.points.map((p) => [p.sha, p.median_ns])],
      );
    };
    expect(medians(back)).toEqual(medians(records));
    // And exporting the imported records gives the same benches back.
    expect(back.filter((r) => r.run.id === back[0]!.run.id).flatMap((r) => exportGab(r))).toEqual(entries[0]!.benches);
  });

  it('imports foreign benches as gab.<slug> under the given runner, converting units; non-times are stored uncharted and listed', () => {
    const json = JSON.stringify({
      lastUpdate: 1,
      repoUrl: 'r',
      entries: {
        'Benchmark.js': [
          {
            commit: { id: 'ABCDEF0123456789abcdef0123456789abcdef01', message: 'm', timestamp: '2024-01-02T03:04:05+09:00', url: 'u', author: { name: 'Bo' } },
            date: 1704132245000,
            tool: 'benchmarkjs',
            benches: [
              { name: 'Upload small file #1', value: 2000, unit: 'ops/sec', range: '±1.50%' },
              { name: 'parse', value: 3.5, unit: 'ms', extra: 'n: 12' },
              { name: 'throughput', value: 80, unit: 'MB/s' },
            ],
          },
        ],
      },
    });
    const { records, skipped } = importGab('hist.json', json, { runner: 'rs', branch: 'master' });
    expect(records).toHaveLength(1);
    const r = records[0]!;
    expect(r).toMatchObject({
      runner: 'rs',
      branch: 'master',
      commit: { sha: 'abcdef0123456789abcdef0123456789abcdef01', author: 'Bo' },
      run: { id: 'gab-benchmark-js-1704132245000' },
    });
    expect(r.cases.map((c) => [c.id, c.label, c.status, c.median_ns, c.n])).toEqual([
      ['gab.upload-small-file-1', '', 'ok', 500_000, 1],
      ['gab.parse', '', 'ok', 3_500_000, 12],
      ['gab.throughput', '', 'skipped', null, 0],
    ]);
    expect(r.cases[0]!.mad_ns).toBeCloseTo(7500, 6);
    expect(r.cases[2]!.gab).toEqual({ name: 'throughput', value: 80, unit: 'MB/s' });
    expect(skipped).toEqual([{ where: 'entries["Benchmark.js"][0].benches[2]', name: 'throughput', reason: 'unit "MB/s" is not a time or a rate' }]);
    expect(recordPath(r)).toBe('runs/2024/01/20240101T180405Z-abcdef0-rs-gab-benchmark-js-1704132245000.json');
  });

  it('names the file and line/column of bad JSON in data.js, and nothing is written', async () => {
    const text = 'window.BENCHMARK_DATA = {\n  "lastUpdate": 1,\n  "entries": {,}\n}';
    let err: unknown;
    try {
      parseGab('gh-pages/dev/bench/data.js', text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^gh-pages\/dev\/bench\/data\.js: invalid data\.js at line 3, column 15: /);
    expect(() => parseGab('plain.json', '{"entries": {"a": [1]}}')).toThrow(/^plain\.json: entries\.a\[0\]: /);
    expect(() => parseGab('cut.json', '{"entries": ')).toThrow(/^cut\.json: invalid JSON at/);

    const remote = await bareRemote(dirs);
    await writeHistory([smallRecord('js', 0)], { remote, workdir: tempDir('work', dirs) });
    const before = await tip(remote);
    await expect(async () => writeHistory(importGab('data.js', text).records, { remote, workdir: tempDir('work', dirs) })).rejects.toThrow(
      /data\.js: invalid data\.js at line 3/,
    );
    expect(await tip(remote)).toBe(before);
  });
});

// Real data.js files from public repositories (fixtures/gab/README.md names each source).
const FIXTURES = join(import.meta.dirname, 'fixtures/gab');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const REAL: Array<{ file: string; tool: string; runner: string }> = [
  { file: 'agatedb-cargo.data.js', tool: 'cargo', runner: 'rs' },
  { file: 'mojito-go.data.js', tool: 'go', runner: 'go' },
  { file: 'socks-forwarder-go.data.js', tool: 'go', runner: 'go' },
  { file: 'dats-benchmarkjs.data.js', tool: 'benchmarkjs', runner: 'js' },
  { file: 'repomix-custom-smaller.data.js', tool: 'customSmallerIsBetter', runner: 'js' },
];

describe('github-action-benchmark data.js from real repositories', () => {
  it.each(REAL)('$file: every bench imported, under its original name and tool, and export gives the same entries back', ({ file, tool, runner }) => {
    const text = fixture(file);
    const original = parseGab(file, text);
    const benches = Object.values(original.entries)
      .flat()
      .flatMap((e) => e.benches);
    const { records, skipped, charted } = importGab(file, text);
    const cases = records.flatMap((r) => r.cases);
    expect(cases).toHaveLength(benches.length);
    expect(charted + skipped.length).toBe(benches.length);
    expect(charted).toBeGreaterThan(0);
    expect(cases.map((c) => c.gab!.name)).toEqual(benches.map((b) => b.name));
    expect(new Set(records.map((r) => r.runner))).toEqual(new Set([runner]));
    expect(new Set(records.map((r) => r.host.runtime))).toEqual(new Set([`github-action-benchmark ${tool}`]));
    for (const r of records) expect(r.source).toMatchObject({ format: 'github-action-benchmark', tool });
    // Records are stored as JSON: round-trip through their stored bytes, then back to GAB.
    const stored = records.map((r) => parseRecord(recordPath(r), serializeRecord(r)));
    const back = exportGabData(stored);
    expect(back.entries).toStrictEqual(original.entries);
    expect(back.repoUrl).toBe(original.repoUrl);
    expect(parseGab('back.js', renderGabDataJs(back)).entries).toStrictEqual(original.entries);
  });

  it("Go's old-style combined unit: the time from ns/op, B/op and allocs/op kept as metrics", () => {
    const { records, skipped } = importGab('mojito-go.data.js', fixture('mojito-go.data.js'));
    expect(skipped).toEqual([]);
    const first = records[0]!.cases[0]!;
    expect(first.gab).toEqual({
      name: 'Benchmark_Router_Handler',
      value: 260827,
      unit: 'ns/op\t   23762 B/op\t     176 allocs/op',
      extra: '4016 times\n2 procs',
    });
    expect(first).toMatchObject({ id: 'gab.benchmark-router-handler', status: 'ok', median_ns: 260827, metrics: { 'B/op': 23762, 'allocs/op': 176 } });
  });

  it('benches without a time are stored, exported back and listed with the reason', () => {
    const { skipped } = importGab('socks-forwarder-go.data.js', fixture('socks-forwarder-go.data.js'));
    expect(skipped.length).toBe(90);
    expect(skipped[0]).toEqual({
      where: 'entries["Benchmark"][0].benches[2]',
      name: 'BenchmarkMatchHostname/exact-match - B/op',
      reason: 'unit "B/op" is not a time or a rate',
    });
    expect(new Set(skipped.map((s) => s.reason))).toEqual(new Set(['unit "B/op" is not a time or a rate', 'unit "allocs/op" is not a time or a rate']));
  });
});

describe('imported points on the site', () => {
  it('carry the tool and the original bench name, so the site does not call Rust or Go data bee-js', () => {
    const { records } = importGab('agatedb-cargo.data.js', fixture('agatedb-cargo.data.js'));
    const files = derive({ records: records.map((record) => ({ path: recordPath(record), record })), invalid: [] });
    const name = records[0]!.cases[0]!.gab!.name;
    const series = JSON.parse(files.get(`series/${records[0]!.cases[0]!.id}.json`)!);
    expect(series.series[0].runner).toBe('rs');
    expect(series.series[0].points[0].imported).toBe(`github-action-benchmark cargo: ${name}`);
  });
});
