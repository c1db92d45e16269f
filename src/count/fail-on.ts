// Which evidence fails a run with fail-on-regression: wall time, instruction counts, or any.
import { z } from 'zod';
import { flaggedBy, type AbRow } from '../verdict/index.js';

export const FailOnSchema = z.enum(['any', 'wall', 'instructions']);
export type FailOn = z.infer<typeof FailOnSchema>;

export function failsOn(row: AbRow, on: FailOn): boolean {
  const by = flaggedBy(row, 'regression');
  if (on === 'any') return by.length > 0;
  return by.includes(on === 'wall' ? 'wall time' : 'instructions');
}
