// bee-js through `bee-bench ab --measure instructions` (abPipeline, as the CLI runs it): the
// registry package as base, as head a copy of it with a real change in bee-js's own code, made
// here at run time (each 32-byte BMT segment copied into an array of its own in
// calculateBmtRootHash, the function bee-js computes a chunk address with); one row counted
// under real valgrind. The head is a folder outside any node_modules, as a linked checkout is,
// so its functions must be recognised by their package, not by a node_modules path.
// - The flagged row's client list puts the changed function first, under its JavaScript name, with
//   the callback written in it folded in and at least 80% of the row's change; the client's
//   JavaScript functions explain at least 90% of it.
// - A/A, base against its second process: no function's own cost, and no client function's
//   folded cost, moves as far as the lists' floor (0.05% of the row).
// - A/A through `ab` with the same source on both sides, in `cpu.manifest.hash` (where a client
//   function's folded cost moves most between processes): whichever of the three processes is
//   taken as head, base or second base, the lists name no function.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aaOrderings, accountFor } from '../../bench/lib/profile-account.js';
import { defaultSpecPath } from '../../src/build/paths.js';
import { readDumps } from '../../src/count/callgrind.js';
import { abPipeline } from '../../src/ab/run.js';
import { LISTED_SHARE } from '../../src/profile/diff.js';
import { diffProfiles, profileOf } from '../../src/profile/index.js';
import { loadSpec } from '../../src/spec/load.js';
import { resolvePlan } from '../../src/spec/plan.js';
import { aaSpread } from '../../src/verdict/steps.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-js-ab-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MODULES = resolve('runners/js/node_modules');
const ROW = { caseId: 'cpu.keccak.chunk-hash', label: 'quick' };

/** The change: bee-js 12.1.0's dist/mjs/chunk/bmt.js, each segment copied before it is hashed. */
const UNCHANGED = 'return Binary.log2Reduce(Binary.partition(input, SEGMENT_SIZE), (a, b) => Binary.keccak256(Binary.concatBytes(a, b)));';
const CHANGED =
  'const segments = Binary.partition(input, SEGMENT_SIZE).map(segment => { const copy = new Uint8Array(SEGMENT_SIZE); copy.set(segment); return copy; });\n' +
  '  return Binary.log2Reduce(segments, (a, b) => Binary.keccak256(Binary.concatBytes(a, b)));';

/** A copy of the registry package with the change, its dependencies linked from the runner's. */
function patchedCopy(): string {
  const dir = join(work, 'bee-js');
  cpSync(join(MODULES, '@ethersphere', 'bee-js'), dir, { recursive: true });
  const bmt = join(dir, 'dist', 'mjs', 'chunk', 'bmt.js');
  const text = readFileSync(bmt, 'utf8');
  if (!text.includes(UNCHANGED)) throw new Error(`${bmt}: the line to change is not there (not bee-js 12.1.0?); run npm run test:setup`);
  writeFileSync(bmt, text.replace(UNCHANGED, CHANGED));
  mkdirSync(join(dir, 'node_modules'));
  for (const dep of readdirSync(MODULES)) {
    if (!dep.startsWith('.') && dep !== '@ethersphere') symlinkSync(join(MODULES, dep), join(dir, 'node_modules', dep));
  }
  return dir;
}

