// What a run measures: a comma list of wall (the paired rounds), instructions (callgrind),
// allocations (the runtime's own accounting, BEE_BENCH_ALLOCS=1) and cycles (callgrind's cache
// simulation, estimated cycles); `both` is wall,instructions.
import { z } from 'zod';

export const MEASURES = ['wall', 'instructions', 'allocations', 'cycles'] as const;
export type MeasureKind = (typeof MEASURES)[number];
/** The kinds asked for, each once, in MEASURES order. */
export type Measure = readonly MeasureKind[];

export const MeasureKindSchema = z.enum(MEASURES);

export const MeasureSchema = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((s) => s.trim())
      .flatMap((s) => (s === 'both' ? ['wall', 'instructions'] : [s])),
  )
  .pipe(z.array(MeasureKindSchema).min(1))
  .transform((kinds): Measure => MEASURES.filter((k) => kinds.includes(k)));

/** What a run measures when nothing was asked for: wall time. */
export const DEFAULT_MEASURE: Measure = ['wall'];

export const measuresWall = (m: Measure) => m.includes('wall');
export const measuresInstructions = (m: Measure) => m.includes('instructions');
export const measuresAllocations = (m: Measure) => m.includes('allocations');

/** The deterministic evidences: base twice and head once, judged step by step (src/verdict/steps.ts). */
export type DeterministicKind = Exclude<MeasureKind, 'wall'>;
export const DETERMINISTIC: readonly DeterministicKind[] = ['instructions', 'allocations', 'cycles'];
export const isDeterministic = (k: MeasureKind): k is DeterministicKind => k !== 'wall';

/** Wall time: the one evidence that is not deterministic (timed in paired rounds or against history). */
export const WALL_KIND = 'wall' satisfies MeasureKind;
