// The figure families a history record's case metrics carry (RecordCase.metrics, by unit): the
// units an evidence writes there (its record's historyMetrics, or history's allocation figures)
// and the words and scale the trend site shows them in. One list, so the site names no evidence:
// a new family is a line here. No imports, so the site's bundle takes it without the engine.

/** How a family's figures are written: bytes (KiB, MiB), a count with decimal prefixes (k, M, G), or a plain number. */
export type MetricScale = 'bytes' | 'count' | 'number';

export interface MetricFamily {
  /** The unit of the median per timed iteration. */
  perIteration: string;
  /** The unit per op of the case's work (per iteration where the case declares no ops). */
  perOp: string;
  /** What the figure is, for an axis title ("Heap bytes per op"). */
  words: string;
  scale: MetricScale;
}

/** Heap bytes of allocation runs; also Go benchmarks' own `B/op` when imported. */
export const HEAP_BYTES_METRICS = { perIteration: 'B/iter', perOp: 'B/op', words: 'Heap bytes', scale: 'bytes' } as const satisfies MetricFamily;
/** Heap allocations of allocation runs; also Go benchmarks' own `allocs/op`. */
export const HEAP_ALLOCS_METRICS = {
  perIteration: 'allocs/iter',
  perOp: 'allocs/op',
  words: 'Heap allocations',
  scale: 'number',
} as const satisfies MetricFamily;
/** Estimated cycles of cache-simulating counting runs (the cycles record's historyMetrics). */
export const CYCLES_METRICS = { perIteration: 'cycles/iter', perOp: 'cycles/op', words: 'Estimated cycles', scale: 'count' } as const satisfies MetricFamily;

/** Every family, each better lower. */
export const METRIC_FAMILIES: readonly MetricFamily[] = [HEAP_BYTES_METRICS, HEAP_ALLOCS_METRICS, CYCLES_METRICS];

/** The family and which of its units a metric unit is, or null for a unit bee-bench does not write (an imported benchmark's own). */
export function metricFamilyOf(unit: string): { family: MetricFamily; per: 'iteration' | 'op' } | null {
  for (const family of METRIC_FAMILIES) {
    if (unit === family.perIteration) return { family, per: 'iteration' };
    if (unit === family.perOp) return { family, per: 'op' };
  }
  return null;
}
