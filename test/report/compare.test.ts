// Tests of the compare model between two runs.
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { compareModels } from '../../src/report/model/compare.js';
import { renderCompareMarkdown } from '../../src/report/render/compare-markdown.js';
import { caseResult, realSpec, result } from './fixtures.js';

const { spec } = realSpec();
const flat = (m: number) => [m, m, m];
const row = (id: string, m: number, label = 'quick', ops = 1000) => caseResult({ id, param: { label, count: ops }, work: { ops }, samples_ns: flat(m) });

describe('compare', () => {
  const old = aggregate(
    [
      result('go', [row('cpu.ecdsa.sign', 1000), row('cpu.identity.create', 1000), row('cpu.ecdsa.verify', 500)]),
      result('rs', [row('cpu.ecdsa.sign', 2000), row('cpu.identity.create', 2000)]),
    ],
    spec,
  );
  const cur = aggregate(
    [
      result('go', [row('cpu.ecdsa.sign', 1100), row('cpu.identity.create', 700), row('cpu.manifest.lookup-large', 900)]),
      // rs ran a scaled count: compared per op, so 4000 ns over 2000 ops is unchanged
      result('rs', [row('cpu.ecdsa.sign', 4000, 'quick', 2000), row('cpu.identity.create', 2600)]),
    ],
    spec,
  );
  const cmp = compareModels(old, cur);

  it('computes per-row deltas and flags beyond ±20%', () => {
    const sign = cmp.rows.find((r) => r.caseId === 'cpu.ecdsa.sign')!;
    expect(sign.cells.go).toMatchObject({ oldMedianNs: 1000, newMedianNs: 1100, flagged: false });
    expect(sign.cells.go!.ratio).toBeCloseTo(1.1);
    expect(sign.cells.rs!.ratio).toBeCloseTo(1);
    const ident = cmp.rows.find((r) => r.caseId === 'cpu.identity.create')!;
    expect(ident.cells.go).toMatchObject({ flagged: true });
    expect(ident.cells.rs!.ratio).toBeCloseTo(1.3);
    expect(ident.cells.rs!.flagged).toBe(true);
  });

  it('summarises a geomean shift per runner', () => {
    const go = cmp.summary.find((s) => s.runner === 'go')!;
    expect(go.rows).toBe(2);
    expect(go.geomean).toBeCloseTo(Math.sqrt(1.1 * 0.7), 12);
    const rs = cmp.summary.find((s) => s.runner === 'rs')!;
    expect(rs.geomean).toBeCloseTo(Math.sqrt(1 * 1.3), 12);
  });

  it('lists rows present on one side only', () => {
    expect(cmp.onlyOld).toEqual([{ caseId: 'cpu.ecdsa.verify', label: 'quick' }]);
    expect(cmp.onlyNew).toEqual([{ caseId: 'cpu.manifest.lookup-large', label: 'quick' }]);
  });

  it('renders summary, flagged deltas and one-sided rows', () => {
    const md = renderCompareMarkdown(cmp, { oldLabel: 'v1 <b>', newLabel: 'v2' });
    expect(md).toContain('| bee-go | 1.1.0 | 1.1.0 | 2 | ↓ 12.3% faster |');
    expect(md).toContain('| bee-rs | 1.2.0 | 1.2.0 | 2 | ↑ 14.0% slower |');
    expect(md).toContain('⚠ 30.0% faster');
    expect(md).toContain('| quick | 1.00 µs | 1.10 µs | 10.0% slower |');
    expect(md).toMatch(/Only in v1 &lt;b&gt;: `cpu.ecdsa.verify` quick/);
    expect(md).toContain('Only in v2: `cpu.manifest.lookup-large` quick');
  });
});