describe('bee-js: a real change through ab --measure instructions', () => {
  it('names the changed function first, by its JavaScript name; A/A lists no function', { timeout: 900_000 }, async () => {
    if (!existsSync(join(MODULES, '@ethersphere', 'bee-js'))) throw new Error('runners/js has no node_modules: run npm run test:setup');
    const head = patchedCopy();
    const outDir = join(work, 'out');
    const cases = [ROW.caseId];
    const out = await abPipeline({
      specFile: defaultSpecPath(),
      size: 'quick',
      cases,
      outDir,
      // A cache of its own: a build of a folder links to it, and this folder is gone after the test.
      cacheDir: join(work, 'cache'),
      log: () => {},
      runner: 'js',
      base: { kind: 'registry' },
      head: { kind: 'path', path: head },
      // The copy is built already: its build is the link.
      buildCommand: 'true',
      baseLabel: 'registry',
      headLabel: 'patched',
      rounds: 1,
      alpha: 0.05,
      threshold: 0.05,
      runBudgetMs: 600_000,
      measure: ['instructions'],
      // One copy per 32-byte segment is 0.87% of a bee-js chunk address (its Keccak is JavaScript):
      // flagged at 0.5%, as --instructions-threshold 0.005 does.
      thresholds: { instructions: 0.005 },
      keepRaw: true,
    });
    const row = out.report.input.rows.find((r) => r.caseId === ROW.caseId)!;
    expect(row.evidence.instructions?.judged?.verdict).toBe('regression');
    const diff = out.report.input.profiles?.find((d) => d.caseId === ROW.caseId);
    expect(diff).toBeDefined();
    // First among the client's functions: the changed function, with the new callback that copies
    // each segment (written in it, compiled by V8 as a function of its own) folded in, and at least
    // 80% of the row's change (#40).
    expect(diff!.own[0]!.name).toBe('calculateBmtRootHash @ethersphere/bee-js/dist/mjs/chunk/bmt.js');
    expect(diff!.own[0]!.via.join(' ')).toMatch(/Builtins_|«segment => \{ const copy = new Uint8Arra…» in calculateBmtRootHash/);
    // V8's start of the function (the line declaring it in bmt.js), and its moved lines from V8's
    // code log: the changed line, where the copying callback is written, new in head and dearer.
    const headLines = readFileSync(join(head, 'dist', 'mjs', 'chunk', 'bmt.js'), 'utf8').split('\n');
    const declaredAt = headLines.findIndex((l) => /function calculateBmtRootHash\b/.test(l)) + 1;
    const changedAt = headLines.findIndex((l) => l.includes('map(segment => { const copy')) + 1;
    expect(declaredAt).toBeGreaterThan(0);
    expect(diff!.own[0]!.start).toEqual({ file: '@ethersphere/bee-js/dist/mjs/chunk/bmt.js', line: declaredAt });
    expect(diff!.own[0]!.lines).toContainEqual(expect.objectContaining({ file: '@ethersphere/bee-js/dist/mjs/chunk/bmt.js', line: changedAt, only: 'head' }));
    const change = diff!.total.head - diff!.total.base;
    const own = diff!.own.reduce((s, l) => s + (l.head - l.base), 0);
    expect(own / change).toBeGreaterThanOrEqual(0.9);
    expect(diff!.own[0]!.head - diff!.own[0]!.base).toBeGreaterThanOrEqual(0.8 * change);
    // No machine path in any name: the head's folder is shown by its package.
    const names = [...diff!.self, ...diff!.own].map((l) => l.name).join('\n');
    expect(names).not.toContain(work);

    // A/A from the same run's two base processes; and every moved instruction of head is named.
    const { spec, hash } = loadSpec(defaultSpecPath());
    const plan = resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases });
    const raw = (run: string) => ({ dir: join(outDir, 'counts', `raw-${run}`), plan });
    const [base, again, patched] = ['base', 'baseAgain', 'head'].map((r) => profileOf('js', raw(r), ROW)!);
    const unit = plan.units.find((u) => u.id === ROW.caseId)!.unit;
    const spread = aaSpread(readDumps(raw('base').dir).get(unit)!, readDumps(raw('baseAgain').dir).get(unit)!);
    const aa = accountFor(base!, again!);
    // Measured (docs/profiles.md): own costs move up to about one spread, folded client costs a
    // few (a callee's slow paths land on another caller); neither reaches the lists' floor.
    const floor = LISTED_SHARE * base!.total;
    expect(spread).toBeLessThan(LISTED_SHARE);
    expect(Math.abs(aa.largestSelf.change), aa.largestSelf.name).toBeLessThan(floor);
    expect(Math.abs(aa.largestOwn.change), aa.largestOwn.name).toBeLessThan(floor);
    expect(accountFor(base!, patched!).namedShare).toBeGreaterThanOrEqual(0.99);
  });

  it('A/A: the same source as base and head lists no function, whichever process is head', { timeout: 900_000 }, async () => {
    const caseId = 'cpu.manifest.hash';
    const outDir = join(work, 'aa');
    const out = await abPipeline({
      specFile: defaultSpecPath(),
      size: 'quick',
      cases: [caseId],
      outDir,
      cacheDir: join(work, 'cache'),
      log: () => {},
      runner: 'js',
      base: { kind: 'registry' },
      head: { kind: 'registry' },
      baseLabel: 'registry',
      headLabel: 'registry',
      rounds: 1,
      alpha: 0.05,
      threshold: 0.05,
      runBudgetMs: 600_000,
      measure: ['instructions'],
      keepRaw: true,
      // Unflagged, profiled on request (--profile-case): the lists the comment would show.
      profileCases: [caseId],
    });
    const row = out.report.input.rows.find((r) => r.caseId === caseId)!;
    expect(row.evidence.instructions?.judged?.verdict).toBe('~');
    const shown = out.report.input.profiles?.find((d) => d.caseId === caseId);
    expect(shown).toBeDefined();
    expect([...shown!.self, ...shown!.own, ...(shown!.allocations ?? [])].map((l) => l.name)).toEqual([]);
    const { spec, hash } = loadSpec(defaultSpecPath());
    const plan = resolvePlan({ spec, specHash: hash, runner: 'js', profile: 'quick', cases: [caseId] });
    const ref = { caseId, label: String(plan.units[0]!.param.label) };
    const [a, b, c] = ['base', 'baseAgain', 'head'].map((r) => profileOf('js', { dir: join(outDir, 'counts', `raw-${r}`), plan }, ref)!);
    for (const [base, head, again] of aaOrderings([a!, b!, c!])) {
      const d = diffProfiles(base, head, ref, again);
      expect([...d.self, ...d.own, ...(d.allocations ?? [])].map((l) => l.name)).toEqual([]);
    }
  });
});
