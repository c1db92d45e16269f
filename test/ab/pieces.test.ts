// A PR's A/B measured as parallel pieces (wall time in one, counts and allocations split by case)
// and merged gives the verdicts one job gives for the same two sources: real bee-rs builds, real
// callgrind, real allocation accounting. A missing piece is named.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSource } from '../../src/build/index.js';
import { abPipeline } from '../../src/ab/run.js';
import { costModel } from '../../src/shard/commands.js';
import { mergePieces, parsePieceRef, piecesOfSplit, pieceText, runPiece } from '../../src/ab/pieces.js';
import type { Measure } from '../../src/spec/measure.js';

/** The evidences this A/B runs (estimated cycles, a cache-simulating counting run, is left out for time). */
const MEASURES: Measure = ['wall', 'instructions', 'allocations'];
import type { AbRow } from '../../src/verdict/index.js';
import { NOISE_FLOOR } from '../../src/verdict/steps.js';
import { rsAbOptions, specFile, type RsAb } from './rs-ab-options.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-pieces-'));
const cases = ['cpu.keccak.*'];
const source = parseSource('registry');
const ab: RsAb = { cases, base: source, head: source, baseLabel: 'base', headLabel: 'head', rounds: 6, measure: MEASURES };
const options = (outDir: string) => rsAbOptions(ab, outDir);

/** What must agree: per row its status and each evidence's verdict. */
const verdicts = (rows: readonly AbRow[]) =>
  rows.map((r) => ({
    row: `${r.caseId} ${r.label}`,
    status: r.status,
    wall: r.evidence.wall?.judged?.verdict,
    instructions: r.evidence.instructions?.judged?.verdict,
    allocations: r.evidence.allocations?.judged?.verdict,
  }));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('parsePieceRef', () => {
  it('reads wall and K/N pieces of the other evidences, and refuses the rest', () => {
    expect(parsePieceRef('wall')).toEqual({ evidence: 'wall', index: 1, total: 1 });
    expect(parsePieceRef('instructions:2/3')).toEqual({ evidence: 'instructions', index: 2, total: 3 });
    for (const bad of ['wall:1/2', 'instructions:4/3', 'instructions:0/3', 'time', 'allocations:1'] as const) expect(parsePieceRef(bad), bad).toBeNull();
    expect(piecesOfSplit(MEASURES, { instructions: 2, allocations: 2 }).map(pieceText)).toEqual([
      'wall',
      'instructions:1/2',
      'instructions:2/2',
      'allocations:1/2',
      'allocations:2/2',
    ]);
  });
});

describe('a PR measured as parallel pieces', { timeout: 2_400_000 }, () => {
  it('gives the verdicts of one job, and names a missing piece', async () => {
    const single = await abPipeline(options(join(work, 'single')));
    const split = { instructions: 2, allocations: 2 };
    const model = costModel({ specFile, runners: ['rs'], size: 'quick', cases, large: false, evidences: [...MEASURES] });
    const dirs: string[] = [];
    const measured: string[][] = [];
    for (const piece of piecesOfSplit(MEASURES, split)) {
      const dir = join(work, `piece-${pieceText(piece).replace(/[:/]/g, '-')}`);
      const got = await runPiece({ ...options(dir), piece, split, model, prebuilt: true });
      dirs.push(dir);
      if (piece.evidence !== 'wall') measured.push(got.cases);
    }
    // Each deterministic evidence's two pieces share its three cases without overlap.
    expect(measured.map((c) => c.length).sort()).toEqual([1, 1, 2, 2]);
    expect([...measured[0]!, ...measured[1]!].sort()).toEqual(['cpu.keccak.bulk', 'cpu.keccak.chunk-hash', 'cpu.keccak.parallel']);

    const merged = mergePieces(dirs, { specFile, outDir: join(work, 'merged') });
    expect(merged.missing).toEqual([]);
    const rows = merged.report.input.rows;
    expect(verdicts(rows)).toEqual(verdicts(single.report.input.rows));
    expect(rows.filter((r) => r.evidence.instructions?.judged).length).toBeGreaterThan(2);
    expect(rows.filter((r) => r.evidence.allocations?.judged).length).toBeGreaterThan(2);
    // The comment's deterministic columns: the same rows, each head/base within the row's A/A
    // spread or the repeatability the count rule allows between processes (NOISE_FLOOR), whichever
    // is larger: `keccak.parallel`'s threads, serialised by valgrind, once put one head process
    // 1.9e-4 from the other run while both runs' two base processes agreed to 1e-6.
    for (const [i, r] of rows.entries()) {
      const one = single.report.input.rows[i]!;
      const [ri, oi] = [r.evidence.instructions!.judged!, one.evidence.instructions!.judged!];
      expect(Math.abs(ri.ratio - oi.ratio)).toBeLessThanOrEqual(Math.max(2 * Math.max(ri.spread, oi.spread), NOISE_FLOOR) + 1e-12);
      const [ra, oa] = [r.evidence.allocations!.judged!.bytes, one.evidence.allocations!.judged!.bytes];
      expect(Math.abs(ra.ratio - oa.ratio)).toBeLessThanOrEqual(2 * Math.max(ra.spread, oa.spread) + 1e-12);
    }
    expect(merged.report.markdown).toContain('bee-bench: rs base → head');

    const lost = mergePieces(
      dirs.filter((d) => !d.endsWith('instructions-2-2')),
      { specFile, outDir: join(work, 'partial') },
    );
    expect(lost.missing).toEqual(['instructions:2/2']);
  });
});
