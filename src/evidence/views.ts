// What a reader sees of each evidence: its names, the figures its comment column and annotation
// show of its verdict on a row (row.evidence[kind], figureOf), the lines and notes that explain it;
// and the report's settings by kind (EvidenceEnv.settings, settingOf). The renderers (src/report/render) and the A/B model (src/ab) loop over
// VIEWS and never name an evidence; each evidence record (registry.ts) spreads its view, so the
// names are defined once. Kept apart from the records so that a renderer (the fork-safe comment
// job) reads them without importing what runs an evidence, and free of src/report (folders import
// each other one way: report reads evidence).
import { z } from 'zod';
import { MEASURES, type MeasureKind } from '../spec/measure.js';
import {
  AB_DEFAULTS,
  ALLOCATION_DEFAULTS,
  INSTRUCTION_DEFAULTS,
  judgedOf,
  noteOf,
  type AbRow,
  type EvidenceVerdicts,
  type StepVerdict,
  type Verdict,
} from '../verdict/index.js';

/** One change a cell or an annotation words: a time change (slower/faster) or an amount (more/fewer `noun`). */
export interface ChangeFigure {
  ratio: number;
  /** "bytes", "allocs": the noun of an amount; none for a plain count. */
  noun?: string;
  time?: boolean;
}

/** An evidence's verdict on one row as the report shows it: its changes, the noise it was held against, the verdict. */
export interface EvidenceFigure {
  changes: ChangeFigure[];
  /** The row's noise floor as a fraction (the A/A spread), when the evidence has one per row. */
  spread?: number;
  /** Wall time's Benjamini–Hochberg q. */
  q?: number;
  /** The row's own thresholds (src/verdict/steps.ts), one per figure where they differ (bytes, allocs). */
  thresholds?: Array<{ threshold: number; name?: string }>;
  verdict: Verdict;
}

/** An evidence's part of the A/B's settings: the counter that measured, its threshold, its time, why it could not run. */
export interface EvidenceSetting {
  counter: string | null;
  threshold: number;
  ms: number;
  unavailable?: string;
}

export const EvidenceSettingSchema = z.strictObject({
  counter: z.string().max(300).nullable(),
  threshold: z.number().gt(0).max(10),
  ms: z.number().finite().nonnegative(),
  unavailable: z.string().max(300).optional(),
}) satisfies z.ZodType<EvidenceSetting>;

/** The A/B report's settings the evidences keep (src/report/model/ab.ts AbReportInput.env extends it): one per evidence measured or asked for. */
export interface EvidenceEnv {
  settings?: Partial<Record<MeasureKind, EvidenceSetting>>;
}

/** An evidence's part of the report's settings, when it was asked for. */
export const settingOf = (env: EvidenceEnv, kind: MeasureKind): EvidenceSetting | undefined => env.settings?.[kind];

export interface EvidenceView<K extends MeasureKind = MeasureKind> {
  kind: K;
  /** In "flagged by", annotations and headers: "wall time", "instructions", "allocations". */
  label: string;
  /** Its own column of the comment's table; wall time's figures fill the change/interval/q columns instead. */
  column: string | null;
  /** The comment's lead-in of its rule: "Instruction counts", "Allocations". */
  title: string;
  /** How a row's cell says a run has no figures: "counted", "measured". */
  verb: string;
  /** The verdict's threshold when none was given (a change of ±threshold). */
  defaultThreshold: number;
  /** The counter named when the run did not say. */
  defaultCounter: string;
  /** The figures a report shows of this evidence's verdict on a row. */
  figures: (v: EvidenceVerdicts[K]) => EvidenceFigure;
  /** The note under the table that says how to read its figures (`history`: the base is the branch's history). */
  note: (history: boolean) => string;
  /** The environment table's line of the time it took ("of which counting instructions"), when it has one. */
  timeLine?: string;
}

/** The figures of a step-rule verdict (instructions, estimated cycles): one change, its spread and threshold. */
const stepFigures = (v: StepVerdict): EvidenceFigure => ({
  changes: [{ ratio: v.ratio }],
  spread: v.spread,
  thresholds: [{ threshold: v.threshold }],
  verdict: v.verdict,
});

const PAIRED_NOTE =
  "change = head against base in time per iteration (Hodges–Lehmann estimate over the paired rounds, each round the median of its lock-step iteration pairs), with its 95% interval and the Benjamini–Hochberg q. base = the median of the rounds' base medians; head = base × that estimate, so the two figures differ by exactly the change shown (pooled medians would mix load levels). ± after a change is the row's noise floor: half the width of its 95% interval for time, and for instructions and allocations the A/A spread, how far two runs of base land apart.";
