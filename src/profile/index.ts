// Row profiles from a counting run's kept dumps, head against base, and the files they leave in
// `<out>/profiles/` (docs/profiles.md): per row base and head callgrind files, pprof profiles,
// folded stacks, the difference as JSON and as a self-contained HTML view.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../spec/plan.js';
import type { Runner } from '../spec/schema.js';
import { renderProfileHtml, mergeStacks } from '../report/profile-html.js';
import { callgrindText } from './callgrind-write.js';
import { diffProfiles } from './diff.js';
import { displayName } from './names.js';
import { pprofBytes } from './pprof.js';
import { dumpsByUnit, rowProfile, type RowProfile, type Symbolizer } from './row-profile.js';
import { ProfileDiffSchema, type ProfileDiff } from './schema.js';
import { expandStacks, foldedText } from './stacks.js';

export { type Symbolizer } from './row-profile.js';
export { type ProfileDiff, ProfileDiffSchema, ProfileDiffsSchema } from './schema.js';

/** A counting run whose dumps were kept: its directory and the plan it ran (units name the dumps). */
export interface KeptDumps {
  dir: string;
  plan: Plan;
}

export interface RowRef {
  caseId: string;
  label: string;
}

/** The folder of a row's files: case and label with anything but [A-Za-z0-9._-] made `_`. */
export const rowFolder = (r: RowRef) => `${r.caseId}~${r.label}`.replace(/[^A-Za-z0-9._~-]/g, '_').slice(0, 120);

/** The row's profile from a run's dumps, or null when the run counted no iteration of it. */
export function profileOf(runner: Runner, run: KeptDumps, row: RowRef, symbolize?: Symbolizer, byUnit = dumpsByUnit(run.dir)): RowProfile | null {
  const unit = run.plan.units.find((u) => u.id === row.caseId && String(u.param.label) === row.label);
  const files = unit ? byUnit.get(unit.unit) : undefined;
  if (!files || files.length === 0) return null;
  return rowProfile(runner, files, symbolize);
}

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
export function profileAb(o: ProfileAbOptions): { diffs: ProfileDiff[]; ms: number } {
  const started = performance.now();
  const byUnit = { base: dumpsByUnit(o.base.dir), head: dumpsByUnit(o.head.dir) };
  const diffs: ProfileDiff[] = [];
  for (const row of o.rows) {
    const base = profileOf(o.runner, o.base, row, o.symbolize?.base, byUnit.base);
    const head = profileOf(o.runner, o.head, row, o.symbolize?.head, byUnit.head);
    if (!base || !head) continue;
    const { diff } = writeRowProfiles(o.outDir, row, { base, head }, o.labels);
    if (diff) diffs.push(diff);
  }
  return { diffs, ms: performance.now() - started };
}
