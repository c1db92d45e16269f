// The memory rule of the run report (docs/design.md "Allocations"): what a cell's heap bytes per
// iteration and its peak RSS growth say together. Bytes allocated are not memory kept; this is the
// one place that decides when the two disagree enough to call the bytes transient or retained.

/** What bytes allocated and peak RSS growth say together. */
export type MemoryStory = 'transient' | 'retained';

/** The case whose peak RSS is a runner process with nothing allocated: the floor growth is read from. */
export const RSS_BASELINE_CASE = 'cpu.harness.noop';
/**
 * Below this many bytes per iteration RSS cannot tell anything (page-sized, sampled, allocator
 * arenas come and go by megabytes): no story.
 */
export const STORY_MIN_BYTES = 2 ** 20;
/** Transient: the peak RSS grew by less than this fraction of what one iteration allocates. */
export const TRANSIENT_BELOW = 0.25;

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
