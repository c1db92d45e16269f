// What an evidence is (docs/design.md "Evidence"): one record per MeasureKind saying which plan
// units it takes, how many iterations, how one run of it goes, how its figures attach to a result,
// and (for the deterministic ones) how a row is judged. Every orchestration (single run, A/B,
// shard, PR piece) loops over the measure list and asks these records; none names an evidence.
import type { z } from 'zod';
import type { RunnerCommand } from '../build/builder.js';
import type { BeeTarget } from '../run/invoke.js';
import type { DeterministicKind, MeasureKind } from '../spec/measure.js';
import type { Plan, PlanUnit } from '../spec/plan.js';
import type { CaseResult, Result, Runner } from '../spec/schema.js';
import type { DeterministicVerdicts } from '../verdict/index.js';
import type { EvidenceView } from './views.js';

/** One process of an evidence over a plan; every field is the same for every evidence. */
export interface EvidenceRunOptions {
  runner: Runner;
  /** The job's plan; the evidence takes its own units and iterations from it. */
  plan: Plan;
  /** The result file the run leaves. */
  out: string;
  /** Budget of one native process for `plan` (an evidence that runs slower stretches it). */
  timeoutMs: number;
  fixtures?: string;
  bee?: BeeTarget;
  env?: Readonly<Record<string, string>>;
  onLine?: (line: string) => void;
  /** Timed iterations of a deterministic run (default: the evidence's `iterations`). */
  iterations?: number;
  /** A folder where the run's raw output stays for later reading (callgrind's dumps, for function profiles). */
  keep?: string;
}

export interface EvidenceRun {
  /** The run's result with the evidence's figures on its cases; null when it wrote none. */
  result: Result | null;
  /** What went wrong, one line each; the run's other figures stand. */
  problems: string[];
}

interface EvidenceBase<K extends MeasureKind> {
  id: K;
  /** In logs and problems: the view's label ("wall time", "instructions"). */
  label: string;
  /** What a reader sees of it (views.ts): names, cells, notes; the renderers read these alone. */
  view: EvidenceView<K>;
  /** The plan units it measures (counts and allocations: CPU units; net units are the node's time). */
  takes: (u: Pick<PlanUnit, 'kind'>) => boolean;
  /** Timed iterations per unit: the profile's (wall) or a fixed few (deterministic). */
  iterations: number | 'profile';
  /**
   * Its slowdown against a native timed iteration, for the cost model of shards and pieces
   * (src/shard/cost.ts): of a unit's setup, of its warmup iterations and of its timed ones.
   */
  slowdown: { setup: number; warmup: number; timed: number };
  /** The folder of the job's output its result files go to: results, counts, allocations. */
  dir: string;
  /** Why it cannot run where the engine runs (no valgrind) or for this client (not calibrated to judge), or null. */
  unavailable: (runner: Runner) => Promise<string | null>;
  /** One run of a built runner over the units it takes. */
  run: (cmd: RunnerCommand, o: EvidenceRunOptions) => Promise<EvidenceRun>;
}

export type WallEvidence = EvidenceBase<'wall'> & { deterministic: false };

/** An evidence whose figures do not depend on the machine's load: base twice and head once, at the same time. */
export interface DeterministicEvidence<K extends DeterministicKind, F> extends EvidenceBase<K> {
  deterministic: true;
  iterations: number;
  /** A case's figures per timed iteration, or null when it has none. */
  figures: (c: CaseResult) => F | null;
  /** The figures read back from a file another job wrote (a PR piece). */
  figuresSchema: z.ZodType<F>;
  /** `into` with the figures of the matching cases of `from`. */
  attach: (into: Result, from: Result) => Result;
  /** The tool that measured, as the report names it ("callgrind (valgrind-3.19.0)"), from a run's result. */
  counterOf: (r: Result) => string | null;
  /** "counted", "measured": how a row's note says a run has no figures. */
  verb: string;
  /** The verdict rule at a floor (src/verdict/steps.ts: each row's threshold is the larger of it and ten A/A spreads). */
  judge: (floor: number) => (base: F, baseAgain: F, head: F) => DeterministicVerdicts[K];
  /** The default floor (the name is older than the per-row thresholds). */
  defaultThreshold: number;
  /**
   * Function profiles are made of its runs' raw output (callgrind's dumps) for the rows it flags
   * (src/profile): its runs keep that output while an A/B profiles, and its pieces carry the profiles.
   */
  profiles: boolean;
  /**
   * The figures a history record keeps of a case in its `metrics`, by unit (src/history/record.ts;
   * the trend site's case view charts any metric), or undefined: instructions have a field of their
   * own and allocations their own metrics, so only an evidence that sets this adds any.
   */
  historyMetrics?: (c: CaseResult) => Record<string, number> | undefined;
}