const HISTORY_NOTE =
  "change = head against history in time per iteration (two-sample Hodges–Lehmann estimate of head iterations against the medians of past runs, Mann–Whitney test), with its 95% interval and the Benjamini–Hochberg q. history = the median of the past runs' medians; head = history × that estimate.";

export const WALL_VIEW: EvidenceView<'wall'> = {
  kind: 'wall',
  label: 'wall time',
  column: null,
  title: 'Wall time',
  verb: 'timed',
  defaultThreshold: AB_DEFAULTS.threshold,
  defaultCounter: 'paired rounds',
  figures: (w) => ({ changes: [{ ratio: w.ratio, time: true }], q: w.q, verdict: w.verdict }),
  note: (history) => (history ? HISTORY_NOTE : PAIRED_NOTE),
};

export const INSTRUCTIONS_VIEW: EvidenceView<'instructions'> = {
  kind: 'instructions',
  label: 'instructions',
  column: 'instructions',
  title: 'Instruction counts',
  verb: 'counted',
  defaultThreshold: INSTRUCTION_DEFAULTS.floor,
  defaultCounter: 'callgrind',
  figures: stepFigures,
  note: () =>
    "instructions = head/base instructions executed per timed iteration under callgrind (CPU rows only: net rows are the node's time). Each counted row has its own threshold, shown in its cell: the larger of the floor and ten times the spread of base against itself (the A/A spread), so a row that repeats exactly flags a change of the floor and a noisy row only what its noise cannot make. Where the floor sets it, a change within the larger of 0.05 points (a tenth of the floor at most) and three A/A spreads of it counts as reaching it. Counts do not see memory, cache or I/O effects: a wall-time regression stands even when counts show none.",
  timeLine: 'of which counting instructions',
};

export const ALLOCATIONS_VIEW: EvidenceView<'allocations'> = {
  kind: 'allocations',
  label: 'allocations',
  column: 'allocations',
  title: 'Allocations',
  verb: 'measured',
  defaultThreshold: ALLOCATION_DEFAULTS.floor,
  defaultCounter: 'runtime accounting',
  figures: (a) => ({
    changes: [{ ratio: a.bytes.ratio, noun: 'bytes' }, ...(a.allocs ? [{ ratio: a.allocs.ratio, noun: 'allocs' }] : [])],
    spread: Math.max(a.bytes.spread, a.allocs?.spread ?? 0),
    thresholds: [{ threshold: a.bytes.threshold, name: 'bytes' }, ...(a.allocs ? [{ threshold: a.allocs.threshold, name: 'allocs' }] : [])],
    verdict: a.verdict,
  }),
  note: () =>
    `allocations = head/base heap bytes (and allocations, where the runtime counts them) per timed iteration, by the runtime's own accounting in separate runs (CPU rows only); flagged like counts, at each row's threshold from its floor and A/A spread. Bytes allocated are not memory kept: peak RSS in the run report tells retained from transient.`,
};

export const CYCLES_VIEW: EvidenceView<'cycles'> = {
  kind: 'cycles',
  label: 'estimated cycles',
  column: 'est. cycles',
  title: 'Estimated cycles',
  verb: 'counted',
  defaultThreshold: INSTRUCTION_DEFAULTS.floor,
  defaultCounter: 'callgrind cache simulation',
  figures: stepFigures,
  note: () =>
    "est. cycles = head/base estimated cycles per timed iteration: callgrind's instructions plus 10 per simulated L1 miss and 100 per last-level miss (a fixed 32 KiB L1, 8 MiB LL; docs/evidence.md), CPU rows only; flagged like counts, at each row's threshold from its floor and A/A spread. A change in how data meets the caches moves cycles where counts stay; a real core's prefetchers and out-of-order execution are not simulated.",
  timeLine: 'of which counting estimated cycles',
};

/** Every evidence's view, by kind. */
export const VIEWS: { [K in MeasureKind]: EvidenceView<K> } = {
  wall: WALL_VIEW,
  instructions: INSTRUCTIONS_VIEW,
  allocations: ALLOCATIONS_VIEW,
  cycles: CYCLES_VIEW,
};

/** The views in MEASURES order (the order of columns, notes and "flagged by"). */
export const VIEW_LIST: readonly EvidenceView[] = MEASURES.map((k) => VIEWS[k] as EvidenceView);

/** A row's figures on an evidence, when it judged the row. */
export function figureOf<K extends MeasureKind>(r: Pick<AbRow, 'evidence'>, v: EvidenceView<K>): EvidenceFigure | undefined {
  const judged = judgedOf(r, v.kind);
  return judged ? v.figures(judged) : undefined;
}

/** Why a row has no verdict on an evidence asked for (re-exported beside figureOf for the renderers). */
export { noteOf };

/** The views with a column of their own (the deterministic evidences). */
export const COLUMN_VIEWS: readonly EvidenceView[] = VIEW_LIST.filter((v) => v.column !== null);
