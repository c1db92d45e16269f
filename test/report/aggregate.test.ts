// Tests of the aggregate report model.
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { allRows, NET_SCOPE_CAVEAT, type Row } from '../../src/report/model/types.js';
import type { Runner } from '../../src/spec/schema.js';
import { caseResult, realSpec, result, syntheticResult } from './fixtures.js';

const { spec, hash } = realSpec();
const flat = (m: number, n = 3) => Array.from({ length: n }, () => m);
const AA = 'aa'.repeat(32);
const BB = 'bb'.repeat(32);

/** The hand-checked example: four contested rows, one uncontested, one skipped cell. */
function example() {
  const sign = (m: number, digest: string) =>
    caseResult({ id: 'cpu.ecdsa.sign', param: { label: '1000 signs', count: 1000 }, work: { ops: 1000 }, samples_ns: flat(m), digest });
  const ident = (m: number) =>
    caseResult({ id: 'cpu.identity.create', param: { label: '1000 identities', count: 1000 }, work: { ops: 1000 }, samples_ns: flat(m) });
  // 30 calls of one op each: enough ops in all for the row to score (src/verdict/precision.ts).
  const stamps = (m: number) => caseResult({ id: 'net.stamps.list', param: { label: '1 call', count: 1 }, work: { ops: 1 }, samples_ns: flat(m, 30) });
  const bulk = (bytes: number, perByte: number) =>
    caseResult({ id: 'cpu.keccak.bulk', param: { label: 'quick', bytes }, work: { bytes }, samples_ns: flat(bytes * perByte) });
  const lookup = caseResult({
    id: 'cpu.manifest.lookup-large',
    param: { label: 'quick', entries: 5000, lookups: 1000 },
    work: { ops: 1000 },
    samples_ns: flat(5e6),
  });
  return [
    result('js', [
      sign(4000, AA),
      ident(9000),
      caseResult({
        id: 'net.stamps.list',
        param: { label: '1 call', count: 1 },
        status: 'skipped',
        skip_reason: 'no Bee node given (--bee-url and --batch-id)',
        work: { ops: 1 },
      }),
      bulk(4194304, 10),
      caseResult({
        id: 'cpu.manifest.lookup-large',
        param: { label: 'quick', entries: 5000, lookups: 500 },
        status: 'failed',
        error: 'timeout after 120 s',
        samples_ns: [7e6],
        work: { ops: 500 },
      }),
    ]),
    result('go', [sign(1000, AA), ident(3000), stamps(100), bulk(33554432, 2)]),
    result('rs', [sign(2000, BB), ident(1000), stamps(200), bulk(33554432, 1), lookup]),
  ];
}

function row(rows: Row[], caseId: string, label?: string): Row {
  const r = rows.find((x) => x.caseId === caseId && (label === undefined || x.label === label));
  if (!r) throw new Error(`no row ${caseId} ${label ?? ''}`);
  return r;
}

