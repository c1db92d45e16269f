// The comment with instruction counts beside wall time: both columns, which evidence flagged a
// row, a wall-time regression never hidden by counts, and fail-on picking the evidence.
import { describe, expect, it } from 'vitest';
import { failingRows, failsOn, INSTRUCTION_DEFAULTS, judgeSteps } from '../../src/verdict/index.js';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { AbRowSchema, countRows, type AbRow } from '../../src/verdict/index.js';
import { abInput } from './fixtures.js';

const counts = (ratio: number, verdict: 'regression' | 'improvement' | '~') => ({
  base: 1e9,
  head: 1e9 * ratio,
  ratio,
  spread: 0.0001,
  threshold: 0.01,
  bar: 0.01,
  verdict,
});
const row = (caseId: string, wall: AbRow['verdict'], instructions?: AbRow['instructions'], extra: Partial<AbRow> = {}): AbRow => ({
  caseId,
  label: 'quick',
  group: 'keccak',
  kind: 'cpu',
  status: 'ok',
  work: {},
  rounds: 12,
  baseMedianNs: 1e6,
  headMedianNs: 1e6,
  ratio: wall === 'regression' ? 1.05 : 1.001,
  ci: [0.99, 1.01],
  p: 0.5,
  q: wall === 'regression' ? 0.001 : 0.6,
  verdict: wall,
  ...(instructions ? { instructions } : {}),
  ...extra,
});

const rows = [
  row('cpu.keccak.bulk', '~', counts(1.012, 'regression')),
  row('cpu.bmt.file-root', 'regression', counts(1.0001, '~')),
  row('cpu.ecdsa.sign', '~', counts(1.0001, '~')),
  row('cpu.identity.create', '~', undefined, { instructionsNote: 'not counted in head' }),
  { caseId: 'net.stamps.list', label: '1 call', group: 'stamps', kind: 'net' as const, status: 'ok' as const, work: {}, rounds: 12, verdict: '~' as const },
];

const input = abInput(rows, {
  title: 'bee-bench: rs base → head',
  marker: 'bee-bench:rs',
  runner: 'rs',
  env: { wallTimeMs: 300_000, measure: { wallMs: 120_000, countMs: 180_000, counter: 'callgrind (valgrind-3.19.0)', threshold: 0.01 } },
});

