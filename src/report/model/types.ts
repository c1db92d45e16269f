// The aggregate model: what every report renderer reads and what aggregate.json holds. Plain JSON
// data (no Maps, no classes) so it round-trips through a file and can be compared across runs.
import type { Client, Host, Kind, RunSize, Runner } from '../../spec/schema.js';
import type { ParamValues } from '../../spec/select.js';
import type { AllocationMedians } from '../../verdict/allocations.js';
import type { MemoryStory } from '../../verdict/memory.js';
import type { PrecisionReason } from '../../verdict/precision.js';

export const AGGREGATE_SCHEMA_ID = 'bee-bench/aggregate@1';

export const RUNNER_LABEL: Readonly<Record<Runner, string>> = { js: 'bee-js', go: 'bee-go', rs: 'bee-rs' };

/** The scope every net.* figure carries (docs/design.md, "Scope of net figures"). */
export const NET_SCOPE_CAVEAT =
  'net.* figures are client ↔ local Bee over loopback HTTP, with deferred uploads (the call returns when chunks are in the local store) and downloads served from the warm local cache. They are not Swarm-network throughput.';

export interface RunnerInfo {
  runner: Runner;
  label: string;
  client: Client;
  /** As the runner reported it, os and arch in Node's names (spec/platform.ts): one vocabulary for every client. */
  host: Host;
  bee: { url: string; version: string } | null;
  specHash: string;
  profile: RunSize;
  startedAt: string;
  finishedAt: string | null;
}

/** A runner the run was asked for that has no result: skipped before it ran, or failed to build or run. */
export interface NotRun {
  runner: Runner;
  status: 'skipped' | 'failed';
  reason: string;
  /** What brings it back, when known (a checkout for bee-go where the proxy refuses it). */
  fix?: string;
}

/** The machine while the run ran, as the engine saw it (not the runners: their host block has no load). */
export interface Environment {
  /** 1, 5 and 15 minute load averages at the end of the run. */
  loadAverage: [number, number, number];
  cpus: number;
}

/** A digest disagreement the spec lists as known (spec case `known`, by FINDINGS.md id). */
export interface KnownDisagreement {
  finding: string;
  runners: Runner[];
  doc: string;
  url: string;
}

export type CellStatus = 'ok' | 'skipped' | 'failed';

/** What a row's ratios compare: time per byte, per op, or per iteration when no work is declared. */
export type Basis = 'bytes' | 'ops' | 'iteration';

export interface Cell {
  runner: Runner;
  status: CellStatus;
  /** skip_reason or error. */
  reason?: string;
  /** The runner-effective param (per_runner scaling applied). */
  param: ParamValues;
  work: { ops?: number; bytes?: number };
  n: number;
  warmup: number;
  medianNs?: number;
  minNs?: number;
  maxNs?: number;
  /** Scaled MAD (1.4826 x raw), ns. */
  madNs?: number;
  /** sd / mean, a fraction. */
  cv?: number;
  /** Only when n >= 10. */
  p95Ns?: number;
  /** Half-range around the median as a fraction of it: max(median - min, max - median) / median. */
  spread?: number;
  /** median / work units of the row's basis: what ratios and bars compare. */
  unitCostNs?: number;
  /** unitCost / the fastest unitCost in the row; only in contested rows (two or more ok cells). */
  ratio?: number;
  /** The median's order-statistic interval in unitCost units (src/stats/scoreboard.ts); absent under two samples. */
  costInterval?: CostInterval;
  /** The interval of `ratio` (src/stats/scoreboard.ts costRatioInterval: from this cell's and the fastest's iterations); on the slower cells of contested rows. */
  ratioInterval?: CostInterval;
  fastest?: boolean;
  /** work.bytes / median. */
  bytesPerNs?: number;
  /** median / work.ops. */
  perOpNs?: number;
  peakRssBytes: number | null;
  /** Heap allocations from the allocation run (--measure allocations), when it ran for this cell. */
  alloc?: CellAllocations;
  /** sum(cpu_ns) / sum(samples_ns): ~1 single-thread CPU-bound, < 1 waiting, > 1 multi-threaded. */
  cpuWallRatio?: number;
  /** Why the figure is low-precision (src/verdict/precision.ts); absent when it is not. */
  lowPrecision?: PrecisionReason[];
  samplesNs: number[];
  digest?: string;
}

