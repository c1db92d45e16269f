// What the deterministic calibration (bench/det-calibrate.ts, either evidence) needs:
// a pool of independent runner processes, measured two at a time (their figures do not depend on
// load) and kept on disk so that --reuse judges them again and measures only the ones it lacks;
// and the A/A runs drawn from the pool.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildRunner, parseSource } from '../../src/build/index.js';
import type { RunnerCommand } from '../../src/build/builder.js';
import { ResultSchema, type Result, type Runner } from '../../src/spec/schema.js';

export const log = (l: string) => process.stderr.write(`${l}\n`);

export interface Pool {
  outDir: string;
  /** The build, made once on first need (a --reuse run that lacks no process builds nothing). */
  command: () => Promise<RunnerCommand>;
  /** The stored process `name`, or a new one measured by `measure` into `<outDir>/<name>.json`. */
  process: (name: string, measure: (command: RunnerCommand, out: string) => Promise<{ result: Result | null; problems: string[] }>) => Promise<Result>;
}

export function processPool(o: { runner: Runner; source: string; out: string; folder: string; reuse: boolean }): Pool {
  const outDir = resolve(o.out, o.folder);
  mkdirSync(outDir, { recursive: true });
  let building: Promise<RunnerCommand> | undefined;
  const command = () => (building ??= buildRunner({ runner: o.runner, source: parseSource(o.source), log }).then((b) => b.command));
  return {
    outDir,
    command,
    async process(name, measure) {
      const saved = join(outDir, `${name}.json`);
      if (o.reuse && existsSync(saved)) return ResultSchema.parse(JSON.parse(readFileSync(saved, 'utf8')));
      const started = performance.now();
      const run = await measure(await command(), saved);
      for (const p of run.problems) log(`${name}: ${p}`);
      if (!run.result) throw new Error(`${name}: no result`);
      log(`${name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
      return run.result;
    },
  };
}

/** Runs the jobs two at a time: both cores work. */
export async function twoAtATime<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += 2) out.push(...(await Promise.all(jobs.slice(i, i + 2).map((j) => j()))));
  return out;
}

/** Every unordered pair of distinct processes of a pool of `n`. */
export function pairsOf(n: number): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) pairs.push([a, b]);
  return pairs;
}

/** Every A/A run of a pool of `n`: a pair as base and base again, and a third process as head. */
export function aaTriples(n: number): Array<[number, number, number]> {
  return pairsOf(n).flatMap(([a, b]) =>
    Array.from({ length: n }, (_, h) => h)
      .filter((h) => h !== a && h !== b)
      .map((h): [number, number, number] => [a, b, h]),
  );
}
