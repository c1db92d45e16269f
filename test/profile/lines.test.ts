// Source lines on real changes, in real dumps: a runner built as the engine builds it (bee-rs with
// its release line tables), counted under callgrind with its dumps kept, base twice and head once,
// in `cpu.keccak.chunk-hash`. Head is a copy of the client's source with a change made here at run
// time, each in a helper the compiler inlines:
// - bee-rs 1.7.0 (the registry crate's source, which the base build fetched): the left half of
//   each BMT pair copied to the heap in `bmt_root`'s closure (`let left = pair[0].to_vec();`),
//   `bmt_root` itself inlined into `calculate_chunk_address`;
// - bee-go (BEE_GO_PATH): each BMT segment copied by a new one-line helper, `segmentCopy`, that Go
//   inlines into `calculateBMTRoot`.
// The listed client function's first moved line is an edited one, in the edited file; the copy's line is named by
// the function whose source holds it, with no path of this machine; the second base process keeps
// every unchanged line out; the callgrind file written from head carries the lines, and the real
// callgrind_annotate, given the checkout, prints the edited source line with its instructions.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callgrindText } from '../../src/profile/callgrind-write.js';
import { diffProfiles } from '../../src/profile/diff.js';
import { displayName } from '../../src/profile/names.js';
import { dumpsByUnit, rowProfile, type RowProfile } from '../../src/profile/row-profile.js';
import { ProfileDiffSchema } from '../../src/profile/schema.js';
import type { Runner } from '../../src/spec/schema.js';
import { countedDumps, type CountedDumps } from './real-dumps.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROW = 'cpu.keccak.chunk-hash';

interface Change {
  runner: Runner;
  /** The base's source, and where the client's source to copy for head is (after base was built). */
  base: string;
  sourceDir: () => string;
  file: string;
  /** Texts replaced (each once in the file) and what replaces them. */
  edits: Array<{ from: string; to: string }>;
  /** The copy's line (its text), the function its code is named by, the client function listed first. */
  moved: { text: string; function: RegExp; listed: string };
}

/** The registry's bee-rs source as cargo unpacked it for the base build (the version runners/rs/Cargo.lock pins). */
function registryBeeRs(): string {
  const version = /name = "bee-rs"\nversion = "([^"]+)"/.exec(readFileSync(resolve('runners/rs/Cargo.lock'), 'utf8'))?.[1];
  const registry = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'src');
  for (const index of existsSync(registry) ? readdirSync(registry) : []) {
    const dir = join(registry, index, `bee-rs-${version}`);
    if (existsSync(dir)) return dir;
  }
  throw new Error(`bee-rs ${version} is not unpacked under ${registry}: the registry build should have fetched it`);
}

