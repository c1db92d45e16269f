// Allocations beside wall time and counts: the comment's column, "flagged by", the annotation and
// fail-on, for a regression seen in allocations alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundleSchema } from '../../src/action/bundle.js';
import { writeAbReport } from '../../src/ab/report.js';
import { AbRowSchema, failingRows, failsOn, judgeAllocations, type AbRow, type RowEvidence } from '../../src/verdict/index.js';
import { judgedRow, wallVerdict } from '../verdict/ab-rows.js';
import { abInput } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'bee-bench-allocations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const B = { bytes: [4096, 4096, 4096], allocs: [10, 10, 10] };
const grown = { bytes: [4608, 4608, 4608], allocs: [10, 10, 10] };
const row = (caseId: string, allocations: RowEvidence['allocations']): AbRow =>
  judgedRow(caseId, { wall: { judged: wallVerdict(1.001, 0.6, '~') }, allocations }, { group: 'g', work: { ops: 1 }, rounds: 12 });
const rows: AbRow[] = [
  row('cpu.keccak.bulk', { judged: judgeAllocations(B, B, grown, { floor: 0.01 }) }),
  row('cpu.ecdsa.sign', { judged: judgeAllocations(B, B, B, { floor: 0.01 }) }),
  row('cpu.identity.create', { note: 'not measured in head' }),
];
const input = abInput(rows, {
  title: 'bee-bench: go main → pr',
  marker: 'bee-bench:go',
  runner: 'go',
  env: { settings: { allocations: { threshold: 0.01, counter: 'go runtime/metrics', ms: 2000 } } },
});

describe('allocations in the A/B report', () => {
  const report = writeAbReport(dir, input);

  it('shows the allocation column and names allocations in "flagged by"', () => {
    expect(report.markdown).toContain('| allocations | flagged by |');
    expect(report.markdown).toMatch(
      /`cpu\.keccak\.bulk`.*12\.5% more bytes, no change in allocs ±0\.00% 🔴 \(threshold ±1\.0%\) \| allocations \| 🔴 regression/,
    );
    expect(report.markdown).toMatch(/`cpu\.identity\.create`.*— \(not measured in head\)/);
    expect(report.markdown).toContain('Allocations (go runtime/metrics)');
    expect(report.counts).toMatchObject({ regressions: 1, unchanged: 2 });
  });

  it('annotates the allocation-only regression, naming allocations', () => {
    expect(report.annotations).toEqual(['regression: cpu.keccak.bulk [quick]: allocations 12.5% more bytes, no change in allocs (A/A spread 0.000%)']);
  });

  it('lets fail-on pick allocations', () => {
    expect([failsOn(rows[0]!, 'any'), failsOn(rows[0]!, 'wall'), failsOn(rows[0]!, 'instructions'), failsOn(rows[0]!, 'allocations')]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(failingRows(rows, 'allocations').regressions).toBe(1);
    expect(failingRows(rows, 'wall').regressions).toBe(0);
  });

  it('survives the fork-safe bundle: rows and the allocation header validate', () => {
    for (const r of rows) expect(AbRowSchema.parse(r)).toEqual(r);
    const { title, runner, baseLabel, headLabel, alpha, threshold, rounds, profile, env } = input;
    const bundle = {
      schema: 'bee-bench/action-comment@3',
      client: 'go',
      pr: 1,
      head_sha: 'a'.repeat(40),
      workflow: 'bench',
      outcome: { kind: 'report', report: { title, runner, baseLabel, headLabel, rows, alpha, threshold, rounds, profile, env } },
    };
    expect(BundleSchema.safeParse(bundle).success).toBe(true);
  });
});
