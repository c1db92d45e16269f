// A single run's compact profiles (src/profile/compact.ts): every counted row's, from the dumps of
// the run's counting process, for the history store beside the run's record (an alert on a later
// run shows where it moved against this one). Written to <out>/profiles/<runner>.compact.json and
// carried in publish.json; the dumps are removed after.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactProfile, dumpsByUnit, profileOf, RunProfilesSchema, type CompactProfile, type RunProfiles } from './index.js';
import type { Plan } from '../spec/plan.js';
import type { Result, Runner } from '../spec/schema.js';

export const compactFile = (outDir: string, runner: Runner) => join(outDir, 'profiles', `${runner}.compact.json`);

/** The counted rows' compact profiles from the kept dumps, or null when no row has one; the dumps are removed. */
export function compactRunProfiles(
  runner: Runner,
  dumps: string,
  plan: Plan,
  result: Result | null,
  outDir: string,
  log: (line: string) => void,
): RunProfiles | null {
  const started = performance.now();
  try {
    if (!result || !existsSync(dumps)) return null;
    const byUnit = dumpsByUnit(dumps);
    const rows: CompactProfile[] = [];
    for (const c of result.cases) {
      if (c.status !== 'ok' || !c.instructions) continue;
      const row = { caseId: c.id, label: String(c.param['label'] ?? '') };
      // One row that cannot be read costs that row its profile, not the others theirs.
      try {
        const p = profileOf(runner, { dir: dumps, plan }, row, undefined, byUnit);
        if (p) rows.push(compactProfile(p, row));
      } catch (e) {
        log(`profiles: ${runner} ${row.caseId} [${row.label}]: no compact profile: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`);
      }
    }
    if (rows.length === 0) return null;
    const profiles = RunProfilesSchema.parse({ runner, rows });
    mkdirSync(join(outDir, 'profiles'), { recursive: true });
    writeFileSync(compactFile(outDir, runner), `${JSON.stringify(profiles)}\n`);
    log(`profiles: ${runner}: compact profiles of ${rows.length} counted row(s) in ${Math.round(performance.now() - started)} ms`);
    return profiles;
  } finally {
    rmSync(dumps, { recursive: true, force: true });
  }
}