describe('aggregate', () => {
  const model = aggregate(example(), spec, { specHash: AA });
  const rows = allRows(model);

  it('computes ratios to the fastest per row, per op or per byte', () => {
    const ratios = (r: Row) => Object.fromEntries((['js', 'go', 'rs'] as Runner[]).map((k) => [k, r.cells[k]?.ratio]));
    expect(ratios(row(rows, 'cpu.ecdsa.sign'))).toEqual({ js: 4, go: 1, rs: 2 });
    expect(ratios(row(rows, 'cpu.identity.create'))).toEqual({ js: 9, go: 3, rs: 1 });
    expect(ratios(row(rows, 'net.stamps.list'))).toEqual({ js: undefined, go: 1, rs: 2 });
    // js hashed 4 MiB, go and rs 32 MiB: compared per byte, not by raw median.
    const bulk = row(rows, 'cpu.keccak.bulk');
    expect(bulk.scaled).toBe(true);
    expect(ratios(bulk)).toEqual({ js: 10, go: 2, rs: 1 });
    expect(bulk.cells.js?.bytesPerNs).toBeCloseTo(0.1);
  });

  it('scores wins, rows and geomeans over contested rows only (hand-checked)', () => {
    const sb = Object.fromEntries(model.scoreboard.map((s) => [s.runner, s]));
    expect(sb.js).toMatchObject({ wins: 0, rows: 3 });
    expect(sb.go).toMatchObject({ wins: 2, rows: 4 });
    expect(sb.rs).toMatchObject({ wins: 2, rows: 4 });
    expect(sb.js!.geomean).toBeCloseTo(Math.cbrt(4 * 9 * 10), 10);
    expect(sb.go!.geomean).toBeCloseTo(6 ** 0.25, 10);
    expect(sb.rs!.geomean).toBeCloseTo(4 ** 0.25, 10);
    expect(sb.go!.byGroup).toEqual({ cpu: expect.closeTo(Math.cbrt(6), 10), calibration: 1 });
    expect(sb.js!.byGroup['calibration']).toBeNull();
    expect(sb.rs!.byGroup['calibration']).toBe(2);
  });

  it('scores a low-precision row whose ranking is clear, and leaves out a row whose ranking is open', () => {
    expect(model.scoreboardRows).toEqual({ scored: 4, open: 0 });
    // bee-rs recovering 2 signatures in each of 5 iterations: 10 ops in all, low-precision for an A/B
    // claim; but bee-go is 3x faster than bee-rs and bee-js 9x slower, every iteration: the ranking is clear.
    const jitter = (m: number) => [0.97, 0.99, 1, 1.01, 1.03].map((f) => m * f);
    const verify = (ops: number, perOp: number) =>
      caseResult({ id: 'cpu.ecdsa.verify', param: { label: 'quick', count: ops }, work: { ops }, samples_ns: jitter(perOp * ops) });
    const perOp: Record<Runner, number> = { js: 9e5, go: 1e5, rs: 3e5 };
    const withVerify = example().map((r) => ({ ...r, cases: [...r.cases, verify(r.runner === 'rs' ? 2 : 2000, perOp[r.runner])] }));
    const m = aggregate(withVerify, spec, { specHash: AA });
    const v = row(allRows(m), 'cpu.ecdsa.verify');
    expect(v.lowPrecision).toBe(true);
    expect(v.rankingOpen).toBeUndefined();
    expect(v.cells.rs?.lowPrecision).toEqual([{ kind: 'ops', totalOps: 10, iterations: 5 }]);
    expect(v.cells.go?.lowPrecision).toBeUndefined();
    expect(v.cells.js?.ratio).toBeCloseTo(9, 10);
    // 5 samples a side: the ratio's interval is the 3rd-lowest to 3rd-highest of the 25 pairs of
    // iterations (Hodges–Lehmann, exact rank-sum quantiles), narrower than range over range.
    expect(v.cells.js?.ratioInterval?.lo).toBeCloseTo((9 * 0.99) / 1.03, 10);
    expect(v.cells.js?.ratioInterval?.hi).toBeCloseTo((9 * 1.03) / 0.99, 10);
    expect(v.cells.go?.ratioInterval).toBeUndefined();
    expect(m.scoreboardRows).toEqual({ scored: 5, open: 0 });
    expect(m.scoreboard.find((e) => e.runner === 'go')!.wins).toBe(model.scoreboard.find((e) => e.runner === 'go')!.wins + 1);

    // bee-rs within bee-go's range: who is fastest is open, the row is compared and not scored.
    perOp.rs = 1.02e5;
    const open = aggregate(
      example().map((r) => ({ ...r, cases: [...r.cases, verify(2000, perOp[r.runner])] })),
      spec,
      { specHash: AA },
    );
    expect(row(allRows(open), 'cpu.ecdsa.verify').rankingOpen).toBe(true);
    expect(open.scoreboardRows).toEqual({ scored: 4, open: 1 });
    expect(open.scoreboard).toEqual(model.scoreboard);
  });

  it('leaves the harness calibration case out of the scoreboard: it times runners, not clients', () => {
    const noop = (m: number) => caseResult({ id: 'cpu.harness.noop', param: { label: 'empty', count: 1 }, work: { ops: 1 }, samples_ns: flat(m) });
    const withHarness = example().map((r, i) => ({ ...r, cases: [...r.cases, noop([1000, 10, 10][i]!)] }));
    const m = aggregate(withHarness, spec, { specHash: AA });
    expect(row(allRows(m), 'cpu.harness.noop').cells.js?.ratio).toBe(100);
    expect(m.scoreboard).toEqual(model.scoreboard);
  });

  it('leaves uncontested rows unranked and keeps failure reasons', () => {
    const lookup = row(rows, 'cpu.manifest.lookup-large');
    expect(lookup.contested).toBe(false);
    expect(lookup.cells.rs?.ratio).toBeUndefined();
    expect(lookup.cells.js).toMatchObject({ status: 'failed', reason: 'timeout after 120 s' });
    expect(lookup.cells.go).toBeUndefined();
    expect(row(rows, 'net.stamps.list').cells.js).toMatchObject({ status: 'skipped', reason: 'no Bee node given (--bee-url and --batch-id)' });
  });

  it('flags digest disagreement with every runner value', () => {
    expect(row(rows, 'cpu.ecdsa.sign').digestMismatch).toEqual([
      { runner: 'js', digest: AA },
      { runner: 'go', digest: AA },
      { runner: 'rs', digest: BB },
    ]);
    expect(row(rows, 'cpu.identity.create').digestMismatch).toBeUndefined();
  });

  it('carries the net scope on net rows and marks the model', () => {
    expect(model.hasNet).toBe(true);
    expect(row(rows, 'net.stamps.list').caveat).toBe(NET_SCOPE_CAVEAT);
    expect(row(rows, 'cpu.identity.create').caveat).toBeUndefined();
  });

  it('derives per-cell figures', () => {
    const cell = row(rows, 'cpu.identity.create').cells.go!;
    expect(cell).toMatchObject({ medianNs: 3000, minNs: 3000, maxNs: 3000, n: 3, perOpNs: 3, cpuWallRatio: 1, spread: 0 });
    expect(cell.p95Ns).toBeUndefined();
  });

  it('flags results from another spec', () => {
    const rs = example();
    rs[2] = { ...rs[2]!, spec: { ...rs[2]!.spec, hash: BB } };
    const m = aggregate(rs, spec, { specHash: AA });
    expect(m.specHashes).toEqual([AA, BB]);
    expect(m.warnings.join('\n')).toMatch(/2 different spec files/);
    expect(m.warnings.join('\n')).toMatch(/bee-rs ran a spec other than/);
  });

  it('fits latency against size exactly on synthetic data', () => {
    const sizes = [1, 10, 100].map((m) => m * 2 ** 20);
    const file = (runner: Runner, overhead: number, perByte: number) =>
      result(
        runner,
        sizes.map((bytes, i) =>
          caseResult({
            id: 'cpu.bmt.file-root',
            param: { label: ['1 MiB', '10 MiB', '100 MiB'][i]!, bytes },
            work: { bytes },
            samples_ns: flat(overhead + bytes * perByte, 5),
          }),
        ),
      );
    const m = aggregate([file('go', 50_000, 2), file('rs', 1_000_000, 0.5)], spec);
    const fits = m.groups.flatMap((g) => g.cases).find((c) => c.id === 'cpu.bmt.file-root')!.fits;
    expect(fits.map((f) => f.runner)).toEqual(['go', 'rs']);
    expect(fits[0]!.overheadNs).toBeCloseTo(50_000, 3);
    expect(fits[0]!.bytesPerNs).toBeCloseTo(0.5, 12);
    expect(fits[1]!.overheadNs).toBeCloseTo(1_000_000, 3);
    expect(fits[1]!.bytesPerNs).toBeCloseTo(2, 12);
    expect(fits[0]!.r2).toBeCloseTo(1, 12);
    expect(fits[0]!.points).toBe(3);
    // rows follow the spec's param order
    expect(m.groups[0]!.cases[0]!.rows.map((r) => r.label)).toEqual(['1 MiB', '10 MiB', '100 MiB']);
  });

  it('handles a full synthetic run of every case (3 runners, quick)', () => {
    const rs = (['js', 'go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash, { n: 5 }));
    const m = aggregate(rs, spec, { specHash: hash });
    expect(m.warnings).toEqual([]);
    expect(m.runners.map((r) => r.runner)).toEqual(['js', 'go', 'rs']);
    const all = allRows(m);
    // One row per quick param (the net upload and download cases carry an erasure variant beside their plain one).
    expect(all.length).toBe(spec.cases.reduce((n, c) => n + c.params.quick.length, 0));
    expect(all.filter((r) => r.kind === 'net').every((r) => Object.values(r.cells).every((c) => c.status === 'skipped'))).toBe(true);
    expect(m.scoreboard.find((s) => s.runner === 'rs')!.geomean).toBeCloseTo(1, 1);
  });
});
