// Which evidence fails a run with fail-on-regression: one of the measure's kinds (src/spec/measure.ts MEASURES), or any.
import { z } from 'zod';
import { MEASURES } from '../spec/measure.js';
import { countRows, flaggedBy, type AbRow } from './row.js';

export const FailOnSchema = z.enum(['any', ...MEASURES]);
export type FailOn = z.infer<typeof FailOnSchema>;

export function failsOn(row: AbRow, on: FailOn): boolean {
  const by = flaggedBy(row, 'regression');
  return on === 'any' ? by.length > 0 : by.includes(on);
}

/** What fail-on-regression fails on, in the action and the CLI alike: regressions by the chosen evidence, and rows the head failed or lost. */
export function failingRows(rows: readonly AbRow[], on: FailOn): { regressions: number; failed: number; missing: number } {
  const { failed, missing } = countRows(rows);
  return { regressions: rows.filter((r) => failsOn(r, on)).length, failed, missing };
}
