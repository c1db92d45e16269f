// A PR measured as parallel pieces names where its flagged rows moved exactly as one job does:
// bee-rs built from a copy of the published crate whose BMT root is computed twice per chunk (a
// real change in the client's code), counted against the registry crate under real callgrind, in
// one job and as three pieces (instructions 1/2 and 2/2, one case each; allocations 1/1). The
// merged comment's "Where it moved" is the one job's: the same functions in the same order, the
// same allocation calls, every instruction figure within the listing floor (0.05% of the row; a
// process counting one case and one counting two differ by a few instructions in a billion),
// every flagged row's files are in the merged out/profiles and open in callgrind_annotate, the
// publish job's bundle validates them, and a piece listing another piece's row or holding a link
// among its files is refused or not carried.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBundle, writeBundle, BUNDLE_FILE } from '../../src/action/bundle.js';
import { parseSource } from '../../src/build/index.js';
import { abPipeline } from '../../src/ab/run.js';
import { flaggedOn } from '../../src/verdict/index.js';
import { ROW_FILES, rowFolder, type ProfileDiff } from '../../src/profile/index.js';
import { LISTED_SHARE } from '../../src/profile/diff.js';
import { DETAIL_LINES, renderProfileSection } from '../../src/report/render/profile-details.js';
import { costModel } from '../../src/shard/commands.js';
import { AB_PIECE_FILE, mergePieces, piecesOfSplit, pieceText, runPiece } from '../../src/ab/pieces.js';
import type { Measure } from '../../src/spec/measure.js';
import { beeRsCrateDir, slowDownBmt } from '../action/client-repo.js';
import { rsAbOptions, specFile, type RsAb } from './rs-ab-options.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-piece-profiles-'));
const cases = ['cpu.keccak.chunk-hash', 'cpu.bmt.file-root'];
const measure: Measure = ['instructions', 'allocations'];
const split = { instructions: 2, allocations: 1 };

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the comment shows of a row besides its figures: the lines' names, marks and order. */
const shown = (d: ProfileDiff) => ({
  row: `${d.caseId} ${d.label}`,
  self: d.self.slice(0, DETAIL_LINES).map((l) => `${l.name} ${l.status ?? ''}`),
  own: d.own.slice(0, DETAIL_LINES).map((l) => `${l.name} ${l.status ?? ''} via ${l.via.join(', ')}`),
  allocations: d.allocations?.slice(0, DETAIL_LINES) ?? null,
});

/** The largest distance between the shown instruction figures of two differences of a row, as a share of the row. */
function figureDistance(a: ProfileDiff, b: ProfileDiff): number {
  const figures = (d: ProfileDiff) => [
    d.total.base,
    d.total.head,
    ...d.self.slice(0, DETAIL_LINES).flatMap((l) => [l.base, l.head]),
    ...d.own.slice(0, DETAIL_LINES).flatMap((l) => [l.base, l.head]),
  ];
  const [x, y] = [figures(a), figures(b)];
  expect(y).toHaveLength(x.length);
  const gaps = x.map((v, i) => Math.abs(v - y[i]!));
  const at = gaps.indexOf(Math.max(...gaps));
  console.log(`${a.caseId}: largest gap ${gaps[at]!.toFixed(1)} instructions (figure ${at}: ${x[at]} vs ${y[at]})`);
  return gaps[at]! / Math.max(a.total.base, a.total.head);
}

/** The rendered section with every figure masked: its text otherwise (names, marks, layout). */
const masked = (md: string) => md.replace(/[+−]?\d[\d,.]*%?/g, '#');