/** What bytes allocated and peak RSS growth say together (decided by src/verdict/memory.ts). */
export type { MemoryStory };

/** The medians of the allocation run's timed iterations (src/verdict/allocations.ts), and their story. */
export interface CellAllocations extends AllocationMedians {
  story?: MemoryStory;
}

export interface DigestValue {
  runner: Runner;
  digest: string;
  /** Set when the value comes from a case checked against another one (spec `digest.same_as`). */
  caseId?: string;
}

export interface Row {
  caseId: string;
  group: string;
  kind: Kind;
  label: string;
  basis: Basis;
  opLabel: string;
  /** Runners ran different work for this row (per_runner scaling): compare per op / per byte only. */
  scaled: boolean;
  cells: Partial<Record<Runner, Cell>>;
  /** Two or more ok cells: the row has a ranking. */
  contested: boolean;
  fastest: Runner[];
  /** Present when runners that reported a digest disagree; lists every runner's value. */
  digestMismatch?: DigestValue[];
  /** The mismatch is one the spec lists as known: exactly these runners differ from the rest. */
  digestKnown?: KnownDisagreement;
  /** The net-scope caveat on net.* rows. */
  caveat?: string;
  /** Some ok cell's figure is low-precision (for A/B-size claims): marked; the scoreboard still ranks it when its ranking is clear. */
  lowPrecision?: true;
  /** The fastest cell's interval overlaps another's: the ranking is open and the scoreboard leaves the row out. */
  rankingOpen?: true;
}

export interface Fit {
  runner: Runner;
  points: number;
  /** Fixed per-call overhead, ns (the intercept; may be negative when the fit is poor). */
  overheadNs: number;
  /** Marginal (peak) throughput, bytes/ns; null when the slope is not positive. */
  bytesPerNs: number | null;
  r2: number;
}

export interface CaseModel {
  id: string;
  kind: Kind;
  group: string;
  doc: string;
  digestDoc?: string;
  opLabel: string;
  rows: Row[];
  /** Latency-vs-size fits, per runner with two or more distinct byte sizes. */
  fits: Fit[];
}

export interface GroupModel {
  id: string;
  title: string;
  note: string;
  cases: CaseModel[];
}

import type { BoardRows, CostInterval, ScoreEntry } from '../../stats/scoreboard.js';
export type { BoardRows, CostInterval, ScoreEntry };

export interface AllocScoreEntry extends ScoreEntry {
  /** Compared rows where this runner allocated nothing in the timed region: no ratio to zero, so out of the mean. */
  zeroRows: number;
}

export interface AggregateModel {
  schema: typeof AGGREGATE_SCHEMA_ID;
  runners: RunnerInfo[];
  /** Runners asked for that have no result, with why; absent in models from before this field. */
  notRun?: NotRun[];
  environment?: Environment;
  /** Distinct spec hashes across the results (one when consistent). */
  specHashes: string[];
  profiles: RunSize[];
  /** Data problems a reader must see first: spec drift, unfinished runs, unknown cases. */
  warnings: string[];
  groups: GroupModel[];
  scoreboard: ScoreEntry[];
  /** The rows the time scoreboard is taken over and the low-precision ones it leaves out; absent in models from before this field. */
  scoreboardRows?: BoardRows;
  /** The scoreboard of heap bytes per unit of work; present when some cell has allocation figures. */
  allocScoreboard?: AllocScoreEntry[];
  hasNet: boolean;
  /** Earliest start and latest finish across the results (the only timestamps a report shows). */
  startedAt: string | null;
  finishedAt: string | null;
}

/** Every row of the model in report order. */
export function allRows(model: AggregateModel): Row[] {
  return model.groups.flatMap((g) => g.cases.flatMap((c) => c.rows));
}

/** The runners present, in model order. */
export function runnersOf(model: AggregateModel): Runner[] {
  return model.runners.map((r) => r.runner);
}

/** Stable key of a row across models: case id and param label. */
export function rowKey(row: Pick<Row, 'caseId' | 'label'>): string {
  return `${row.caseId}\u0000${row.label}`;
}
