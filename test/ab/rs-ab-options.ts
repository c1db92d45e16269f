// The A/B both piece tests run, as one job and as pieces: bee-rs on the quick profile with the
// shared build cache and the CLI's verdict thresholds. Each test names its cases, sources, rounds
// and measures.
import { defaultSpecPath } from '../../src/build/paths.js';
import type { AbPipelineOptions } from '../../src/ab/run.js';

export const specFile = defaultSpecPath();

export type RsAb = Pick<AbPipelineOptions, 'cases' | 'base' | 'head' | 'baseLabel' | 'headLabel' | 'rounds' | 'measure'>;

export const rsAbOptions = (ab: RsAb, outDir: string): AbPipelineOptions => ({
  specFile,
  size: 'quick',
  outDir,
  cacheDir: process.env.BEE_BENCH_CACHE,
  log: () => {},
  runner: 'rs',
  alpha: 0.05,
  threshold: 0.05,
  runBudgetMs: 1_200_000,
  ...ab,
});
