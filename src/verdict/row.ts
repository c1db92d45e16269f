// The row every A/B report is made of, whichever design judged it, and its headline counts.
import { z } from 'zod';
import { VERDICTS, type Verdict } from './change.js';
import { KindSchema, type CaseResult, type Kind } from '../spec/schema.js';
import type { MeasureKind } from '../spec/measure.js';
import type { AllocationVerdict } from './allocations.js';
import type { StepVerdict } from './steps.js';

export type AbStatus = 'ok' | 'skipped' | 'failed' | 'new' | 'missing';

export interface AbRow {
  caseId: string;
  label: string;
  group: string;
  kind: Kind;
  status: AbStatus;
  /** Skip reason, error, or a statistical note such as "too few rounds". */
  note?: string;
  /** Median over rounds of the base's per-round medians (history: of the runs' medians), ns per iteration. */
  baseMedianNs?: number;
  /** baseMedianNs x ratio: the head figure the verdict's own estimate implies, so head / base is the change shown. */
  headMedianNs?: number;
  /** Work per iteration (the same on both sides). */
  work: { ops?: number; bytes?: number };
  /** head / base time (Hodges–Lehmann estimate). */
  ratio?: number;
  /** 95% interval of ratio. */
  ci?: [number, number];
  /**
   * The wall-time noise floor of the row: half the width of the 95% interval, as a fraction of
   * base (0.012 is ±1.2%), set with `ci`. The deterministic evidences' floor is their A/A
   * `spread` (instructions.spread, allocations.bytes.spread and allocations.allocs.spread).
   */
  ciHalfWidth?: number;
  p?: number;
  /** Benjamini–Hochberg q across the rows of this report. */
  q?: number;
  verdict?: Verdict;
  /** Rounds (paired) or history runs the verdict used. */
  rounds: number;
  /** Paired design: rounds the case was run in, when some of them could not be used (see note). */
  roundsRun?: number;
  /** The instruction-count verdict of a CPU row (measure instructions or both). */
  instructions?: StepVerdict;
  /** Why a CPU row has no count verdict when counts were asked for. */
  instructionsNote?: string;
  /** The allocation verdict of a CPU row (measure allocations). */
  allocations?: AllocationVerdict;
  /** Why a CPU row has no allocation verdict when allocations were asked for. */
  allocationsNote?: string;
  /** The estimated-cycles verdict of a CPU row (measure cycles). */
  cycles?: StepVerdict;
  /** Why a CPU row has no cycles verdict when cycles were asked for. */
  cyclesNote?: string;
}

/** One row of a same-job A/B before judging: the paired rounds of both sides (src/run/pairs.ts). */
export interface PairedRow {
  caseId: string;
  label: string;
  kind: Kind;
  status: AbStatus;
  note?: string;
  /** Per paired round, in round order: each side's median iteration (ns). */
  base: number[];
  head: number[];
  /** Per paired round: ln(head / base) from the round's iteration pairs (roundLogRatio). */
  logRatios: number[];
  /** Rounds this row's case was run in; logRatios.length of them were used. */
  roundsRun: number;
  /** One line per round run but not used: "round 3: head killed after its budget of 60 s". */
  unused: string[];
  work: CaseResult['work'];
  param: CaseResult['param'];
}

export interface AbCounts {
  regressions: number;
  improvements: number;
  unchanged: number;
  skipped: number;
  new: number;
  failed: number;
  missing: number;
}

/**
 * A row only the counting or allocation runs saw (nothing was timed): ok when that evidence judged
 * it, else skipped where the runner skipped it and failed where a run lost it, with the reason.
 */
export function untimedRow(
  r: { caseId: string; label: string; skipped?: boolean },
  spec: { cases: ReadonlyArray<{ id: string; group: string; kind: Kind }> },
  judged: boolean,
  note: string | undefined,
  work: CaseResult['work'],
): AbRow {
  const c = spec.cases.find((sc) => sc.id === r.caseId);
  return {
    caseId: r.caseId,
    label: r.label,
    group: c?.group ?? 'unknown',
    kind: c?.kind ?? 'cpu',
    status: judged ? 'ok' : r.skipped ? 'skipped' : 'failed',
    work,
    rounds: 0,
    ...(judged ? {} : { note }),
  };
}

