// `bee-bench profile`: one CPU row's function profile on demand, from a counting run of that row
// alone under callgrind: one side (its files and top functions) or base against head (also the
// difference, as the PR comment shows it, and the differential view).
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { findCounter } from '../count/callgrind.js';
import { renderProfileSection } from '../report/render/profile-details.js';
import { formatCount } from '../report/units.js';
import { countRunner, isCounted } from '../run/count.js';
import { loadSpec } from '../spec/load.js';
import { planOf, resolvePlan, type Plan } from '../spec/plan.js';
import type { RunSize, Runner } from '../spec/schema.js';
import { displayName, profileOf, writeRowProfiles, type ProfileDiff, type RowProfile, type RowRef } from '../profile/index.js';
import { renderProfileHtml } from '../report/render/profile-html.js';
import { processBudgetMs } from './options.js';

export interface ProfileCommandOptions {
  runner: Runner;
  specFile: string;
  size: RunSize;
  caseId: string;
  /** The param label; default the row's only one. */
  param?: string;
  sides: { base?: ClientSource; head?: ClientSource };
  labels: { base: string; head: string };
  outDir: string;
  cacheDir?: string;
  buildCommand?: string;
  log: (line: string) => void;
}

/** The row's plan: the case's CPU units, the one with the param's label. */
function rowPlan(o: ProfileCommandOptions): { plan: Plan; row: RowRef } {
  const { spec, hash } = loadSpec(o.specFile);
  const all = resolvePlan({ spec, specHash: hash, runner: o.runner, profile: o.size, cases: [o.caseId] });
  const units = all.units.filter((u) => u.id === o.caseId && isCounted(u));
  if (units.length === 0) throw new Error(`--case ${o.caseId}: no CPU case of that id in ${o.size} (profiles come from instruction counts, CPU rows only)`);
  const labels = units.map((u) => String(u.param.label));
  const label = o.param ?? (labels.length === 1 ? labels[0]! : undefined);
  if (label === undefined || !labels.includes(label))
    throw new Error(`--param ${o.param ?? '(none)'}: ${o.caseId} has params ${labels.join(', ')} in ${o.size}; name one with --param`);
  return { plan: planOf(all, (u) => u.id === o.caseId && String(u.param.label) === label), row: { caseId: o.caseId, label } };
}

/** The counted processes: base and head, and with both a second base process (its differences are noise, diff.ts). */
type SideName = 'base' | 'head' | 'baseAgain';

async function profileSide(o: ProfileCommandOptions, built: BuiltRunner, name: SideName, plan: Plan, row: RowRef): Promise<RowProfile> {
  const found = await findCounter();
  if (!found.counter) throw new Error(`profiles need valgrind: ${found.reason}`);
  const dir = join(o.outDir, 'counts');
  mkdirSync(dir, { recursive: true });
  const dumps = join(dir, `dumps-${name}`);
  try {
    const run = await countRunner(built.command, {
      runner: o.runner,
      plan,
      counter: found.counter,
      out: join(dir, `${name}.json`),
      timeoutMs: processBudgetMs(plan),
      keepDumps: dumps,
      onLine: (l) => o.log(`[${name}] ${l}`),
    });
    if (run.problems.length > 0) throw new Error(`${name}: ${run.problems.join('; ')}`);
    const p = profileOf(o.runner, { dir: dumps, plan }, row);
    if (!p) throw new Error(`${name}: the counting run dumped no iteration of ${row.caseId} ${row.label}`);
    return p;
  } finally {
    rmSync(dumps, { recursive: true, force: true });
  }
}

/** One side's top functions, by own and by inclusive instructions, as markdown. */
function sideText(p: RowProfile, row: RowRef, label: string): string {
  const fns = [...p.functions.values()];
  const line = (f: (typeof fns)[number]) =>
    `| \`${displayName(p.runner, f.name).replace(/`/g, "'")}\` | ${formatCount(f.self)} | ${formatCount(f.inclusive)} |`;
  const table = (sorted: typeof fns) => ['| function | own | inclusive |', '|---|---:|---:|', ...sorted.slice(0, 15).map(line)].join('\n');
  return [
    `## ${row.caseId} ${row.label} (${label}): ${formatCount(p.total)} instructions per iteration`,
    '### By own instructions',
    table([...fns].sort((a, b) => b.self - a.self)),
    '### By inclusive instructions',
    table([...fns].sort((a, b) => b.inclusive - a.inclusive)),
  ].join('\n\n');
}

/** Runs the profile and returns the text to print; files go to `<out>/profiles/<row>/`. */
export async function profileCommand(o: ProfileCommandOptions): Promise<{ markdown: string; dir: string; diff: ProfileDiff | null }> {
  const { plan, row } = rowPlan(o);
  const outDir = resolve(o.outDir);
  const asked = (['base', 'head'] as const).filter((s) => o.sides[s]);
  if (asked.length === 0) throw new Error('profile needs --head SRC (one side) or --base SRC --head SRC (the difference)');
  // A difference counts base twice, as an A/B does: what moves between the two is not listed.
  const build = (source: ClientSource) => buildRunner({ runner: o.runner, source, cacheDir: o.cacheDir, buildCommand: o.buildCommand, log: o.log });
  const built = Object.fromEntries(await Promise.all(asked.map(async (s) => [s, await build(o.sides[s]!)] as const))) as Partial<
    Record<'base' | 'head', BuiltRunner>
  >;
  const runs: Array<{ name: SideName; built: BuiltRunner }> = asked.map((s) => ({ name: s, built: built[s]! }));
  if (built.base && built.head) runs.push({ name: 'baseAgain', built: built.base });
  const got = await Promise.all(runs.map((r) => profileSide({ ...o, outDir }, r.built, r.name, planOf(plan, isCounted), row)));
  const sides = Object.fromEntries(runs.map((r, i) => [r.name, got[i]!])) as Partial<Record<SideName, RowProfile>>;
  const { dir, diff } = writeRowProfiles(outDir, row, sides, o.labels, renderProfileHtml);
  const markdown = diff
    ? (renderProfileSection([diff], Number.MAX_SAFE_INTEGER) ?? '').replace('<details>', '<details open>')
    : asked.map((s) => sideText(sides[s]!, row, o.labels[s])).join('\n\n');
  return { markdown: `${markdown}\n`, dir, diff };
}
