// The steps of a `bee-bench run` and what each should take, before anything runs: a build that is
// not in the cache costs the last build's time (or a first build's, src/build/timings.ts); a case
// stage costs the last run's time per unit of that runner, stage and profile, else the shard cost
// model's static estimate (src/shard/cost.ts), which is what a first run has.
import { defaultCacheDir, isBuilt, type ClientSource } from '../build/index.js';
import { buildEstimate, readTimings, stageKey, updateTimings } from '../build/timings.js';
import { measuresAllocations, measuresInstructions, measuresWall, type Measure } from '../spec/measure.js';
import { loadSpec } from '../spec/load.js';
import { resolvePlan } from '../spec/plan.js';
import type { Profile, Runner } from '../spec/schema.js';
import type { MeasureKind } from '../spec/measure.js';
import { staticModel, unitCostS } from '../shard/cost.js';
import { clock, type Stage, type StageKind, type StageTiming } from './progress.js';

export interface RunSelection {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
  specFile: string;
  profile: Profile;
  cases: readonly string[];
  large?: boolean;
  measure: Measure;
  cacheDir?: string;
  /** The load factor build estimates scale by (default: the machine's now). */
  loadFactor?: number;
}

const EVIDENCE: Record<Exclude<StageKind, 'build'>, MeasureKind> = { wall: 'wall', count: 'instructions', alloc: 'allocations' };

export async function runStages(o: RunSelection): Promise<Stage[]> {
  const cacheDir = o.cacheDir ?? defaultCacheDir();
  const { spec, hash } = loadSpec(o.specFile);
  const timings = readTimings(cacheDir);
  const planOf = (runner: Runner, profile: Profile, cases: readonly string[], large?: boolean) =>
    resolvePlan({ spec, specHash: hash, runner, profile, cases, large });
  const quick = new Map(o.runners.map((r) => [r.runner, planOf(r.runner, 'quick', [])]));
  const model = staticModel(quick, spec.profiles.quick.iters);
  const stages: Stage[] = [];
  for (const r of o.runners) {
    stages.push({
      runner: r.runner,
      kind: 'build',
      units: 1,
      estimateMs: (await isBuilt({ runner: r.runner, source: r.source, cacheDir, buildCommand: r.buildCommand }))
        ? 0
        : buildEstimate(cacheDir, r.runner, o.loadFactor).ms,
    });
    const plan = planOf(r.runner, o.profile, o.cases, o.large);
    const cpu = plan.units.filter((u) => u.kind === 'cpu');
    const wanted: Array<[Exclude<StageKind, 'build'>, typeof plan.units]> = [];
    if (measuresWall(o.measure)) wanted.push(['wall', plan.units]);
    if (measuresInstructions(o.measure)) wanted.push(['count', cpu]);
    if (measuresAllocations(o.measure)) wanted.push(['alloc', cpu]);
    for (const [kind, units] of wanted) {
      if (units.length === 0) continue;
      const last = timings.stages[stageKey(r.runner, kind, o.profile)];
      const estimateMs = last ? last.msPerUnit * units.length : units.reduce((ms, u) => ms + unitCostS(model, plan, u, EVIDENCE[kind]) * 1000, 0);
      stages.push({ runner: r.runner, kind, units: units.length, estimateMs });
    }
  }
  return stages;
}

/** The run's first line: its steps and the whole run's estimate. */
export function planLine(stages: readonly Stage[]): string {
  const builds = stages.filter((s) => s.kind === 'build');
  const buildText = builds.map((b) => (b.estimateMs > 0 ? `${b.runner} ~${clock(b.estimateMs)}` : `${b.runner} cached`)).join(', ');
  const cases = stages.filter((s) => s.kind === 'wall').reduce((n, s) => n + s.units, 0);
  const caseMs = stages.filter((s) => s.kind !== 'build').reduce((ms, s) => ms + s.estimateMs, 0);
  const total = stages.reduce((ms, s) => ms + s.estimateMs, 0);
  return `run: builds ${buildText}; ${cases} case run(s) ~${clock(caseMs)} · ETA ${clock(total)}`;
}

/** Keeps what each case stage took per unit, for the next run's estimate (builds keep their own). */
export function recordStages(cacheDir: string | undefined, profile: Profile, timings: readonly StageTiming[]): void {
  const stages = timings.filter((t) => t.kind !== 'build');
  if (stages.length === 0) return;
  updateTimings(cacheDir ?? defaultCacheDir(), (t) => {
    for (const s of stages) t.stages[stageKey(s.runner, s.kind, profile)] = { msPerUnit: Math.round(s.msPerUnit) };
  });
}