const CHANGES: Change[] = [
  {
    runner: 'rs',
    base: 'registry',
    sourceDir: registryBeeRs,
    file: 'src/swarm/bmt.rs',
    edits: [{ from: '                h.update(pair[0]);\n', to: '                let left = pair[0].to_vec();\n                h.update(&left);\n' }],
    moved: { text: 'let left = pair[0].to_vec();', function: /^bmt_root::\{closure/, listed: 'bee::swarm::bmt::calculate_chunk_address' },
  },
  ...(process.env.BEE_GO_PATH
    ? [
        {
          runner: 'go' as const,
          base: process.env.BEE_GO_PATH,
          sourceDir: () => process.env.BEE_GO_PATH!,
          file: 'pkg/swarm/bmt.go',
          edits: [
            { from: 'segments[i] = payload[i*SegmentSize : (i+1)*SegmentSize]', to: 'segments[i] = segmentCopy(payload[i*SegmentSize : (i+1)*SegmentSize])' },
            {
              from: '// NewHasher returns a new Keccak256 hasher.',
              to: '// segmentCopy returns a copy of one segment.\nfunc segmentCopy(s []byte) []byte { return append([]byte(nil), s...) }\n\n// NewHasher returns a new Keccak256 hasher.',
            },
          ],
          moved: {
            text: 'func segmentCopy(s []byte) []byte { return append([]byte(nil), s...) }',
            function: /^segmentCopy$/,
            listed: 'swarm.calculateBMTRoot',
          },
        },
      ]
    : []),
];

/** A copy of the client's source with the change. */
function changedCopy(c: Change): string {
  const dir = join(work, `${c.runner}-head`);
  cpSync(c.sourceDir(), dir, { recursive: true, filter: (src) => !/[/\\](?:target|\.git)$/.test(src) });
  const path = join(dir, c.file);
  let text = readFileSync(path, 'utf8');
  for (const e of c.edits) {
    if (text.split(e.from).length !== 2) throw new Error(`${path}: the text to change is not there once: ${JSON.stringify(e.from)}`);
    text = text.replace(e.from, e.to);
  }
  writeFileSync(path, text);
  return dir;
}

const profileOfRow = (runner: Runner, d: CountedDumps): RowProfile => {
  const unit = d.plan.units.find((u) => u.id === ROW)?.unit;
  const files = unit === undefined ? undefined : dumpsByUnit(d.dir).get(unit);
  if (!files) throw new Error(`${d.dir}: no dumps of ${ROW}`);
  return rowProfile(runner, files);
};

describe.each(CHANGES)('source lines of a real $runner change', (c) => {
  it('lists the edited line first under the changed function, named by its own function; callgrind_annotate shows it', { timeout: 1_800_000 }, async () => {
    const base = await countedDumps(c.runner, c.base, {}, [ROW]);
    const head = changedCopy(c);
    const [again, changed] = await Promise.all([countedDumps(c.runner, c.base, {}, [ROW]), countedDumps(c.runner, head, {}, [ROW])]);
    const sides = { base: profileOfRow(c.runner, base), again: profileOfRow(c.runner, again), head: profileOfRow(c.runner, changed) };
    const diff = ProfileDiffSchema.parse(diffProfiles(sides.base, sides.head, { caseId: ROW, label: 'quick' }, sides.again));

    const headLines = readFileSync(join(head, c.file), 'utf8').split('\n');
    const numberOf = (text: string) => headLines.findIndex((l) => l.includes(text)) + 1;
    // Head's edited lines: every line of the replacing texts.
    const edited = new Set(
      c.edits.flatMap((e) =>
        e.to
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => numberOf(l.trim())),
      ),
    );
    expect(numberOf(c.moved.text)).toBeGreaterThan(0);
    expect(diff.own[0]!.name, JSON.stringify(diff.own.map((o) => o.name))).toBe(c.moved.listed);
    const listed = diff.own[0]!;
    const lines = listed.lines ?? [];
    // First: a line the change edited, new in head, in the edited file.
    expect(lines[0], JSON.stringify(lines)).toMatchObject({ file: c.file, only: 'head', base: 0 });
    expect(edited.has(lines[0]!.line), `${lines[0]!.line} among the edited lines ${[...edited].join(', ')}`).toBe(true);
    // The copy's own line is listed, named by the function whose code it is (the inlined helper or closure).
    const copy = lines.find((l) => l.line === numberOf(c.moved.text));
    expect(copy, JSON.stringify(lines)).toMatchObject({ file: c.file, only: 'head', base: 0 });
    expect(copy!.function).toMatch(c.moved.function);
    // The edited lines together carry at least the function's change (what they cost moved there from nowhere else).
    const atEdits = lines.filter((l) => l.only === 'head').reduce((sum, l) => sum + l.head - l.base, 0);
    expect(atEdits).toBeGreaterThan(0.9 * (listed.head - listed.base));
    // No line of the function moved between the two base processes: every listed line is at an edit.
    const aa = ProfileDiffSchema.parse(diffProfiles(sides.base, sides.again, { caseId: ROW, label: 'quick' }));
    for (const o of aa.own) expect(o.lines ?? [], o.name).toEqual([]);
    // Paths from the client's root: nothing of this machine in the lists or the written callgrind file.
    const text = callgrindText(sides.head, ROW, (fn) => displayName(c.runner, fn));
    for (const s of [JSON.stringify(diff), text]) {
      expect(s).not.toContain(work);
      expect(s).not.toContain(homedir());
    }
    const written = join(work, `callgrind.out.${c.runner}`);
    writeFileSync(written, text);
    const annotated = execFileSync('callgrind_annotate', ['--auto=yes', `--include=${head}`, written], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const shown = annotated.split('\n').find((l) => l.includes(c.moved.text));
    expect(shown, 'callgrind_annotate printed the edited line').toBeDefined();
    // With instructions counted at it (callgrind_annotate prints the count before the source line).
    const count = Number(/^\s*([\d,]+)/.exec(shown!)?.[1]?.replace(/,/g, '') ?? NaN);
    expect(count, shown).toBeGreaterThan(0);
  });
});
