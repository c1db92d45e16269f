// The trend site's pure parts, without a browser: permalinks, the figure per basis, URL checks.
import { describe, expect, it } from 'vitest';
import type { IndexCase, SeriesPoint } from '../../src/history/schema.js';
import { DataError, resolveDataPath } from '../../pages/src/data.js';
import { safeHttpUrl } from '../../pages/src/dom.js';
import {
  axisTitle,
  basisOf,
  changeDirection,
  changeTitle,
  exportUnit,
  exportValue,
  formatValue,
  metricsOf,
  pointValue,
  timeChangeWords,
  valueOf,
} from '../../pages/src/metric.js';
import type { CaseSeriesFile } from '../../src/history/schema.js';
import { formatHash, parseHash } from '../../pages/src/permalink.js';

describe('permalink', () => {
  it('round-trips case, branch, log and zoom range through URLSearchParams', () => {
    const s = { view: 'case' as const, case: 'cpu.bmt.file-root', branch: 'feat/a&b=c#d', log: true, from: Date.UTC(2025, 0, 2), to: Date.UTC(2025, 1, 3) };
    const hash = formatHash(s);
    expect(hash).toBe('#view=case&case=cpu.bmt.file-root&branch=feat%2Fa%26b%3Dc%23d&log=1&from=2025-01-02T00%3A00%3A00.000Z&to=2025-02-03T00%3A00%3A00.000Z');
    expect(parseHash(hash)).toEqual(s);
  });
  it('falls back to the overview and drops nonsense ranges', () => {
    expect(parseHash('')).toEqual({ view: 'overview', log: false });
    expect(parseHash('#view=case')).toEqual({ view: 'overview', log: false });
    expect(parseHash('#view=case&case=x&from=zzz&to=2025-01-01')).toEqual({ view: 'case', case: 'x', log: false });
    expect(parseHash('#view=case&case=x&from=2025-02-01&to=2025-01-01')).toEqual({ view: 'case', case: 'x', log: false });
    expect(formatHash({ view: 'overview', branch: 'main', log: true, from: 1, to: 2 })).toBe('#branch=main');
  });
  it('keeps a charted metric of the case view, and only there', () => {
    const s = { view: 'case' as const, case: 'cpu.keccak.chunk-hash', log: false, metric: 'B/op' };
    expect(formatHash(s)).toBe('#view=case&case=cpu.keccak.chunk-hash&metric=B%2Fop');
    expect(parseHash(formatHash(s))).toEqual(s);
    expect(parseHash('#metric=B%2Fop')).toEqual({ view: 'overview', log: false });
  });
});

describe('figures', () => {
  const latest = (work: { ops?: number; bytes?: number }) => ({
    main: { median_ns: 1e6, sha: 'a', timestamp: '2025-01-01T00:00:00Z', change: 0.1, trend: [1e6], ...work },
  });
  const kase = (work: { ops?: number; bytes?: number }): IndexCase => ({
    id: 'c',
    kind: 'cpu',
    group: 'g',
    doc: '',
    file: 'series/c.json',
    series: [{ runner: 'js', label: 'l', points: 1, latest: latest(work) }],
  });

  it('picks MB/s when the case declares bytes, per-op time for ops, else time per iteration', () => {
    expect(basisOf(kase({ ops: 10, bytes: 4096 }))).toBe('bytes');
    expect(basisOf(kase({ ops: 10 }))).toBe('ops');
    expect(basisOf(kase({}))).toBe('iteration');
    expect(formatValue('bytes', valueOf('bytes', 1e6, { bytes: 66_100 }))).toBe('66.1 MB/s');
    expect(exportValue('bytes', valueOf('bytes', 1e6, { bytes: 66_100 })!)).toBeCloseTo(66.1, 10);
    expect(formatValue('ops', valueOf('ops', 59e6, { ops: 1000 }))).toBe('59.0 µs/op');
    expect(formatValue('iteration', valueOf('iteration', 3.1e6, {}))).toBe('3.10 ms');
    expect(valueOf('bytes', 1e6, {})).toBeNull();
    expect(pointValue('ops', { median_ns: 2e6, ops: 4 } as SeriesPoint)).toBe(5e5);
  });

  it('writes the index change (time per unit, latest / previous - 1) in the figure direction', () => {
    // The report's words, one for every unit shown: more time per unit of work is slower, and worse.
    expect(timeChangeWords(0.1)).toBe('10.0% slower');
    expect(timeChangeWords(-0.05)).toBe('5.0% faster');
    expect(timeChangeWords(null)).toBe('—');
    expect(timeChangeWords(0.0001)).toBe('no change');
    expect(changeDirection(0.1, timeChangeWords(0.1))).toBe('worse');
    expect(changeDirection(-0.05, timeChangeWords(-0.05))).toBe('better');
    expect(changeDirection(0.0001, 'no change')).toBe('same');
    expect(changeDirection(0.0012, '+0.12%')).toBe('worse');
    expect(changeDirection(0, '+0.00%')).toBe('same');
    expect(changeTitle('worse')).toMatch(/^Change against the previous run on this branch \(worse\): /);
    // The report's op names: µs/lookup, not µs/op.
    expect(formatValue('ops', 1500, 'lookup')).toBe('1.50 µs/lookup');
  });
});

