// Allocation figures in the run report: per-op columns, the retained/transient story beside peak
// RSS, and the bytes-per-unit-of-work scoreboard; nothing of it without allocation figures.
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { CSV_ALLOC_COLUMNS, CSV_COLUMNS, renderCsv } from '../../src/report/render/csv.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { cellAllocations } from '../../src/report/model/memory.js';
import { memoryStory, STORY_MIN_BYTES } from '../../src/verdict/memory.js';
import { ResultSchema, type CaseResult, type Runner } from '../../src/spec/schema.js';
import { EVIDENCES } from '../../src/evidence/index.js';
import { caseResult, realSpec, result, syntheticResult, withAllocations } from './fixtures.js';

const { spec, hash } = realSpec();
const MiB = 2 ** 20;
const flat = (x: number, n = 3) => Array.from({ length: n }, () => x);

describe('memoryStory', () => {
  it('calls churn far above RSS growth transient, growth matching the allocation retained, and says nothing between', () => {
    expect(memoryStory(100 * MiB, 110 * MiB, 100 * MiB)).toBe('transient');
    expect(memoryStory(8 * MiB, 120 * MiB, 100 * MiB)).toBe('retained');
    expect(memoryStory(8 * MiB, 108 * MiB, 100 * MiB)).toBe('retained');
    expect(memoryStory(8 * MiB, 104 * MiB, 100 * MiB)).toBeUndefined();
  });

  it('says nothing below a MiB per iteration, where RSS cannot show it', () => {
    expect(memoryStory(STORY_MIN_BYTES - 1, 100 * MiB, 100 * MiB)).toBeUndefined();
    expect(memoryStory(STORY_MIN_BYTES, 100 * MiB, 100 * MiB)).toBe('transient');
  });

  it('reads a peak below the baseline as no growth', () => {
    expect(memoryStory(4 * MiB, 90 * MiB, 100 * MiB)).toBe('transient');
  });
});

describe('cellAllocations', () => {
  it('divides the median per iteration by the ops of work', () => {
    const c = caseResult({
      id: 'cpu.ecdsa.sign',
      param: { label: 'quick' },
      work: { ops: 2000 },
      samples_ns: [1, 2, 3],
      alloc_bytes: [96_000, 96_000, 200_000],
      allocs: [2000, 2000, 2001],
    });
    expect(cellAllocations(c)).toEqual({ bytes: 96_000, bytesPerOp: 48, allocs: 2000, allocsPerOp: 1 });
  });

  it('keeps bytes only where the runtime counts no allocations, per iteration without ops', () => {
    const c = caseResult({ id: 'cpu.keccak.bulk', param: { label: 'quick' }, work: { bytes: 1024 }, samples_ns: [1], alloc_bytes: [64] });
    expect(cellAllocations(c)).toEqual({ bytes: 64, bytesPerOp: 64 });
    expect(cellAllocations(caseResult({ id: 'cpu.keccak.bulk', param: { label: 'quick' }, samples_ns: [1] }))).toBeUndefined();
  });
});

/** Hand-made rs and go results: noop sets each runner's RSS floor (10 MiB). */
function results() {
  const cases = (runner: Runner, figures: { chunk: [number, number, number]; sign: [number, number]; noopRss?: number }): CaseResult[] => [
    caseResult({
      id: 'cpu.harness.noop',
      param: { label: 'empty', count: 1 },
      work: { ops: 1 },
      samples_ns: flat(100),
      peak_rss_bytes: figures.noopRss ?? 10 * MiB,
      alloc_bytes: flat(0),
      allocs: flat(0),
    }),
    caseResult({
      id: 'cpu.keccak.chunk-hash',
      param: { label: 'quick', count: 2000, chunk_bytes: 4096 },
      work: { ops: 2000, bytes: 2000 * 4096 },
      samples_ns: flat(runner === 'rs' ? 1e6 : 2e6),
      peak_rss_bytes: figures.chunk[2],
      alloc_bytes: flat(figures.chunk[0]),
      allocs: flat(figures.chunk[1]),
    }),
    caseResult({
      id: 'cpu.ecdsa.sign',
      param: { label: 'quick', count: 2000 },
      work: { ops: 2000 },
      samples_ns: flat(3e6),
      peak_rss_bytes: 11 * MiB,
      alloc_bytes: flat(figures.sign[0]),
      allocs: flat(figures.sign[1]),
    }),
  ];
  return [
    // rs: 16 MiB churned per iteration, RSS 1 MiB over the floor: transient. Signs on the stack.
    result('rs', cases('rs', { chunk: [16 * MiB, 16_000, 11 * MiB], sign: [0, 0] }), hash),
    // go: 4 MiB per iteration, RSS 6 MiB over the floor: retained (or setup data of that size).
    result('go', cases('go', { chunk: [4 * MiB, 8_000, 16 * MiB], sign: [2_016_000, 42_000] }), hash),
  ];
}

