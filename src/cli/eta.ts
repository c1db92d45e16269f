// The steps of a `bee-bench run` and what each should take, before anything runs: a build that is
// not in the cache costs this machine's last build of it (or a first build's, src/build/timings.ts);
// a case stage costs the last run's time per unit of that runner, stage and profile, else the shard
// cost model's static estimate (src/shard/cost.ts), which is what a first run has; and the run's own
// overhead (start-up, planning, reports, the local history) is the last run's. All of it is kept
// with the build cache, so the estimate learns from the machine it runs on.
import { defaultCacheDir, isBuilt, type ClientSource } from '../build/index.js';
import { buildEstimate, readTimings, stageKey, updateTimings } from '../build/timings.js';
import { EVIDENCES } from '../evidence/index.js';
import { WALL_KIND, type Measure } from '../spec/measure.js';
import { loadSpec } from '../spec/load.js';
import { resolvePlan } from '../spec/plan.js';
import type { RunSize, Runner } from '../spec/schema.js';
import { staticModel, unitCostS } from '../shard/cost.js';
import { clock, type Stage, type StageTiming } from './progress.js';

export interface RunSelection {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
  specFile: string;
  size: RunSize;
  cases: readonly string[];
  large?: boolean;
  measure: Measure;
  cacheDir?: string;
  /** The load factor build estimates scale by (default: the machine's now). */
  loadFactor?: number;
}

export async function runStages(o: RunSelection): Promise<Stage[]> {
  const cacheDir = o.cacheDir ?? defaultCacheDir();
  const { spec, hash } = loadSpec(o.specFile);
  const timings = readTimings(cacheDir);
  const planOf = (runner: Runner, profile: RunSize, cases: readonly string[], large?: boolean) =>
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
    const plan = planOf(r.runner, o.size, o.cases, o.large);
    // Each evidence of the measure over the units it takes, in MEASURES order (the order a run takes them).
    for (const kind of o.measure) {
      const units = plan.units.filter((u) => EVIDENCES[kind].takes(u));
      if (units.length === 0) continue;
      const last = timings.stages[stageKey(r.runner, kind, o.size)];
      const estimateMs = last ? last.msPerUnit * units.length : units.reduce((ms, u) => ms + unitCostS(model, plan, u, kind) * 1000, 0);
      stages.push({ runner: r.runner, kind, units: units.length, estimateMs });
    }
  }
  return stages;
}

/** The last run's overhead beyond its steps for this profile on the machine it runs on (0 before any). */
export function overheadEstimate(cacheDir: string | undefined, profile: RunSize): number {
  return readTimings(cacheDir ?? defaultCacheDir()).overhead[profile] ?? 0;
}

/** The whole run's estimate, ms: its steps and its overhead. */
export const runEstimateMs = (stages: readonly Stage[], overheadMs = 0): number => stages.reduce((ms, s) => ms + s.estimateMs, overheadMs);

/** The run's first line: its steps and the whole run's estimate. */
export function planLine(stages: readonly Stage[], overheadMs = 0): string {
  const builds = stages.filter((s) => s.kind === 'build');
  const buildText = builds.map((b) => (b.estimateMs > 0 ? `${b.runner} ~${clock(b.estimateMs)}` : `${b.runner} cached`)).join(', ');
  const cases = stages.filter((s) => s.kind === WALL_KIND).reduce((n, s) => n + s.units, 0);
  const caseMs = stages.filter((s) => s.kind !== 'build').reduce((ms, s) => ms + s.estimateMs, 0);
  return `run: builds ${buildText}; ${cases} case run(s) ~${clock(caseMs)} · ETA ${clock(runEstimateMs(stages, overheadMs))}`;
}

/**
 * Keeps what each case stage took per unit, for the next run's estimate (builds keep their own),
 * and, when every step finished, the run's time beyond its steps (`elapsedMs`: the whole run).
 */
export function recordStages(
  cacheDir: string | undefined,
  profile: RunSize,
  timings: readonly StageTiming[],
  run?: { elapsedMs: number; stages: readonly Stage[] },
): void {
  const stages = timings.filter((t) => t.kind !== 'build');
  // Every step ran to its end (a cached build is no step): only then is the rest overhead.
  const finished = run?.stages.every((s) => (s.kind === 'build' && s.estimateMs === 0) || timings.some((t) => t.runner === s.runner && t.kind === s.kind));
  if (stages.length === 0 && !finished) return;
  updateTimings(cacheDir ?? defaultCacheDir(), (t) => {
    for (const s of stages) t.stages[stageKey(s.runner, s.kind, profile)] = { msPerUnit: Math.round(s.msPerUnit) };
    if (run && finished) {
      const inSteps = timings.reduce((ms, s) => ms + s.msPerUnit * (run.stages.find((x) => x.runner === s.runner && x.kind === s.kind)?.units ?? 1), 0);
      t.overhead[profile] = Math.max(0, Math.round(run.elapsedMs - inSteps));
    }
  });
}