describe('metric figures', () => {
  const point = (metrics?: Record<string, number>) => ({ median_ns: 1e6, ...(metrics ? { metrics } : {}) }) as SeriesPoint;

  it('lists the units the points carry and charts them as recorded', () => {
    const file = {
      schema: 'bee-bench/history-series@1',
      case: 'c',
      series: [
        { runner: 'go', label: 'l', points: [point(), point({ 'B/op': 4096, 'allocs/op': 2 })] },
        { runner: 'rs', label: 'l', points: [point({ 'B/iter': 1 })] },
      ],
    } as CaseSeriesFile;
    expect(metricsOf(file)).toEqual(['B/iter', 'B/op', 'allocs/op']);
    expect(pointValue({ metric: 'B/op' }, point({ 'B/op': 4096 }))).toBe(4096);
    // A point from before allocation runs has no value: no point, not a zero.
    expect(pointValue({ metric: 'B/op' }, point())).toBeNull();
  });

  it('writes heap figures in bytes and counts, per op or per iteration, lower being better', () => {
    expect(formatValue({ metric: 'B/op' }, 4096)).toBe('4.00 KiB/op');
    expect(formatValue({ metric: 'allocs/op' }, 2)).toBe('2.00 allocs/op');
    expect(axisTitle({ metric: 'B/op' })).toBe('Heap bytes per op (lower is better)');
    expect(axisTitle({ metric: 'allocs/iter' })).toBe('Heap allocations per iteration (lower is better)');
    // An imported unit claims no direction.
    expect(axisTitle({ metric: 'MB/s' })).toBe('MB/s');
    expect(exportUnit({ metric: 'B/op' })).toBe('B/op');
    expect(exportValue({ metric: 'B/op' }, 4096)).toBe(4096);
  });
});

describe('URLs', () => {
  it('links only http(s) URLs', () => {
    expect(safeHttpUrl('https://github.com/a/b/commit/1')).toBe('https://github.com/a/b/commit/1');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>', '//evil.example/x', '/relative', '', undefined])
      expect(safeHttpUrl(bad)).toBeNull();
  });
  it('loads data only from plain relative paths inside the history folder', () => {
    const base = new URL('https://example.github.io/repo/bench/');
    expect(resolveDataPath('series/cpu.keccak.bulk.json', base).href).toBe('https://example.github.io/repo/bench/series/cpu.keccak.bulk.json');
    for (const bad of [
      '../secret.json',
      'series/../../x.json',
      '/index.json',
      'https://evil.example/x.json',
      '//evil.example/x.json',
      'series/a b.json',
      'a/./b.json',
    ]) {
      expect(() => resolveDataPath(bad, base)).toThrow(DataError);
    }
  });
});
