// Row profiles written out for a run (docs/profiles.md): per row under `<out>/profiles/<row>/`
// the base and head callgrind files, pprof profiles and folded stacks, and with both sides the
// difference as JSON and as a self-contained HTML view; and the A/B's flagged rows' differences.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Runner } from '../spec/schema.js';
import { NameCache } from './callgrind-read.js';
import { callgrindText } from './callgrind-write.js';
import { diffProfiles } from './diff.js';
import { profileOf, rowFolder, type KeptDumps, type RowRef } from './kept.js';
import { displayName } from './names.js';
import { pprofBytes } from './pprof.js';
import { dumpsByUnit, type RowProfile, type Symbolizer } from './row-profile.js';
import { MAX_PROFILED_ROWS, ProfileDiffSchema, type ProfileDiff } from './schema.js';
import { boundedStacks, foldedText, mergeStacks, type FlameFrame } from './stacks.js';

/** Where a run's row profiles go: `<out>/profiles/<row>/`. */
export const profilesDir = (outDir: string) => join(outDir, 'profiles');

/**
 * Draws a row's differential view as a page (src/report/render/profile-html.ts): this folder
 * writes the files, the report's renderers draw them.
 */
export type DiffView = (diff: ProfileDiff, root: FlameFrame, labels: { base: string; head: string }) => string;

/** One side's files in a row's folder. */
const sideFiles = (side: 'base' | 'head') => ({ callgrind: `callgrind.out.${side}`, pprof: `${side}.pb.gz`, folded: `${side}.folded` });
/** The difference's files: the lists as JSON and the differential view. */
export const DIFF_FILES = { json: 'diff.json', html: 'diff.html' } as const;
/** Every file a row's folder can hold: nothing else is carried from a piece (src/ab/piece-profiles.ts). */
export const ROW_FILES: readonly string[] = [...Object.values(sideFiles('base')), ...Object.values(sideFiles('head')), ...Object.values(DIFF_FILES)];

/** Writes one side's files: callgrind (opens in callgrind_annotate and KCachegrind), pprof, folded stacks. */
function writeSide(dir: string, side: 'base' | 'head', p: RowProfile, title: string): Array<{ stack: string[]; ir: number }> {
  const name = (fn: string) => displayName(p.runner, fn);
  const stacks = boundedStacks(p, name);
  const files = sideFiles(side);
  writeFileSync(join(dir, files.callgrind), callgrindText(p, `${title} (${side})`, name));
  writeFileSync(join(dir, files.pprof), pprofBytes(stacks, name));
  writeFileSync(join(dir, files.folded), foldedText(stacks, name));
  return stacks;
}

/** The difference's lists as diff.json holds them. */
export const diffJson = (diff: ProfileDiff) => `${JSON.stringify(diff, null, 2)}\n`;

export interface RowFiles {
  dir: string;
  diff: ProfileDiff | null;
}

/**
 * Writes a row's files under `outDir/profiles/<row>/` for the sides given (one side: a single
 * profile; both: also the difference, as diff.json and diff.html).
 */
export function writeRowProfiles(
  outDir: string,
  row: RowRef,
  sides: { base?: RowProfile | null; head?: RowProfile | null; baseAgain?: RowProfile | null },
  labels: { base: string; head: string },
  view: DiffView,
): RowFiles {
  const dir = join(profilesDir(outDir), rowFolder(row));
  mkdirSync(dir, { recursive: true });
  const title = `${row.caseId} ${row.label}`;
  const stacks = {
    base: sides.base ? writeSide(dir, 'base', sides.base, `${title} ${labels.base}`) : null,
    head: sides.head ? writeSide(dir, 'head', sides.head, `${title} ${labels.head}`) : null,
  };
  if (!sides.base || !sides.head || !stacks.base || !stacks.head) return { dir, diff: null };
  const diff = ProfileDiffSchema.parse(diffProfiles(sides.base, sides.head, row, sides.baseAgain));
  const name = (fn: string) => displayName(sides.head!.runner, fn);
  writeFileSync(join(dir, DIFF_FILES.json), diffJson(diff));
  writeFileSync(join(dir, DIFF_FILES.html), view(diff, mergeStacks(stacks.base, stacks.head, name), labels));
  return { dir, diff };
}

export interface ProfileAbOptions {
  runner: Runner;
  base: KeptDumps;
  head: KeptDumps;
  /** The second base process's dumps: what moves between the two base processes is not listed (diff.ts). */
  baseAgain?: KeptDumps;
  rows: readonly RowRef[];
  outDir: string;
  labels: { base: string; head: string };
  view: DiffView;
  /** bee-js: V8's JIT code addresses to `name file:line` (src/profile/v8-symbols.ts). */
  symbolize?: { base?: Symbolizer; head?: Symbolizer };
}

/** The rows' differences, head against base, with their files; and the time it took. */
export function profileAb(o: ProfileAbOptions): { diffs: ProfileDiff[]; ms: number; unwritten: number; problems: string[] } {
  const started = performance.now();
  const byUnit = { base: dumpsByUnit(o.base.dir), head: dumpsByUnit(o.head.dir), baseAgain: o.baseAgain && dumpsByUnit(o.baseAgain.dir) };
  const diffs: ProfileDiff[] = [];
  let unwritten = 0;
  const problems: string[] = [];
  // Largest instruction change first: those rows get files while the artifact has room.
  for (const row of o.rows.slice(0, MAX_PROFILED_ROWS)) {
    // The three sides' dumps name the same functions: their names are split once for the row.
    const names = new NameCache();
    const base = profileOf(o.runner, o.base, row, o.symbolize?.base, byUnit.base, names);
    const head = profileOf(o.runner, o.head, row, o.symbolize?.head, byUnit.head, names);
    if (!base || !head) continue;
    const baseAgain = o.baseAgain && profileOf(o.runner, o.baseAgain, row, o.symbolize?.base, byUnit.baseAgain, names);
    // One row that cannot be profiled costs that row its lists, not the others theirs.
    try {
      if (folderBytes(profilesDir(o.outDir)) > MAX_PROFILE_BYTES) {
        unwritten++;
        diffs.push(ProfileDiffSchema.parse(diffProfiles(base, head, row, baseAgain)));
        continue;
      }
      const { diff } = writeRowProfiles(o.outDir, row, { base, head, baseAgain }, o.labels, o.view);
      if (diff) diffs.push(diff);
    } catch (e) {
      problems.push(`${row.caseId} ${row.label}: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`);
    }
  }
  return { diffs, ms: performance.now() - started, unwritten, problems };
}

/**
 * The most a run writes under profiles/ before it writes no more rows' files (the comment still
 * gets every flagged row's lists): the artifact the publish job downloads is capped at 64 MiB
 * (docs/security.md), and one row's files are 0.1-1 MB.
 */
export const MAX_PROFILE_BYTES = 16 << 20;

/** The bytes of every file under dir (0 when there is none). */
export function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}
