// The one A/B report: ab.md, the counts behind the outputs and the annotations come from the same
// rows, so a regression seen in instruction counts alone is counted and annotated (issue 20).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAbReport } from '../../src/ab/report.js';
import type { AbRow } from '../../src/verdict/index.js';
import { judgedRow, wallVerdict } from '../verdict/ab-rows.js';
import { abInput } from '../report/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'bee-bench-ab-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const calm = { wall: { judged: wallVerdict(1.001, 0.6, '~') } };
const at = { group: 'keccak', work: {}, rounds: 12 };
const rows: AbRow[] = [
  judgedRow(
    'cpu.keccak.bulk',
    { ...calm, instructions: { judged: { base: 1e9, head: 1.012e9, ratio: 1.012, spread: 0.0001, threshold: 0.01, bar: 0.01, verdict: 'regression' } } },
    at,
  ),
  judgedRow('cpu.bmt.file-root', { wall: { judged: wallVerdict(1.05, 0.001, 'regression') } }, at),
  judgedRow('cpu.ecdsa.sign', calm, at),
];
const input = abInput(rows);

describe('writeAbReport', () => {
  const report = writeAbReport(dir, input, { roundsDone: 12 });

  it('annotates an instruction-only regression, naming the evidence', () => {
    expect(report.annotations).toEqual([
      'regression: cpu.keccak.bulk [quick]: instructions 1.2% more (A/A spread 0.010%)',
      'regression: cpu.bmt.file-root [quick]: wall time 5.0% slower (q 0.001)',
    ]);
  });

  it('counts what it annotates, and writes the comment it counted', () => {
    expect(report.counts).toMatchObject({ regressions: 2, unchanged: 1 });
    expect(readFileSync(report.markdownFile, 'utf8')).toBe(report.markdown);
    expect(report.markdown).toContain('🔴 **2** regressions');
    expect(JSON.parse(readFileSync(join(dir, 'ab.json'), 'utf8'))).toMatchObject({ rows: rows.map((r) => ({ caseId: r.caseId })), roundsDone: 12 });
  });
});
