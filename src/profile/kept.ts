// A counting run's kept dumps and the row profiles read from them: which dumps are a row's (by
// the plan's units), the folder a row's files go in.
import type { Plan } from '../spec/plan.js';
import type { NameCache } from './callgrind-read.js';
import type { Runner } from '../spec/schema.js';
import { dumpsByUnit, rowProfile, type DumpSymbolizers, type RowProfile, type Symbolizer } from './row-profile.js';
import { dumpSymbolizers } from './v8-symbols.js';

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
export function profileOf(
  runner: Runner,
  run: KeptDumps,
  row: RowRef,
  symbolize?: Symbolizer | DumpSymbolizers,
  byUnit = dumpsByUnit(run.dir),
  names?: NameCache,
): RowProfile | null {
  const unit = run.plan.units.find((u) => u.id === row.caseId && String(u.param.label) === row.label);
  const files = unit ? byUnit.get(unit.unit) : undefined;
  if (!files || files.length === 0) return null;
  // bee-js: V8's JIT code named from the run's perf maps, kept beside its dumps.
  return rowProfile(runner, files, symbolize ?? (runner === 'js' ? { forDump: dumpSymbolizers(run.dir) } : undefined), names);
}