describe('profiles of a PR measured as parallel pieces', { timeout: 2_400_000 }, () => {
  it('carry the flagged rows’ “Where it moved” and files of one job through the merge', async () => {
    const slow = join(work, 'bee-rs-slow');
    cpSync(beeRsCrateDir(), slow, { recursive: true, filter: (src) => !src.endsWith('.cargo-ok') });
    slowDownBmt(slow);
    const ab: RsAb = { cases, base: parseSource('registry'), head: parseSource(slow), baseLabel: 'registry', headLabel: 'bmt twice', rounds: 1, measure };
    const options = (outDir: string) => rsAbOptions(ab, outDir);

    const single = await abPipeline(options(join(work, 'single')));
    const oneJob = single.report.input.profiles ?? [];
    // The change flags both rows, and the profile puts the BMT's functions first (the root computed
    // twice: bmt_root, no longer inlined into calculate_chunk_address once it is called twice).
    expect(flaggedOn(single.report.input.rows, 'instructions').map((r) => r.caseId)).toEqual(expect.arrayContaining(cases));
    expect(oneJob.map((d) => d.caseId).sort()).toEqual([...cases].sort());
    for (const d of oneJob) expect(d.own[0]?.name).toMatch(/^bee::swarm::bmt::(bmt_root|calculate_chunk_address)$/);

    const model = costModel({ specFile, runners: ['rs'], size: 'quick', cases, large: false, evidences: [...measure] });
    const dirs: string[] = [];
    for (const piece of piecesOfSplit(measure, split)) {
      const dir = join(work, `piece-${pieceText(piece).replace(/[:/]/g, '-')}`);
      const got = await runPiece({ ...options(dir), piece, split, model, prebuilt: true });
      dirs.push(dir);
      // A count piece profiles the row its own counts flag; an allocation piece runs no callgrind.
      if (piece.evidence === 'instructions') {
        expect(got.cases).toHaveLength(1);
        expect(got.profiles?.diffs.map((d) => d.caseId)).toEqual(got.cases);
        expect(existsSync(join(dir, 'counts', 'raw-base'))).toBe(false);
      } else expect(got.profiles).toBeUndefined();
    }

    const mergedDir = join(work, 'merged');
    const merged = mergePieces(dirs, { specFile, outDir: mergedDir });
    expect(merged.missing).toEqual([]);
    expect(merged.profiles?.problems).toEqual([]);
    // Same rows in the same order, the same functions and allocation calls, figures within the floor.
    const pieces = merged.report.input.profiles ?? [];
    expect(pieces.map(shown)).toEqual(oneJob.map(shown));
    const distances = oneJob.map((d, i) => figureDistance(d, pieces[i]!));
    console.log(`largest figure distance, one job vs pieces, share of the row: ${distances.map((x) => x.toExponential(1)).join(', ')}`);
    for (const x of distances) expect(x).toBeLessThanOrEqual(LISTED_SHARE);
    // Both comments render their section; with the figures masked the two are the same text.
    const sections = [oneJob, pieces].map((d) => renderProfileSection(d, Number.MAX_SAFE_INTEGER)!);
    expect(sections[0]).toContain('bee::swarm::bmt::');
    expect(single.report.markdown).toContain(sections[0]);
    expect(merged.report.markdown).toContain(sections[1]);
    expect(masked(sections[1]!)).toBe(masked(sections[0]!));
    // Every flagged row's files, as one job writes them; diff.json is the list the comment shows.
    for (const d of pieces) {
      const folder = join(mergedDir, 'profiles', rowFolder(d));
      for (const name of ROW_FILES) expect(existsSync(join(folder, name)), join(folder, name)).toBe(true);
      expect(JSON.parse(readFileSync(join(folder, 'diff.json'), 'utf8'))).toEqual(d);
      const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', join(folder, 'callgrind.out.head')], { encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(annotated).toContain('bee::swarm::bmt::');
    }
    const abJson = JSON.parse(readFileSync(join(mergedDir, 'ab.json'), 'utf8')) as {
      profileMs?: number;
      pieces: Array<{ piece: string; elapsed_s: number; profile_s?: number }>;
    };
    for (const p of abJson.pieces) console.log(`${p.piece}: ${p.elapsed_s.toFixed(1)} s, profiles ${p.profile_s?.toFixed(2) ?? '-'} s`);
    expect(abJson.profileMs).toBeGreaterThan(0);
    expect(abJson.pieces.filter((p) => p.profile_s !== undefined)).toHaveLength(2);

    // The publish job reads the lists from the merge's bundle only, validated.
    const sha = (c: string) => c.repeat(40);
    writeBundle(mergedDir, { client: 'rs', pr: 7, head_sha: sha('a'), base_sha: sha('b'), workflow: 'bench' }, { kind: 'report', report: merged.report.input });
    const bundle = parseBundle(readFileSync(join(mergedDir, BUNDLE_FILE)));
    expect(bundle.outcome.kind === 'report' ? bundle.outcome.report.profiles : null).toEqual(pieces);

    // A piece that lists a row it did not measure is refused, naming its file and field.
    const [first, second] = dirs.filter((d) => d.includes('instructions'));
    const forged = join(work, 'forged');
    cpSync(first!, forged, { recursive: true });
    const pieceFile = join(forged, AB_PIECE_FILE);
    const text = readFileSync(pieceFile, 'utf8');
    const other = JSON.parse(readFileSync(join(second!, AB_PIECE_FILE), 'utf8')) as { profiles: { diffs: unknown[] } };
    const doc = JSON.parse(text) as { profiles: { diffs: unknown[] } };
    doc.profiles.diffs = [...other.profiles.diffs, ...doc.profiles.diffs];
    writeFileSync(pieceFile, JSON.stringify(doc));
    expect(() => mergePieces([forged, second!, dirs.at(-1)!], { specFile, outDir: join(work, 'forged-out') })).toThrow(
      /piece\.json: profiles\.diffs\[0\]: row .* is not among the piece's cases/,
    );
    // A link among a piece's files is not followed: named, and the row keeps its other files.
    writeFileSync(pieceFile, text);
    const own = (JSON.parse(text) as { cases: string[] }).cases[0]!;
    const html = join(forged, 'profiles', rowFolder({ caseId: own, label: 'quick' }), 'diff.html');
    unlinkSync(html);
    symlinkSync(join(work, 'single', 'ab.md'), html);
    const linked = mergePieces([forged, second!, dirs.at(-1)!], { specFile, outDir: join(work, 'linked-out') });
    expect(linked.profiles?.problems).toEqual([`${html}: not a plain file, not carried`]);
    expect(existsSync(join(work, 'linked-out', 'profiles', rowFolder({ caseId: own, label: 'quick' }), 'diff.html'))).toBe(false);
    expect(linked.report.input.profiles).toEqual(pieces);
  });
});
