// The evidences read from callgrind's counting runs (instructions; estimated cycles, the same runs
// with the cache simulation on): one record shape, the CPU units under callgrind, a few iterations
// (src/run/count.ts), judged by the step rule (src/verdict/steps.ts). Only the figures attach to a
// wall-time result: a counting run's times are valgrind's.
import { z } from 'zod';
import { findCounter } from '../count/callgrind.js';
import { attachFigures } from '../run/attach.js';
import { COUNT_ITERATIONS, countRunner, isCounted } from '../run/count.js';
import type { DeterministicKind } from '../spec/measure.js';
import type { CaseResult, Runner } from '../spec/schema.js';
import { median } from '../stats/index.js';
import { judgeSteps } from '../verdict/index.js';
import type { DeterministicEvidence } from './record.js';
import type { EvidenceView } from './views.js';

/** The deterministic kinds a case result carries as a count per timed iteration (callgrind's figures). */
type CountingKind = {
  [K in DeterministicKind]: K extends keyof CaseResult ? (CaseResult[K] extends number[] | undefined ? K : never) : never;
}[DeterministicKind];

export interface CountingOptions<K extends CountingKind> {
  view: EvidenceView<K>;
  /** The folder of the job's output its result files go to. */
  dir: string;
  /** Callgrind's cache simulation (the cycles' misses), at its measured cost over plain counting. */
  cacheSim: boolean;
  /** Callgrind's slowdown against a native iteration: instrumented timed iterations, uninstrumented setup and warmup. */
  slowdown: { setup: number; warmup: number; timed: number };
  /** How the report names the tool, after "callgrind". */
  tool: string;
  /** Its dumps are what function profiles read (DeterministicEvidence.profiles). */
  profiles: boolean;
  /** Timed iterations of its run (default COUNT_ITERATIONS). */
  iterations?: number;
  /** Its figure's units in history records' metrics: per iteration, and per op where the case declares ops. */
  historyUnits?: { perIteration: string; perOp: string };
  /** The figure's quantum in its units (StepOptions.resolution); none for counts, which move by single instructions. */
  resolution?: number;
  /** Clients whose cases each run in a process of their own (CountOptions.processPerUnit). */
  processPerUnit?: readonly Runner[];
}

export function countingEvidence<K extends CountingKind>(kind: K, o: CountingOptions<K>): DeterministicEvidence<K, number[]> {
  const figures = (c: CaseResult): number[] | null => c[kind] ?? null;
  return {
    id: kind,
    label: o.view.label,
    view: o.view,
    deterministic: true,
    takes: isCounted,
    iterations: o.iterations ?? COUNT_ITERATIONS,
    slowdown: o.slowdown,
    dir: o.dir,
    verb: o.view.verb,
    profiles: o.profiles,
    async unavailable() {
      const found = await findCounter();
      return found.counter ? null : found.reason;
    },
    async run(cmd, r) {
      const found = await findCounter();
      if (!found.counter) return { result: null, problems: [found.reason] };
      return countRunner(cmd, {
        runner: r.runner,
        plan: r.plan,
        counter: found.counter,
        out: r.out,
        timeoutMs: r.timeoutMs,
        fixtures: r.fixtures,
        env: r.env,
        onLine: r.onLine,
        iterations: r.iterations ?? o.iterations ?? COUNT_ITERATIONS,
        keepDumps: r.keep,
        ...(o.cacheSim ? { cacheSim: true } : {}),
        // bee-js's perf map and code log only name what function profiles read.
        names: o.profiles,
        processPerUnit: o.processPerUnit?.includes(r.runner) ?? false,
      });
    },
    figures,
    figuresSchema: z.array(z.number().nonnegative()),
    attach: (into, from) =>
      attachFigures(
        into,
        from,
        (c) => {
          const f = figures(c);
          return f ? { [kind]: f } : null;
        },
        from.counter ? { counter: from.counter } : {},
      ),
    counterOf: (r) => (r.counter ? `${o.tool} (${r.counter.version})` : null),
    judge: (floor) => (base, baseAgain, head) => judgeSteps(base, baseAgain, head, { floor, ...(o.resolution ? { resolution: o.resolution } : {}) }),
    defaultThreshold: o.view.defaultThreshold,
    ...(o.historyUnits ? { historyMetrics: (c: CaseResult) => medianMetrics(figures(c), c.work, o.historyUnits!) } : {}),
  };
}

/** The median of a case's figures per iteration, and per op of its work, under the given units. */
function medianMetrics(
  xs: readonly number[] | null,
  work: CaseResult['work'],
  units: { perIteration: string; perOp: string },
): Record<string, number> | undefined {
  if (!xs || xs.length === 0) return undefined;
  const m = median(xs);
  return { [units.perIteration]: m, ...(work.ops !== undefined && work.ops > 0 ? { [units.perOp]: m / work.ops } : {}) };
}