describe('instruction counts in the A/B comment', () => {
  const md = renderAbComment(input);

  it('shows both columns and says which evidence flagged each row', () => {
    expect(md).toContain('| instructions | flagged by |');
    expect(md).toMatch(/`cpu\.keccak\.bulk`.*1\.2% more ±0\.01% 🔴 \(threshold ±1\.0%\) \| instructions \| 🔴 regression/);
    expect(md).toMatch(/`cpu\.bmt\.file-root`.*no change ±0\.01% ⚪ \(threshold ±1\.0%\) \| wall time \| 🔴 regression/);
    expect(md).toMatch(/`cpu\.identity\.create`.*— \(not counted in head\)/);
    expect(md).toMatch(/`net\.stamps\.list`.*not counted \(net\)/);
    expect(md).toContain('Counts do not see memory, cache or I/O effects');
    expect(md).toContain('of which counting instructions');
  });

  it("gives each row's own threshold from its A/A spread: the floor on a quiet row, ten spreads on a noisy one", () => {
    // judgeSteps at the default floor: a quiet row (spread 0) and bee-js noop's (0.125%), both +0.6%.
    const quiet = judgeSteps([1e9], [1e9], [1.006e9], INSTRUCTION_DEFAULTS);
    const noisy = judgeSteps([61_000], [61_076], [61_404], INSTRUCTION_DEFAULTS);
    const judged = abInput([row('cpu.keccak.bulk', '~', quiet), row('cpu.harness.noop', '~', noisy)], {
      title: 't',
      marker: 'm',
      runner: 'js',
      env: { wallTimeMs: 1, measure: { wallMs: 1, countMs: 1, counter: 'callgrind', threshold: INSTRUCTION_DEFAULTS.floor } },
    });
    const out = renderAbComment(judged);
    expect(out).toMatch(/`cpu\.keccak\.bulk`.*0\.6% more ±0\.00% 🔴 \(threshold ±0\.50%\)/);
    expect(out).toMatch(/`cpu\.harness\.noop`.*0\.6% more ±0\.12% ⚪ \(threshold ±1\.2%\)/);
    expect(out).toContain('the larger of the floor ±0.5% and ten times its A/A spread');
    // ab.json's rows carry it, and a file read back keeps it.
    expect(AbRowSchema.parse(JSON.parse(JSON.stringify(judged.rows[1]))).instructions?.threshold).toBeCloseTo(0.01246, 5);
  });

  it('counts a regression in either evidence: counts never hide a wall-time regression', () => {
    expect(countRows(rows)).toMatchObject({ regressions: 2, unchanged: 3 });
  });

  it('says so when counts were asked for and could not be taken', () => {
    const off = renderAbComment({
      ...input,
      rows: rows.map(({ instructions: _i, ...r }) => r),
      env: { ...input.env, measure: { wallMs: 1, countMs: 0, counter: null, unavailable: 'valgrind is not installed', threshold: 0.01 } },
    });
    expect(off).toContain('Instruction counts were asked for but not taken: valgrind is not installed');
  });

  it('lets fail-on pick the evidence', () => {
    const [byCounts, byWall] = rows;
    expect([failsOn(byCounts!, 'any'), failsOn(byCounts!, 'wall'), failsOn(byCounts!, 'instructions')]).toEqual([true, false, true]);
    expect([failsOn(byWall!, 'any'), failsOn(byWall!, 'wall'), failsOn(byWall!, 'instructions')]).toEqual([true, true, false]);
  });

  it('validates rows with counts read back from an artifact', () => {
    expect(AbRowSchema.parse(rows[0])).toEqual(rows[0]);
    expect(() => AbRowSchema.parse({ ...rows[0], instructions: { ...counts(1, '~'), extra: 1 } })).toThrow();
  });
});

describe('estimated cycles, the fourth evidence, in the A/B comment', () => {
  // A copy that stays in L1 moves counts; a change in how data meets the caches moves only cycles.
  const cyclesRows = [
    row('cpu.keccak.bulk', '~', counts(1.0001, '~'), { cycles: counts(1.031, 'regression') }),
    row('cpu.ecdsa.sign', '~', counts(1.0001, '~'), { cycles: counts(1.0002, '~') }),
    row('cpu.identity.create', '~', counts(1.0001, '~'), { cyclesNote: 'not counted in head' }),
  ];
  const md = renderAbComment(
    abInput(cyclesRows, {
      title: 'bee-bench: rs base → head',
      marker: 'bee-bench:rs',
      runner: 'rs',
      env: {
        wallTimeMs: 300_000,
        measure: { wallMs: 0, countMs: 60_000, counter: 'callgrind (valgrind-3.19.0)', threshold: 0.005 },
        cycles: { threshold: 0.005, counter: 'callgrind cache simulation (valgrind-3.19.0)', ms: 240_000 },
      },
    }),
  );

  it('gets its own column, rule line, note and time line from its view, and flags a row on its own', () => {
    expect(md).toContain('| instructions | est. cycles | flagged by |');
    expect(md).toMatch(
      /`cpu\.keccak\.bulk`.*no change ±0\.01% ⚪ \(threshold ±1\.0%\) \| 3\.1% more ±0\.01% 🔴 \(threshold ±1\.0%\) \| estimated cycles \| 🔴 regression/,
    );
    expect(md).toMatch(/`cpu\.identity\.create`.*\| — \(not counted in head\) \|/);
    expect(md).toContain('Estimated cycles (callgrind cache simulation (valgrind-3.19.0)): a row flags a change reaching its threshold');
    expect(md).toContain('est. cycles = head/base estimated cycles per timed iteration');
    expect(md).toMatch(/of which counting estimated cycles \| 4\.0 min/);
    expect(failingRows(cyclesRows, 'cycles').regressions).toBe(1);
    expect(failingRows(cyclesRows, 'instructions').regressions).toBe(0);
  });
});
