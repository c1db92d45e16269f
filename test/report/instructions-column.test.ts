// The comment with instruction counts beside wall time: both columns, which evidence flagged a
// row, a wall-time regression never hidden by counts, and fail-on picking the evidence.
import { describe, expect, it } from 'vitest';
import { failingRows, failsOn, INSTRUCTION_DEFAULTS, judgeSteps } from '../../src/verdict/index.js';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { AbRowSchema, countRows, type AbRow, type RowEvidence, type StepVerdict, type Verdict } from '../../src/verdict/index.js';
import { judgedRow, wallVerdict } from '../verdict/ab-rows.js';
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
type Counts = ReturnType<typeof counts> | StepVerdict;
/** A keccak row: wall time judged, and its counts (a verdict, or the note of a row not counted); `more` adds other evidences. */
const row = (caseId: string, wall: Verdict, instructions?: Counts | string, more: RowEvidence = {}): AbRow =>
  judgedRow(
    caseId,
    {
      wall: {
        judged: wallVerdict(wall === 'regression' ? 1.05 : 1.001, 0.5, wall, { headMedianNs: 1e6, ci: [0.99, 1.01], q: wall === 'regression' ? 0.001 : 0.6 }),
      },
      ...(typeof instructions === 'string' ? { instructions: { note: instructions } } : instructions ? { instructions: { judged: instructions } } : {}),
      ...more,
    },
    { group: 'keccak', work: {}, rounds: 12 },
  );

const rows = [
  row('cpu.keccak.bulk', '~', counts(1.012, 'regression')),
  row('cpu.bmt.file-root', 'regression', counts(1.0001, '~')),
  row('cpu.ecdsa.sign', '~', counts(1.0001, '~')),
  row('cpu.identity.create', '~', 'not counted in head'),
  judgedRow('net.stamps.list', {}, { label: '1 call', group: 'stamps', kind: 'net', work: {}, rounds: 12 }),
];

const input = abInput(rows, {
  title: 'bee-bench: rs base → head',
  marker: 'bee-bench:rs',
  runner: 'rs',
  env: { wallTimeMs: 300_000, settings: { instructions: { counter: 'callgrind (valgrind-3.19.0)', threshold: 0.01, ms: 180_000 } } },
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
      env: { wallTimeMs: 1, settings: { instructions: { counter: 'callgrind', threshold: INSTRUCTION_DEFAULTS.floor, ms: 1 } } },
    });
    const out = renderAbComment(judged);
    expect(out).toMatch(/`cpu\.keccak\.bulk`.*0\.6% more ±0\.00% 🔴 \(threshold ±0\.50%\)/);
    expect(out).toMatch(/`cpu\.harness\.noop`.*0\.6% more ±0\.12% ⚪ \(threshold ±1\.2%\)/);
    expect(out).toContain('the larger of the floor ±0.5% and ten times its A/A spread');
    // ab.json's rows carry it, and a file read back keeps it.
    expect(AbRowSchema.parse(JSON.parse(JSON.stringify(judged.rows[1]))).evidence.instructions?.judged?.threshold).toBeCloseTo(0.01246, 5);
  });

  it('counts a regression in either evidence: counts never hide a wall-time regression', () => {
    expect(countRows(rows)).toMatchObject({ regressions: 2, unchanged: 3 });
  });

  it('says so when counts were asked for and could not be taken', () => {
    const off = renderAbComment({
      ...input,
      rows: rows.map((r) => ({ ...r, evidence: { wall: r.evidence.wall } })),
      env: { ...input.env, settings: { instructions: { counter: null, threshold: 0.01, ms: 0, unavailable: 'valgrind is not installed' } } },
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
    expect(() => AbRowSchema.parse({ ...rows[0], evidence: { ...rows[0]!.evidence, instructions: { judged: { ...counts(1, '~'), extra: 1 } } } })).toThrow();
    // A row whose own verdict is not the one its evidence gives is refused, naming the field.
    expect(() => AbRowSchema.parse({ ...rows[0], verdict: '~' })).toThrow(/verdict.*evidence gives regression/s);
  });
});

describe('estimated cycles, the fourth evidence, in the A/B comment', () => {
  // A copy that stays in L1 moves counts; a change in how data meets the caches moves only cycles.
  const cyclesRows = [
    row('cpu.keccak.bulk', '~', counts(1.0001, '~'), { cycles: { judged: counts(1.031, 'regression') } }),
    row('cpu.ecdsa.sign', '~', counts(1.0001, '~'), { cycles: { judged: counts(1.0002, '~') } }),
    row('cpu.identity.create', '~', counts(1.0001, '~'), { cycles: { note: 'not counted in head' } }),
  ];
  const md = renderAbComment(
    abInput(cyclesRows, {
      title: 'bee-bench: rs base → head',
      marker: 'bee-bench:rs',
      runner: 'rs',
      env: {
        wallTimeMs: 300_000,
        settings: {
          instructions: { counter: 'callgrind (valgrind-3.19.0)', threshold: 0.005, ms: 60_000 },
          cycles: { threshold: 0.005, counter: 'callgrind cache simulation (valgrind-3.19.0)', ms: 240_000 },
        },
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
