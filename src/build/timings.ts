// How long past runs took, kept beside the builds in the cache, so the next run's ETA starts from
// this machine's figures: the last build of each runner, and the milliseconds per unit of each
// (runner, stage, profile). A missing or unreadable file is no history: the defaults below apply.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Runner } from '../spec/schema.js';

/**
 * A first build of each runner on an empty cache, 2 cores (npm, Go and cargo downloads included):
 * measured with `npm run main` on an empty BEE_BENCH_CACHE (docs/cli.md, "Progress and ETA").
 */
export const FIRST_BUILD_MS: Readonly<Record<Runner, number>> = { js: 20_000, go: 75_000, rs: 270_000 };

const FILE = 'timings.json';

const TimingsSchema = z.object({
  builds: z.record(z.string(), z.number().nonnegative()).default({}),
  stages: z.record(z.string(), z.object({ msPerUnit: z.number().nonnegative() })).default({}),
});
export type Timings = z.infer<typeof TimingsSchema>;

export function readTimings(cacheDir: string): Timings {
  try {
    return TimingsSchema.parse(JSON.parse(readFileSync(join(cacheDir, FILE), 'utf8')));
  } catch {
    return { builds: {}, stages: {} };
  }
}

/** The last build's time of this runner in this cache, or a first build's, and which it is. */
export function buildEstimate(cacheDir: string, runner: Runner): { ms: number; from: 'last build' | 'first build' } {
  const last = readTimings(cacheDir).builds[runner];
  return last === undefined ? { ms: FIRST_BUILD_MS[runner], from: 'first build' } : { ms: last, from: 'last build' };
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
