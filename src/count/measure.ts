// What a run measures: wall time (the paired rounds), instruction counts (callgrind), or both.
import { z } from 'zod';

export const MEASURES = ['wall', 'instructions', 'both'] as const;
export const MeasureSchema = z.enum(MEASURES);
export type Measure = z.infer<typeof MeasureSchema>;

export const measuresWall = (m: Measure) => m !== 'instructions';
export const measuresInstructions = (m: Measure) => m !== 'wall';
