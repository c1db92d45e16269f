// net.bytes.upload's digest (the reference Bee returned for the unsalted fixture) must equal the
// offline BMT root cpu.bmt.file-root computes for the same bytes; a disagreement is flagged.
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../src/report/model/aggregate.js';
import { allRows } from '../../src/report/model/types.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { caseResult, realSpec, result } from './fixtures.js';

const { spec } = realSpec();
const ROOT = '1f'.repeat(32);
const OTHER = '2e'.repeat(32);
const root = (digest: string, bytes = 4194304) =>
  caseResult({ id: 'cpu.bmt.file-root', param: { label: 'quick', bytes }, work: { bytes }, samples_ns: [5, 5, 5], digest });
const upload = (digest: string) =>
  caseResult({ id: 'net.bytes.upload', param: { label: '1 MiB', bytes: 1048576 }, work: { bytes: 1048576 }, samples_ns: [9, 9, 9], digest });
const netRow = (results: ReturnType<typeof result>[]) => allRows(aggregate(results, spec)).find((r) => r.caseId === 'net.bytes.upload')!;

describe('digest same_as', () => {
  it('passes when every net reference equals the offline root of the same bytes', () => {
    expect(netRow([result('js', [root(ROOT, 524288), upload(ROOT)]), result('rs', [root(ROOT), upload(ROOT)])]).digestMismatch).toBeUndefined();
  });

  it('flags a net reference that differs from the offline root even when the clients agree on it', () => {
    const results = [result('js', [root(ROOT, 524288), upload(OTHER)]), result('go', [upload(OTHER)])];
    expect(netRow(results).digestMismatch).toEqual([
      { runner: 'js', digest: OTHER, caseId: 'net.bytes.upload' },
      { runner: 'go', digest: OTHER, caseId: 'net.bytes.upload' },
      { runner: 'js', digest: ROOT, caseId: 'cpu.bmt.file-root' },
    ]);
    expect(renderMarkdown(aggregate(results, spec))).toContain(`(\`cpu.bmt.file-root\`): \`${ROOT}\``);
  });
});
