// Allocation figures in the aggregate model (docs/design.md "Allocations"): each cell's heap bytes
// and allocations per iteration (the median of the allocation run's iterations) and per op of
// work, and their story beside the peak RSS the wall run sampled, as src/verdict/memory.ts decides it.
import type { CaseResult, Runner } from '../../spec/schema.js';
import { allocationMedians } from '../../verdict/allocations.js';
import { memoryStory, RSS_BASELINE_CASE } from '../../verdict/memory.js';
import type { AggregateModel, CaseModel, CellAllocations } from './types.js';

/** A case result's allocation figures, per iteration and per op of work; undefined without any. */
export const cellAllocations = (c: CaseResult): CellAllocations | undefined => allocationMedians(c);

/** Sets each allocating cell's story, against its runner's RSS baseline case when the report has one. */
export function markMemoryStories(cases: readonly CaseModel[], runners: readonly Runner[]): void {
  const baseline = cases.find((c) => c.id === RSS_BASELINE_CASE);
  for (const runner of runners) {
    const floor = baseline?.rows.map((r) => r.cells[runner]).find((c) => c?.status === 'ok' && c.peakRssBytes !== null)?.peakRssBytes;
    if (floor == null) continue;
    for (const row of cases.flatMap((c) => c.rows)) {
      const cell = row.cells[runner];
      if (!cell?.alloc || cell.status !== 'ok' || cell.peakRssBytes === null) continue;
      const story = memoryStory(cell.alloc.bytes, cell.peakRssBytes, floor);
      if (story) cell.alloc.story = story;
    }
  }
}

/** Whether a report shows allocation figures (its model has the allocation scoreboard exactly then). */
export const showsAllocations = (model: AggregateModel): boolean => model.allocScoreboard !== undefined;

/** Whether any cell of the report carries allocation figures (the columns show only then). */
export function hasAllocations(cases: readonly CaseModel[]): boolean {
  return cases.some((c) => c.rows.some((r) => Object.values(r.cells).some((cell) => cell.alloc !== undefined)));
}
