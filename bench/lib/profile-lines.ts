// Where a patch-set change's expected source line lands, read from the row's diff.json (the
// product's own lists, what the comment and the HTML view show: each client function's moved
// lines, top five, largest change first; a bee-js function without optimized code only its start), for
// bench/profile-patches.ts. Lines there are head's numbers, matched against base by place already
// (src/profile/source-lines.ts), so the expected line is the patched file's line number.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIFF_FILES } from '../../src/profile/files.js';
import { ProfileDiffSchema, type ProfileDiff } from '../../src/profile/schema.js';

/** A row's diff.json in its profiles folder. */
export function readDiff(folder: string): ProfileDiff {
  const path = join(folder, DIFF_FILES.json);
  if (!existsSync(path)) throw new Error(`${path}: missing (was the row profiled with both sides? --profile-case)`);
  const parsed = ProfileDiffSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export interface ExpectedLine {
  /** The changed file from the client's root, as the patch names it (`pkg/swarm/bmt.go`). */
  file: string;
  /** Its line in the patched copy (head's number). */
  line: number;
  /** The function the change was made in (for an inlined helper, the helper). */
  function: string;
}

export interface LineLanding {
  /** The first listed client function's top moved line is the expected line. */
  topIsExpected: boolean;
  /** The first listed client function's top moved line is in the expected function (its own name: an inlined helper). */
  topNamesFunction: boolean;
  /** What the check found, for the table. */
  text: string;
}

/** `pkg/swarm/bmt.go` against a listed file (from the client's root; bee-js's from the package name). */
const sameFile = (listed: string, file: string) => listed === file || listed.endsWith(`/${file}`);

/** The last part of a qualified name (`swarm.cloneSegment`, `bee::swarm::bmt::bmt_root`): `cloneSegment`, `bmt_root`. */
const shortName = (fn: string) => fn.split(' ')[0]!.split(/::|\./).pop()!;

/**
 * Whether a line's function (src/profile/source-lines.ts names an inlined one by its own name, a
 * closure after the function declaring it: `bmt_root::{closure#1}`) is the expected function or
 * a closure written in it.
 */
export function namesFunction(lineFunction: string | undefined, expected: string): boolean {
  if (!lineFunction) return false;
  const want = shortName(expected);
  return lineFunction === expected || lineFunction.split(/::|\./).includes(want);
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/**
 * Where the expected line ranks in the diff's lists: the first listed client function's top moved
 * line, else its rank among that function's lines, else among another function's, else not listed.
 * A bee-js row whose functions carry no lines (none ran in optimized code, where V8's code log
 * gives positions): the check says so and gives the first function's start.
 */
export function lineLanding(diff: ProfileDiff, expected: ExpectedLine): LineLanding {
  const first = diff.own[0];
  const at = `${expected.file}:${expected.line}`;
  if (!first) return { topIsExpected: false, topNamesFunction: false, text: 'no client function listed' };
  if (diff.own.every((f) => f.lines === undefined)) {
    const start = first.start ? `; \`${shortName(first.name)}\` starts at ${first.start.file}:${first.start.line}` : '';
    return {
      topIsExpected: false,
      topNamesFunction: false,
      text: diff.runner === 'js' ? `no line positions (V8 gives them for optimized code only)${start}; the change is at ${at}` : 'no lines in this profile',
    };
  }
  const top = first.lines?.[0];
  const topIsExpected = top !== undefined && sameFile(top.file, expected.file) && top.line === expected.line;
  const topNamesFunction = namesFunction(top?.function, expected.function);
  const isExpected = (l: { file: string; line: number }) => sameFile(l.file, expected.file) && l.line === expected.line;
  if (topIsExpected) return { topIsExpected, topNamesFunction, text: `found, 1st (${at}${top.function ? ` in ${top.function}` : ''})` };
  const shown = top ? `${top.file}:${top.line}${top.function ? ` in ${top.function}` : ''}` : 'none';
  for (const [fi, fn] of diff.own.entries()) {
    const rank = (fn.lines ?? []).findIndex(isExpected);
    if (rank === -1) continue;
    const where = fi === 0 ? '' : ` of \`${fn.name}\` (client function ${fi + 1})`;
    return { topIsExpected, topNamesFunction, text: `found, ${ordinal(rank + 1)}${where}; top: ${shown}` };
  }
  return { topIsExpected, topNamesFunction, text: `not listed; top: ${shown}` };
}
