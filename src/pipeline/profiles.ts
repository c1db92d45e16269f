// Row profiles written out for a run (docs/profiles.md): per row under `<out>/profiles/<row>/`
// the base and head callgrind files, pprof profiles and folded stacks, and with both sides the
// difference as JSON and as a self-contained HTML view; and the A/B's flagged rows' differences.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  callgrindText,
  diffProfiles,
  displayName,
  dumpsByUnit,
  expandStacks,
  foldedText,
  pprofBytes,
  profileOf,
  ProfileDiffSchema,
  MAX_PROFILED_ROWS,
  rowFolder,
  type KeptDumps,
  type ProfileDiff,
  type RowProfile,
  type RowRef,
  type Symbolizer,
} from '../profile/index.js';
import { mergeStacks, renderProfileHtml } from '../report/render/profile-html.js';
import type { Runner } from '../spec/schema.js';

/** Writes one side's files: callgrind (opens in callgrind_annotate and KCachegrind), pprof, folded stacks. */
function writeSide(dir: string, side: string, p: RowProfile, title: string): Array<{ stack: string[]; ir: number }> {
  const name = (fn: string) => displayName(p.runner, fn);
  const stacks = expandStacks(p);
  writeFileSync(join(dir, `callgrind.out.${side}`), callgrindText(p, `${title} (${side})`, name));
  writeFileSync(join(dir, `${side}.pb.gz`), pprofBytes(stacks, name));
  writeFileSync(join(dir, `${side}.folded`), foldedText(stacks, name));
  return stacks;
}

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
  sides: { base?: RowProfile | null; head?: RowProfile | null },
  labels: { base: string; head: string },
): RowFiles {
  const dir = join(outDir, 'profiles', rowFolder(row));
  mkdirSync(dir, { recursive: true });
  const title = `${row.caseId} ${row.label}`;
  const stacks = {
    base: sides.base ? writeSide(dir, 'base', sides.base, `${title} ${labels.base}`) : null,
    head: sides.head ? writeSide(dir, 'head', sides.head, `${title} ${labels.head}`) : null,
  };
  if (!sides.base || !sides.head || !stacks.base || !stacks.head) return { dir, diff: null };
  const diff = ProfileDiffSchema.parse(diffProfiles(sides.base, sides.head, row));
  const name = (fn: string) => displayName(sides.head!.runner, fn);
  writeFileSync(join(dir, 'diff.json'), `${JSON.stringify(diff, null, 2)}\n`);
  writeFileSync(join(dir, 'diff.html'), renderProfileHtml(diff, mergeStacks(stacks.base, stacks.head, name), labels));
  return { dir, diff };
}

export interface ProfileAbOptions {
  runner: Runner;
  base: KeptDumps;
  head: KeptDumps;
  rows: readonly RowRef[];
  outDir: string;
  labels: { base: string; head: string };
  /** bee-js: V8's JIT code addresses to `name file:line` (src/profile/v8-symbols.ts). */
  symbolize?: { base?: Symbolizer; head?: Symbolizer };
}

/** The rows' differences, head against base, with their files; and the time it took. */
export function profileAb(o: ProfileAbOptions): { diffs: ProfileDiff[]; ms: number; unwritten: number; problems: string[] } {
  const started = performance.now();
  const byUnit = { base: dumpsByUnit(o.base.dir), head: dumpsByUnit(o.head.dir) };
  const diffs: ProfileDiff[] = [];
  let unwritten = 0;
  const problems: string[] = [];
  // Largest instruction change first: those rows get files while the artifact has room.
  for (const row of o.rows.slice(0, MAX_PROFILED_ROWS)) {
    const base = profileOf(o.runner, o.base, row, o.symbolize?.base, byUnit.base);
    const head = profileOf(o.runner, o.head, row, o.symbolize?.head, byUnit.head);
    if (!base || !head) continue;
    // One row that cannot be profiled costs that row its lists, not the others theirs.
    try {
      if (folderBytes(join(o.outDir, 'profiles')) > MAX_PROFILE_BYTES) {
        unwritten++;
        diffs.push(ProfileDiffSchema.parse(diffProfiles(base, head, row)));
        continue;
      }
      const { diff } = writeRowProfiles(o.outDir, row, { base, head }, o.labels);
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

function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}
