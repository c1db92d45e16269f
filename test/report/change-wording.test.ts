// One wording for a change wherever bee-bench prints one (issue: the PR table's figures agree with
// its verdict): the comment (which is also the job summary), the annotations, the run-to-run
// compare, bisect and the alert bodies say "3.4% slower" / "1.2% faster" for time, and "7.2% more"
// for counts and bytes — never a signed percent beside figures shown in MB/s.
import { describe, expect, it } from 'vitest';
import { alertBody, recoveredComment } from '../../src/alert/body.js';
import { renderBisectMarkdown } from '../../src/bisect/report.js';
import type { BisectOutcome } from '../../src/bisect/run.js';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { type AbReportInput } from '../../src/report/model/ab.js';
import { regressionAnnotations } from '../../src/report/render/annotations.js';
import { aggregate } from '../../src/report/model/aggregate.js';
import { compareModels } from '../../src/report/model/compare.js';
import { renderCompareMarkdown } from '../../src/report/render/compare-markdown.js';
import type { AbRow, StepVerdict } from '../../src/verdict/index.js';
import { judgedRow, wallVerdict } from '../verdict/ab-rows.js';
import { caseResult, realSpec, result } from './fixtures.js';

const SLOWER = 1.034;
const INTERVAL: [number, number] = [1.012, 1.057];
const wall = wallVerdict(SLOWER, 0.0005, 'regression', { ci: INTERVAL, q: 0.001 });
const row: AbRow = judgedRow(
  'cpu.keccak.bulk',
  { wall: { judged: wall }, instructions: { judged: { ratio: 1.072, spread: 0.0001, verdict: 'regression' } as StepVerdict } },
  { group: 'keccak', work: { bytes: 1 << 20 }, rounds: 12 },
);

const input: AbReportInput = {
  title: 'bee-bench: rs base → head',
  marker: 'bee-bench:rs',
  runner: 'rs',
  baseLabel: 'main',
  headLabel: 'pr',
  rows: [row],
  alpha: 0.02,
  threshold: 0.02,
  rounds: 12,
  profile: 'quick',
  env: { host: 'linux/x86_64', clientBase: 'bee-rs 1.7.0', clientHead: 'bee-rs 1.7.1', specHash: 'ab', wallTimeMs: 1 },
};

const outputs = (): Record<string, string> => {
  const { spec } = realSpec();
  const flat = (m: number) => [m, m, m];
  const one = (m: number) => caseResult({ id: 'cpu.keccak.bulk', param: { label: 'quick', count: 1 }, work: { ops: 1 }, samples_ns: flat(m) });
  const cmp = compareModels(aggregate([result('rs', [one(1000)])], spec), aggregate([result('rs', [one(1034)])], spec));
  const bisect = {
    good: { sha: 'a'.repeat(40), subject: 'good' },
    bad: { sha: 'b'.repeat(40), subject: 'bad' },
    range: [{ sha: 'b'.repeat(40), subject: 'bad' }],
    steps: [{ commit: { sha: 'b'.repeat(40), subject: 'bad' }, index: 0, ratio: SLOWER, ci: INTERVAL, verdict: 'regression', exceeds: true, elapsedMs: 1 }],
    first: { sha: 'b'.repeat(40), subject: 'bad' },
    elapsedMs: 1,
  } as unknown as BisectOutcome;
  const timeOnly = judgedRow(row.caseId, { wall: { judged: { ...wall, verdict: '~' } } }, { group: 'keccak', work: row.work, rounds: 12 });
  const key = { client: 'rs' as const, caseId: row.caseId, label: row.label };
  const links = { repoUrl: 'https://github.com/o/r', branch: 'main', historyRuns: 8 };
  return {
    'comment and job summary': renderAbComment(input),
    annotations: regressionAnnotations([row]).join('\n'),
    compare: renderCompareMarkdown(cmp),
    bisect: renderBisectMarkdown(bisect, { runner: 'rs', cases: [row.caseId], threshold: 0.02, measure: 'wall time' }),
    alert: alertBody(key, row, { since: null, first: 'b'.repeat(40), latest: 'b'.repeat(40), runs: 1 }, links),
    // A row judged on time (one with counts is judged, and recovers, on counts).
    'alert recovered': recoveredComment(timeOnly, 'c'.repeat(40), links),
  };
};

describe('every output words a change the same way', () => {
  it.each(Object.entries(outputs()))('%s says "3.4% slower" and no signed time change', (_name, text) => {
    expect(text).toContain('3.4% slower');
    expect(text).not.toMatch(/[+-]3\.4%/);
  });

  it('the comment words intervals and counts the same way', () => {
    const md = outputs()['comment and job summary']!;
    expect(md).toContain('1.2–5.7% slower');
    expect(md).toContain('7.2% more');
    expect(outputs().annotations).toContain('instructions 7.2% more');
  });

  it('every row shows its noise floor beside each change: the interval half-width, the A/A spread', () => {
    const md = renderAbComment({ ...input, rows: [{ ...row, evidence: { ...row.evidence, wall: { judged: { ...wall, ciHalfWidth: 0.0225 } } } }] });
    expect(md).toContain('| 3.4% slower ±2.3% |');
    expect(md).toContain('7.2% more ±0.01%');
  });

  it('the load note appears when the load moved, and not on a quiet run', () => {
    expect(renderAbComment(input)).not.toContain("machine's load moved");
    const loaded = renderAbComment({ ...input, env: { ...input.env, loadShift: { spread: 2.1, rows: 9, of: 10 } } });
    expect(loaded).toContain("⚠ The machine's load moved during the rounds: a side's round medians spread 2.1x");
  });
});
