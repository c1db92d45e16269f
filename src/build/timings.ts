// How long past runs took, kept beside the builds in the cache, so the next run's ETA starts from
// this machine's figures: the last build of each runner, and the milliseconds per unit of each
// (runner, stage, profile). A missing or unreadable file is no history: the defaults below apply.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Runner } from '../spec/schema.js';

/**
 * A first build of each runner on an empty cache (npm, Go and cargo downloads included) on an idle
 * 2-core machine: the estimate before this machine has built anything. Measured with `npm run
 * main` on an empty BEE_BENCH_CACHE (docs/cli.md, "Progress and ETA").
 */
export const FIRST_BUILD_MS: Readonly<Record<Runner, number>> = { js: 20_000, go: 45_000, rs: 150_000 };

/** How many times longer CPU-bound work takes now than on an idle machine: the 1-minute load per core, at least 1. */
export function loadFactor(): number {
  return Math.max(1, loadavg()[0]! / availableParallelism());
}

const FILE = 'timings.json';

const TimingsSchema = z.object({
  /** The last build of each runner on the machine it runs on, ms as it took (the machine's load included). */
  builds: z.record(z.string(), z.number().nonnegative()).default({}),
  stages: z.record(z.string(), z.object({ msPerUnit: z.number().nonnegative() })).default({}),
  /** Per profile: what the last run took beyond its steps (start-up, planning, reports, history), ms. */
  overhead: z.record(z.string(), z.number().nonnegative()).default({}),
});
export type Timings = z.infer<typeof TimingsSchema>;

export function readTimings(cacheDir: string): Timings {
  try {
    return TimingsSchema.parse(JSON.parse(readFileSync(join(cacheDir, FILE), 'utf8')));
  } catch {
    return { builds: {}, stages: {}, overhead: {} };
  }
}

export interface BuildEstimate {
  ms: number;
  from: 'last build' | 'first build';
  /** The load factor the idle-machine figure was scaled by. */
  factor: number;
}

/**
 * The last build's time of this runner on the machine it runs on, as it took; before any, a first build's
 * idle-machine time scaled by the square root of the load factor now. Linear scaling by the load
 * (once the rule) overshot: at load 5.2 on 2 cores the rs build was estimated at 395 s and took
 * 191 s, as a build waits on downloads and disk as well as on the CPU. The machine's own time
 * already carries the load it is usually under.
 */
export function buildEstimate(cacheDir: string, runner: Runner, factor = loadFactor()): BuildEstimate {
  const last = readTimings(cacheDir).builds[runner];
  if (last !== undefined) return { ms: last, from: 'last build', factor: 1 };
  const f = Math.sqrt(Math.max(1, factor));
  return { ms: FIRST_BUILD_MS[runner] * f, from: 'first build', factor: f };
}

/** What an estimate rests on, for the build's start line. */
export function estimateBasis(e: BuildEstimate): string {
  const what = e.from === 'last build' ? "this machine's last build" : "a first build's time on 2 cores";
  return e.factor > 1.05 ? `${what}, times ${e.factor.toFixed(1)} for the load` : what;
}

/** Keeps a finished build's time as it took on the machine it runs on. */
export function recordBuild(cacheDir: string, runner: Runner, ms: number): void {
  updateTimings(cacheDir, (t) => (t.builds[runner] = Math.round(ms)));
}

/** Changes the file whole (another process's write between read and rename is lost: these are estimates). */
export function updateTimings(cacheDir: string, change: (t: Timings) => void): void {
  const t = readTimings(cacheDir);
  change(t);
  mkdirSync(cacheDir, { recursive: true });
  const tmp = join(cacheDir, `${FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(t, null, 2)}\n`);
  renameSync(tmp, join(cacheDir, FILE));
}

export const stageKey = (runner: Runner, stage: string, profile: string) => `${runner} ${stage} ${profile}`;
