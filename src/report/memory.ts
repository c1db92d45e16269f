// Allocation figures in the run report (docs/design.md "Allocations"): each cell's heap bytes and
// allocations per iteration (the median of the allocation run's iterations) and per op of work,
// and what they say beside the peak RSS the wall run sampled: bytes allocated are not memory kept.
import type { CaseResult, Runner } from '../spec/schema.js';
import { RUNNER_LABEL, type AggregateModel, type AllocScoreEntry, type CellAllocations, type CaseModel, type MemoryStory } from './model.js';
import { allocationMedians } from '../verdict/allocations.js';
import { formatBytes, formatRatio } from './units.js';

/** The case whose peak RSS is a runner process with nothing allocated: the floor growth is read from. */
export const RSS_BASELINE_CASE = 'cpu.harness.noop';
/**
 * Below this many bytes per iteration RSS cannot tell anything (page-sized, sampled, allocator
 * arenas come and go by megabytes): no story.
 */
export const STORY_MIN_BYTES = 2 ** 20;
/** Transient: the peak RSS grew by less than this fraction of what one iteration allocates. */
export const TRANSIENT_BELOW = 0.25;

/** A case result's allocation figures, per iteration and per op of work; undefined without any. */
export const cellAllocations = (c: CaseResult): CellAllocations | undefined => allocationMedians(c);

/**
 * What a row's bytes allocated and its peak RSS growth (over the same runner's RSS baseline case)
 * say together. Transient: an iteration allocates at least 4x what the process ever grew by, so
 * most of it was short-lived (collector or allocator work, not memory); conclusive, since
 * anything else resident only adds to the growth. Retained: the process grew by at least what
 * one iteration allocates, as it would if it kept it; setup data or what earlier cases left
 * resident look the same, so it only reads "consistent with". Between the two, or under
 * STORY_MIN_BYTES, the figures do not disagree enough to say: undefined.
 */
export function memoryStory(bytesPerIteration: number, peakRss: number, baselineRss: number): MemoryStory | undefined {
  if (bytesPerIteration < STORY_MIN_BYTES) return undefined;
  const growth = Math.max(0, peakRss - baselineRss);
  if (growth < TRANSIENT_BELOW * bytesPerIteration) return 'transient';
  if (growth >= bytesPerIteration) return 'retained';
  return undefined;
}

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

/** What the allocation line says, for the legend of a report that has one. */
export const ALLOC_LEGEND = `heap: bytes and allocations per op of work inside the timed region, by the runtime's own accounting in a separate allocation run (median of its iterations; CPU rows; bee-js counts bytes only). Bytes allocated are not memory kept: transient = one iteration allocates at least ${1 / TRANSIENT_BELOW}x what the peak RSS grew by over the runner's ${RSS_BASELINE_CASE} row (short-lived: collector or allocator work, not memory); retained = the peak RSS grew by at least what one iteration allocates (consistent with keeping it, but setup data or what earlier cases left resident read the same: transient is the conclusive reading); no word where the two do not disagree that clearly, below ${formatBytes(STORY_MIN_BYTES)} per iteration, or without a ${RSS_BASELINE_CASE} row.`;

export const ALLOC_SCOREBOARD_NOTE =
  "Geometric mean over rows where two or more runners have allocation figures of each runner's heap bytes per unit of work (per byte on byte rows, per op otherwise) as a multiple of the least in the row; 1.00x = least everywhere. Least = rows where the runner allocated least. A row where some runner allocates nothing in the timed region has no ratio: it is out of the mean and Rows, and counted under Allocates nothing for the runners at zero.";

/** The allocation scoreboard as a table, the markup left to the renderer (`text` escapes, `strong` marks the least). */
export function allocScoreboardTable(
  model: AggregateModel,
  entries: readonly AllocScoreEntry[],
  text: (s: string) => string,
  strong: (s: string) => string,
): { headers: string[]; rows: string[][] } {
  const groups = model.groups.filter((g) => entries.some((s) => s.byGroup[g.id] != null));
  const best = Math.min(...entries.map((s) => s.geomean ?? Infinity));
  return {
    headers: ['Runner', 'Least', 'Rows', 'Overall', 'Allocates nothing', ...groups.map((g) => text(g.title))],
    rows: entries.map((s) => [
      text(RUNNER_LABEL[s.runner]),
      String(s.wins),
      String(s.rows),
      s.geomean !== null && s.geomean === best ? strong(formatRatio(s.geomean)) : formatRatio(s.geomean),
      String(s.zeroRows),
      ...groups.map((g) => formatRatio(s.byGroup[g.id])),
    ]),
  };
}

/** Whether a report shows allocation figures (its model has the allocation scoreboard exactly then). */
export const showsAllocations = (model: AggregateModel): boolean => model.allocScoreboard !== undefined;

/** Whether any cell of the report carries allocation figures (the columns show only then). */
export function hasAllocations(cases: readonly CaseModel[]): boolean {
  return cases.some((c) => c.rows.some((r) => Object.values(r.cells).some((cell) => cell.alloc !== undefined)));
}
