// Tests of report.md, report.html and report.csv.
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { CSV_COLUMNS, renderCsv } from '../../src/report/render/csv.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import type { Result } from '../../src/spec/schema.js';
import { parseCsv } from '../fixtures/csv.js';
import { HOSTILE, caseResult, realSpec, result, syntheticResult } from './fixtures.js';

const { spec, hash } = realSpec();
const flat = (m: number, n = 3) => Array.from({ length: n }, () => m);

/** Results where every user-controlled string is hostile. */
function hostileResults(): Result[] {
  return HOSTILE.map((h, i) =>
    result(
      (['js', 'go', 'rs'] as const)[i % 3]!,
      [
        caseResult({ id: 'cpu.identity.create', param: { label: h, count: 10 }, work: { ops: 10 }, samples_ns: flat(1000 + i) }),
        caseResult({ id: 'cpu.ecdsa.sign', param: { label: 'x', count: 10 }, status: 'skipped', skip_reason: h, work: { ops: 10 } }),
        caseResult({ id: 'cpu.ecdsa.verify', param: { label: 'x', count: 10 }, status: 'failed', error: h, work: { ops: 10 } }),
        caseResult({ id: h, param: { label: h }, samples_ns: [1] }),
      ],
      'aa'.repeat(32),
      {
        client: { name: h, version: h, source: 'path', commit: h },
        host: { os: h, arch: h, cpu_model: h, cpus: 1, mem_mb: 1, runtime: h },
        bee: { url: h, version: h },
        started_at: `2026-05-02T10:00:0${i}Z`,
      },
    ),
  );
}

