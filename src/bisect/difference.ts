// What the commit bisect named changed, for the row it walked: that row's function profile on the
// named commit against its parent (docs/profiles.md). When the parent is the good ref, the step
// that measured the named commit compared exactly these two sides, and its A/B already profiled the
// row (a flagged row's files under the step's profiles/): they are taken from there. Otherwise one
// more counted run of the row per side (`bee-bench profile`'s pipeline) makes them. Either way the
// row's files end under the bisect's own profiles/<row>/, as `ab` writes them.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ProfileDiffSchema, rowFolder, type ProfileDiff, type RowRef } from '../profile/index.js';
import { profileCommand } from '../pipeline/profile.js';
import { DEFAULT_MEASURE, measuresInstructions } from '../spec/measure.js';
import type { Probe } from './search.js';
import { stepDir, type AbStepOptions, type Checkout } from './step-probe.js';
import type { Commit } from './walk.js';

export interface BisectDifference {
  row: RowRef;
  parent: Commit;
  first: Commit;
  /** Where the dumps came from: the step that named the commit, or one more counted run per side. */
  from: 'step' | 'counted';
  diff: ProfileDiff | null;
  /** The row's files, relative to the bisect's output folder. */
  files: string | null;
  /** Why there is no difference, when there is none. */
  problem?: string;
  /** What making it took (checkouts excluded). */
  elapsedMs: number;
}

/** The step that named the commit: its number (1-based, in the order measured), its probe, and the good commit it compared against. */
export interface NamingStep {
  number: number;
  probe: Probe;
  against: Commit;
}

/** Explains the named commit against its parent; null when the steps measured nothing it can explain (wall time). */
export type Explainer = (parent: Checkout, first: Checkout, step: NamingStep) => Promise<BisectDifference | null>;

/** The explainer of the A/B steps (abStepComparator with the same options): profiles when the steps counted instructions. */
export function abStepDifference(o: AbStepOptions): Explainer {
  return async (parent, first, step) => {
    const row = step.probe.row;
    if (!row || !measuresInstructions(o.measure ?? DEFAULT_MEASURE)) return null;
    const started = performance.now();
    const took = () => ({ elapsedMs: performance.now() - started });
    const outDir = resolve(o.outDir);
    const target = join(outDir, 'profiles', rowFolder(row));
    const known = { row, parent: parent.commit, first: first.commit };
    const fromStep = join(stepDir(outDir, step.number, first.commit.sha), 'profiles', rowFolder(row));
    try {
      if (parent.commit.sha === step.against.sha && existsSync(join(fromStep, 'diff.json'))) {
        const diff = ProfileDiffSchema.parse(JSON.parse(readFileSync(join(fromStep, 'diff.json'), 'utf8')));
        cpSync(fromStep, target, { recursive: true });
        return { ...known, from: 'step', diff, files: relative(outDir, target), ...took() };
      }
      const short = (c: Commit) => c.sha.slice(0, 12);
      o.log(`bisect: profiling ${row.caseId} [${row.label}] on ${short(first.commit)} against its parent ${short(parent.commit)}: one counted run per side`);
      const out = await profileCommand({
        runner: o.runner,
        specFile: o.specFile,
        size: o.size,
        caseId: row.caseId,
        param: row.label,
        sides: { base: { kind: 'path', path: parent.path }, head: { kind: 'path', path: first.path } },
        labels: { base: short(parent.commit), head: short(first.commit) },
        outDir,
        ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
        ...(o.buildCommand ? { buildCommand: o.buildCommand } : {}),
        log: o.log,
      });
      return { ...known, from: 'counted', diff: out.diff, files: relative(outDir, out.dir), ...took() };
    } catch (e) {
      // The walk's answer stands without its profile: say why there is none.
      return { ...known, from: 'counted', diff: null, files: null, problem: e instanceof Error ? e.message.slice(0, 500) : String(e), ...took() };
    }
  };
}