describe('allocations in the run report', () => {
  const model = aggregate(results(), spec, { specHash: hash });
  const cell = (id: string, runner: Runner) => model.groups.flatMap((g) => g.cases).find((c) => c.id === id)!.rows[0]!.cells[runner]!;

  it('gives each cell its figures per op and the story its RSS tells', () => {
    expect(cell('cpu.keccak.chunk-hash', 'rs').alloc).toEqual({
      bytes: 16 * MiB,
      bytesPerOp: (16 * MiB) / 2000,
      allocs: 16_000,
      allocsPerOp: 8,
      story: 'transient',
    });
    expect(cell('cpu.keccak.chunk-hash', 'go').alloc).toMatchObject({ bytesPerOp: (4 * MiB) / 2000, allocsPerOp: 4, story: 'retained' });
    // 2 MB per iteration, 1 MiB over the floor: neither story is clear.
    expect(cell('cpu.ecdsa.sign', 'go').alloc?.story).toBeUndefined();
    expect(cell('cpu.ecdsa.sign', 'rs').alloc).toEqual({ bytes: 0, bytesPerOp: 0, allocs: 0, allocsPerOp: 0 });
  });

  it('tells no story without the RSS baseline case', () => {
    const without = results().map((r) => ({ ...r, cases: r.cases.filter((c) => c.id !== 'cpu.harness.noop') }));
    const m = aggregate(without, spec, { specHash: hash });
    const rs = m.groups.flatMap((g) => g.cases).find((c) => c.id === 'cpu.keccak.chunk-hash')!.rows[0]!.cells.rs!;
    expect(rs.alloc?.bytes).toBe(16 * MiB);
    expect(rs.alloc?.story).toBeUndefined();
  });

  it('ranks heap bytes per unit of work, with rows where a runner allocates nothing counted apart', () => {
    const [go, rs] = model.allocScoreboard!;
    // One ranked row (chunk-hash: go allocates 4x less); sign has rs at zero; noop is the harness.
    expect(go).toMatchObject({ runner: 'go', wins: 1, rows: 1, geomean: 1, zeroRows: 0 });
    expect(rs).toMatchObject({ runner: 'rs', wins: 0, rows: 1, geomean: 4, zeroRows: 1 });
  });

  it('shows the allocation line, the scoreboard and the legend in markdown and HTML', () => {
    const md = renderMarkdown(model);
    expect(md).toContain('heap 8.19 KiB/op · 8.00 allocs/op · transient');
    expect(md).toContain('heap 2.05 KiB/op · 4.00 allocs/op · retained');
    expect(md).toContain('heap 0 B/op · 0 allocs/op');
    expect(md).toContain('### Heap bytes per unit of work');
    expect(md).toMatch(/\| bee-go \| 1 \| 1 \| \*\*1\.00x\*\* \| 0 \|/);
    expect(md).toContain('Bytes allocated are not memory kept');
    const html = renderHtml(model);
    expect(html).toContain('<span class="sub alloc">heap 8.19 KiB/op · 8.00 allocs/op · transient</span>');
    expect(html).toContain('<h3>Heap bytes per unit of work</h3>');
  });

  it('adds the per-op columns to the CSV, raw', () => {
    const lines = renderCsv(model).trimEnd().split('\r\n');
    expect(lines[0]).toBe([...CSV_COLUMNS, ...CSV_ALLOC_COLUMNS].join(','));
    // The params field holds commas inside quotes: the new columns are read from the end.
    const rsChunk = lines.find((l) => l.startsWith('bee-rs,') && l.includes(',cpu.keccak.chunk-hash,'))!;
    expect(rsChunk.split(',').slice(-3)).toEqual(['8', String((16 * MiB) / 2000), 'transient']);
    const rsNoop = lines.find((l) => l.startsWith('bee-rs,') && l.includes(',cpu.harness.noop,'))!;
    expect(rsNoop.split(',').slice(-3)).toEqual(['0', '0', '']);
  });

  it('shows nothing of it when no result has allocation figures', () => {
    const plain = aggregate([syntheticResult('rs', spec, hash), syntheticResult('go', spec, hash)], spec, { specHash: hash });
    expect(plain.allocScoreboard).toBeUndefined();
    expect(renderMarkdown(plain)).not.toMatch(/heap |Heap bytes/);
    expect(renderHtml(plain)).not.toContain('Heap bytes');
    expect(renderCsv(plain).split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
  });

  it("reads a wall result that carries the allocation run's figures (3 iterations beside its own 5)", () => {
    const allocated = withAllocations(syntheticResult('go', spec, hash, { n: 3 }), (c) =>
      c.id === 'cpu.identity.create' ? { bytes: 4000, allocs: 2 } : undefined,
    );
    const wall = ResultSchema.parse(EVIDENCES.allocations.attach(syntheticResult('go', spec, hash, { n: 5 }), allocated));
    const c = wall.cases.find((x) => x.id === 'cpu.identity.create')!;
    expect([c.samples_ns.length, c.alloc_bytes?.length]).toEqual([5, 3]);
    // The two allocation arrays still come from one run.
    expect(ResultSchema.safeParse({ ...wall, cases: [{ ...c, allocs: [1] }] }).success).toBe(false);
  });

  it('takes the figures a synthetic allocation run attaches', () => {
    const r = withAllocations(syntheticResult('rs', spec, hash), (c) => (c.id === 'cpu.identity.create' ? { bytes: 4000, allocs: 2 } : undefined));
    const m = aggregate([r], spec, { specHash: hash });
    const got = m.groups.flatMap((g) => g.cases).find((c) => c.id === 'cpu.identity.create')!.rows[0]!.cells.rs!.alloc!;
    expect(got.bytes).toBe(4000);
    expect(m.allocScoreboard).toBeDefined();
    // One runner: nothing to rank, so no scoreboard table, but the cell line shows.
    expect(renderMarkdown(m)).not.toContain('### Heap bytes');
    expect(renderMarkdown(m)).toMatch(/heap 1 B\/op · 0\.000667 allocs\/op/);
  });
});