describe('report.md', () => {
  const full = (['js', 'go', 'rs'] as const).map((r) =>
    syntheticResult(r, spec, hash, {
      profile: 'full',
      n: 20,
      bee: true,
      skip: (c, rr) => (c.id === 'cpu.bmt.encrypted-file-root' ? `no offline encrypting chunker in ${rr}` : undefined),
      digest: (c, rr) => (c.id === 'cpu.identity.create' && rr === 'js' ? 'cd'.repeat(32) : c.digest ? 'ab'.repeat(32) : undefined),
    }),
  );
  const model = aggregate(full, spec, { specHash: hash });
  const md = renderMarkdown(model);

  it('has the report structure: caveat first, runners, scoreboard, groups, cases, fits', () => {
    const order = [
      '# bee-bench report',
      'Scope of network figures',
      '## Runners',
      '## Scoreboard',
      '## Harness',
      '## CPU (no network)',
      '### `cpu.bmt.file-root`',
      '**Latency vs size**',
      '## Bee chunk pipeline',
    ];
    const at = order.map((s) => md.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toContain('*skip: no offline encrypting chunker in go*');
    expect(md).toMatch(/\*\*[0-9.]+ ([µmn]?s\/[a-z]+|[kMG]B\/s)\*\* \(best\)/);
    expect(md).not.toContain('<svg');
    expect(md).toContain('MB/s');
    expect(md).toContain('decimal: 1 MB = 10^6 bytes');
  });

  it('calls out a digest disagreement with every value', () => {
    const i = md.indexOf('**Digest disagreement** (1000 identities)');
    expect(i).toBeGreaterThan(0);
    const callout = md.slice(i, md.indexOf('\n\n', i));
    expect(callout).toContain(`bee-js: \`${'cd'.repeat(32)}\``);
    expect(callout).toContain(`bee-go: \`${'ab'.repeat(32)}\``);
    expect(callout).toContain(`bee-rs: \`${'ab'.repeat(32)}\``);
  });

  it('prints no ratio interval under 1 µs an iteration, where the timer ties the pairs and only the median is a figure', () => {
    const timed = (runner: 'go' | 'rs', samples: number[]) =>
      result(runner, [caseResult({ id: 'cpu.identity.create', param: { label: 'quick', count: 1 }, work: { ops: 1 }, samples_ns: samples })]);
    const out = renderMarkdown(aggregate([timed('go', [90, 90, 90, 120, 60, 90, 90]), timed('rs', [30, 30, 30, 30, 60, 30, 30])], spec));
    const line = out.split('\n').find((l) => l.startsWith('| quick'))!;
    expect(line).toContain('90.0 ns/op (3.00x slower)<br>');
  });

  it('marks spread above 50% as printed and shows p95 only from n >= 10', () => {
    const noisy = (runner: 'go' | 'rs', samples: number[]) =>
      result(runner, [caseResult({ id: 'cpu.identity.create', param: { label: 'quick', count: 10 }, work: { ops: 10 }, samples_ns: samples })]);
    const cells = (go: number[], rs: number[]) => {
      const out = renderMarkdown(aggregate([noisy('go', go), noisy('rs', rs)], spec));
      // The ±200% row is also marked low-precision beside its param (src/verdict/precision.ts).
      const line = out.split('\n').find((l) => l.startsWith('| quick'))!;
      return line.split(' | ').slice(1, 3);
    };
    const [go, rs] = cells(
      [1e4, 1e4, 1e4, 1e4, 3e4],
      Array.from({ length: 10 }, (_, i) => 1e5 + 100 * i),
    );
    expect(go).toContain('⚠ ±200%');
    expect(go).not.toContain('p95');
    expect(go).toContain('**1.00 µs/op** (best)<br>median 10.0 µs for 10 ops');
    // The ratio's interval from the 50 pairs of iterations (src/stats/scoreboard.ts costRatioInterval).
    expect(rs).toContain('10.0 µs/op (10.0x slower [3.36x–10.1x])<br>median 100 µs for 10 ops');
    expect(rs).toMatch(/±0.4% · cv [0-9.]+% · p95 101 µs · n 10/);
    // ±50.0% is not "above 50%": no ⚠ on a spread that prints as exactly 50.0%.
    const [half] = cells([1e5, 1e5, 150_004], [1e5, 1e5, 1e5]);
    expect(half).toContain('±50.0%');
    expect(half).not.toContain('⚠');
  });

  it('puts a caveat, not a warning, on sub-microsecond rows and on cpu/wall below 1 in CPU rows', () => {
    const r = (runner: 'go' | 'rs', samples: number[], cpu: number[]) =>
      result(runner, [
        caseResult({ id: 'cpu.harness.noop', param: { label: 'empty', count: 1 }, work: { ops: 1 }, samples_ns: samples, cpu_ns: cpu }),
        caseResult({
          id: 'cpu.identity.create',
          param: { label: 'quick', count: 10 },
          work: { ops: 10 },
          samples_ns: [1e6, 1e6, 1e6],
          cpu_ns: [5e5, 5e5, 5e5],
        }),
      ]);
    const out = renderMarkdown(aggregate([r('go', [50, 60, 9000], [1000, 1000, 1000]), r('rs', [40, 41, 42], [40, 41, 42])], spec));
    const noop = out.split('\n').find((l) => l.startsWith('| empty'))!;
    expect(noop).not.toContain('⚠');
    expect(noop).toMatch(/±[0-9.]+% ‡/);
    expect(noop).toMatch(/cpu\/wall [0-9.]+x ‡/);
    expect(out).toContain('‡ Below 1 µs per iteration');
    const identity = out.split('\n').find((l) => l.startsWith('| quick'))!;
    expect(identity).toContain('cpu/wall 0.500x †');
    expect(out).toContain('† cpu/wall below 1 on a CPU-bound row: the process waited for a CPU');
  });

  it('is deterministic and omits the net caveat without net rows', () => {
    expect(renderMarkdown(aggregate(full, spec, { specHash: hash }))).toBe(md);
    expect(renderHtml(model, { chartJs: null })).toBe(renderHtml(aggregate(full, spec, { specHash: hash }), { chartJs: null }));
    const cpuOnly = (['js', 'go'] as const).map((r) => syntheticResult(r, spec, hash, { bee: false }));
    const m = aggregate(
      cpuOnly.map((r) => ({ ...r, cases: r.cases.filter((c) => c.kind === 'cpu') })),
      spec,
    );
    expect(renderMarkdown(m)).not.toContain('Scope of network figures');
  });

  it('never lets hostile strings through as markup', () => {
    const out = renderMarkdown(aggregate(hostileResults(), spec));
    expect(out).not.toMatch(/<img|<script|<\/script|<!--|\]\(|@org/);
    for (const line of out.split('\n').filter((l) => l.startsWith('|'))) {
      // every table line keeps its column count: no pipe leaked from data
      const header = out.split('\n').find((l) => l.startsWith('| param'))!;
      if (line.startsWith('| Runner |') || line.startsWith('|---') || !line.includes('µs')) continue;
      expect(line.split(' | ').length).toBe(header.split(' | ').length);
    }
  });
});

describe('report.html', () => {
  const model = aggregate(hostileResults(), spec);
  const html = renderHtml(model, { chartJs: 'window.Chart = function () {};' });

  it('is self-contained and never lets hostile strings through as markup', () => {
    expect(html).not.toMatch(/<img|<script>alert|<\/script><script>alert|<!-- hidden|src="http|href="http/);
    expect(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:\/\//);
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('pins the inline scripts in its CSP and keeps data in an inert JSON block', () => {
    const csp = /script-src ([^;"]+)/.exec(html)![1]!;
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(2);
    for (const s of inline) expect(csp).toContain(`'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    const json = /<script type="application\/json" id="bee-bench-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(json) as { charts: Array<{ labels: string[] }> };
    expect(data.charts.flatMap((c) => c.labels).some((l) => l.endsWith('· </script><script>alert(1)</script>'))).toBe(true);
  });

  it('draws one chart per group through textContent-only page code', () => {
    const pageScript = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)][1]![1]!;
    const json = /<script type="application\/json" id="bee-bench-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const made: Array<{ type: string; options: { indexAxis: string; scales: { x: { type: string; min: number } } } }> = [];
    const status = { textContent: '' };
    const document = {
      getElementById: (id: string) => (id === 'bee-bench-data' ? { textContent: json } : id === 'chart-status' ? status : { id }),
    };
    class Chart {
      constructor(_el: unknown, cfg: (typeof made)[number]) {
        made.push(cfg);
      }
    }
    const window: Record<string, unknown> = {};
    runInNewContext(pageScript, { document, Chart, JSON, window });
    const charts = (JSON.parse(json) as { charts: Array<{ log: boolean }> }).charts;
    expect(charts.length).toBe(model.groups.length);
    expect(made).toHaveLength(charts.length);
    made.forEach((m, i) => {
      expect(m.options.indexAxis).toBe('y');
      expect(m.options.scales.x.type).toBe(charts[i]!.log ? 'logarithmic' : 'linear');
    });
    expect(pageScript).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    // Without Chart.js the page says so (as text).
    runInNewContext(pageScript, { document, JSON, window });
    expect(status.textContent).toMatch(/Chart\.js was not embedded/);
  });

  it('charts on a log axis where a group spans more than 10x, linear within it', () => {
    const full = (['js', 'go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash, { unitCost: (_c, rr) => ({ js: 1000, go: 2, rs: 1 })[rr] }));
    const wide = /<script type="application\/json" id="bee-bench-data">([\s\S]*?)<\/script>/.exec(renderHtml(aggregate(full, spec), { chartJs: null }))![1]!;
    const charts = (JSON.parse(wide) as { charts: Array<{ log: boolean; min: number; title: string }> }).charts;
    const cpu = charts.find((c) => c.title.startsWith('CPU'))!;
    expect(cpu).toMatchObject({ log: true, min: 0.5 });
    const near = (['go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash, { unitCost: (_c, rr) => ({ js: 1, go: 2, rs: 1 })[rr] }));
    const narrow = /<script type="application\/json" id="bee-bench-data">([\s\S]*?)<\/script>/.exec(renderHtml(aggregate(near, spec), { chartJs: null }))![1]!;
    expect((JSON.parse(narrow) as { charts: Array<{ log: boolean; min: number; title: string }> }).charts.find((c) => c.title.startsWith('CPU'))).toMatchObject(
      { log: false, min: 0 },
    );
  });
});

describe('report.csv', () => {
  it('writes one RFC 4180 row per case x param x runner that parses back exactly', () => {
    const rs = hostileResults();
    const model = aggregate(rs, spec);
    const csv = renderCsv(model);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const cells = model.groups.flatMap((g) => g.cases.flatMap((c) => c.rows.flatMap((r) => Object.values(r.cells))));
    expect(rows.length - 1).toBe(cells.length);
    for (const r of rows) expect(r).toHaveLength(CSV_COLUMNS.length);
    const labels = rows.slice(1).map((r) => r[CSV_COLUMNS.indexOf('label')]);
    expect(labels).toContain('a | b | c');
    expect(labels).toContain('# heading\n## another\r\nline');
    const reasons = rows.slice(1).map((r) => r[CSV_COLUMNS.indexOf('skip_reason_or_error')]);
    // the latest result of a runner wins its (case, label) rows: the last three files' reasons remain
    expect(reasons).toEqual(expect.arrayContaining([HOSTILE[7], HOSTILE[8], HOSTILE[9]]));
    const params = rows.slice(1).map((r) => JSON.parse(r[CSV_COLUMNS.indexOf('params')]!) as Record<string, unknown>);
    expect(params.map((p) => p['label'])).toContain('tick ` tock ``');
  });

  it('keeps raw numbers in base units', () => {
    const model = aggregate(
      [
        result('go', [
          caseResult({ id: 'cpu.keccak.bulk', param: { label: 'quick', bytes: 1e6 }, work: { bytes: 1e6 }, samples_ns: [2e6, 2e6, 2e6], peak_rss_bytes: 123 }),
        ]),
      ],
      spec,
    );
    const [, line] = parseCsv(renderCsv(model));
    const get = (k: (typeof CSV_COLUMNS)[number]) => line![CSV_COLUMNS.indexOf(k)];
    expect(get('median_ns')).toBe('2000000');
    expect(get('mb_per_s')).toBe('500');
    expect(get('peak_rss_bytes')).toBe('123');
    expect(get('ratio_to_fastest')).toBe('');
  });
});