/** Which evidence flagged a row: wall time (paired rounds or history), instruction counts, allocations. */
export function flaggedBy(r: AbRow, verdict: Verdict): MeasureKind[] {
  if (r.status !== 'ok') return [];
  const by: Array<[MeasureKind, Verdict | undefined]> = [
    ['wall', r.verdict],
    ['instructions', r.instructions?.verdict],
    ['allocations', r.allocations?.verdict],
    ['cycles', r.cycles?.verdict],
  ];
  return by.filter(([, v]) => v === verdict).map(([e]) => e);
}

/** The rows a verdict holds for on some evidence, each with the evidence (annotations, fail-on). */
export function flaggedRows(rows: readonly AbRow[], verdict: Verdict): Array<{ row: AbRow; by: MeasureKind[] }> {
  return rows.flatMap((row) => {
    const by = flaggedBy(row, verdict);
    return by.length > 0 ? [{ row, by }] : [];
  });
}

/** A row's verdict on all its evidence: a regression in either is a regression, never hidden by the other. */
export function rowVerdict(r: AbRow): Verdict {
  if (flaggedBy(r, 'regression').length > 0) return 'regression';
  if (flaggedBy(r, 'improvement').length > 0) return 'improvement';
  return '~';
}

/** The rows the counts flagged, largest instruction change first: the order their profiles are made, capped and shown in. */
export function countFlagged(rows: readonly AbRow[]): AbRow[] {
  const change = (r: AbRow) => Math.abs(Math.log(r.instructions?.ratio ?? 1));
  return rows.filter((r) => r.instructions && r.instructions.verdict !== '~').sort((a, b) => change(b) - change(a));
}

export function countRows(rows: readonly AbRow[]): AbCounts {
  const c: AbCounts = { regressions: 0, improvements: 0, unchanged: 0, skipped: 0, new: 0, failed: 0, missing: 0 };
  for (const r of rows) {
    if (r.status === 'ok') {
      if (rowVerdict(r) === 'regression') c.regressions++;
      else if (rowVerdict(r) === 'improvement') c.improvements++;
      else c.unchanged++;
    } else if (r.status === 'skipped') c.skipped++;
    else if (r.status === 'new') c.new++;
    else if (r.status === 'failed') c.failed++;
    else c.missing++;
  }
  return c;
}

const text = (max: number) => z.string().max(max);
const positive = z.number().finite().positive();
const nonnegative = z.number().finite().nonnegative();
const VerdictSchema = z.enum(VERDICTS);
/** A step-rule verdict (instructions.ts); allocation medians may be 0. */
const StepVerdictSchema = (median: z.ZodNumber) =>
  z.strictObject({ base: median, head: median, ratio: positive, spread: nonnegative, threshold: positive, bar: nonnegative, verdict: VerdictSchema });

/**
 * An AbRow read back from a file another job wrote (the fork-safe comment job reads the rows a PR's
 * run left in its artifact): every field typed and every string bounded.
 */
export const AbRowSchema = z.strictObject({
  caseId: text(200),
  label: text(200),
  group: text(100),
  kind: KindSchema,
  status: z.enum(['ok', 'skipped', 'failed', 'new', 'missing']),
  note: text(2000).optional(),
  baseMedianNs: z.number().finite().nonnegative().optional(),
  headMedianNs: z.number().finite().nonnegative().optional(),
  work: z.strictObject({ ops: z.number().finite().nonnegative().optional(), bytes: z.number().finite().nonnegative().optional() }),
  ratio: positive.optional(),
  ci: z.tuple([positive, positive]).optional(),
  ciHalfWidth: nonnegative.optional(),
  p: z.number().min(0).max(1).optional(),
  q: z.number().min(0).max(1).optional(),
  verdict: VerdictSchema.optional(),
  rounds: z.number().int().nonnegative().max(10_000),
  roundsRun: z.number().int().nonnegative().max(10_000).optional(),
  instructions: StepVerdictSchema(positive).optional(),
  instructionsNote: text(2000).optional(),
  allocations: z.strictObject({ bytes: StepVerdictSchema(nonnegative), allocs: StepVerdictSchema(nonnegative).optional(), verdict: VerdictSchema }).optional(),
  allocationsNote: text(2000).optional(),
  cycles: StepVerdictSchema(positive).optional(),
  cyclesNote: text(2000).optional(),
}) satisfies z.ZodType<AbRow>;
