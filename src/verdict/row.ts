// The row every A/B report is made of, whichever design judged it, and its headline counts.
import { z } from 'zod';
import { VERDICTS, type Verdict } from './change.js';
import { KindSchema, type CaseResult, type Kind } from '../spec/schema.js';
import { MEASURES, WALL_KIND, type DeterministicKind, type MeasureKind } from '../spec/measure.js';
import type { AllocationVerdict } from './allocations.js';
import type { StepVerdict } from './steps.js';

export type AbStatus = 'ok' | 'skipped' | 'failed' | 'new' | 'missing';

/** Wall time's verdict on a row: paired rounds, or the head's run against the branch's history. */
export interface WallVerdict {
  /** Median over rounds of the base's per-round medians (history: of the runs' medians), ns per iteration. */
  baseMedianNs: number;
  /** baseMedianNs x ratio: the head figure the verdict's own estimate implies, so head / base is the change shown. */
  headMedianNs: number;
  /** head / base time (Hodges–Lehmann estimate). */
  ratio: number;
  /** 95% interval of ratio, when it is a true 95% interval. */
  ci?: [number, number];
  /**
   * The wall-time noise floor of the row: half the width of the 95% interval, as a fraction of
   * base (0.012 is ±1.2%), set with `ci`. The deterministic evidences' floor is their A/A spread.
   */
  ciHalfWidth?: number;
  p: number;
  /** Benjamini–Hochberg q across the rows of this report. */
  q: number;
  verdict: Verdict;
}

/** The verdict each evidence gives a row, by kind (with VERDICT_SCHEMAS below, the one place a verdict's shape is tied to a kind). */
export interface EvidenceVerdicts {
  wall: WallVerdict;
  instructions: StepVerdict;
  allocations: AllocationVerdict;
  cycles: StepVerdict;
}

/** The verdicts of the deterministic evidences (base twice, head once). */
export type DeterministicVerdicts = { [K in DeterministicKind]: EvidenceVerdicts[K] };

/** One evidence's part of a row: its verdict, or why it has none although it was asked for. */
export type EvidenceVerdict<K extends MeasureKind = MeasureKind> = { judged: EvidenceVerdicts[K]; note?: undefined } | { note: string; judged?: undefined };

/** A row's evidences, each present when it was measured on the row. */
export type RowEvidence = { [K in MeasureKind]?: EvidenceVerdict<K> };

export interface AbRow {
  caseId: string;
  label: string;
  group: string;
  kind: Kind;
  status: AbStatus;
  /** Skip reason, error, or a statistical note such as "too few rounds". */
  note?: string;
  /** Work per iteration (the same on both sides). */
  work: { ops?: number; bytes?: number };
  /** Rounds (paired) or history runs the wall-time verdict used. */
  rounds: number;
  /** Paired design: rounds the case was run in, when some of them could not be used (see note). */
  roundsRun?: number;
  /** Each evidence's verdict on the row, or its note. */
  evidence: RowEvidence;
  /** The row's verdict on all its evidence (rowVerdict), set by withVerdicts on the rows with status ok. */
  verdict?: Verdict;
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
    evidence: {},
    ...(judged ? {} : { note }),
  };
}

/** An evidence's verdict on a row, when it judged the row. */
export const judgedOf = <K extends MeasureKind>(r: Pick<AbRow, 'evidence'>, kind: K): EvidenceVerdicts[K] | undefined =>
  (r.evidence[kind] as EvidenceVerdict<K> | undefined)?.judged;

/** Wall time's verdict on a row, when it was timed and judged (the comment's base, head, change, interval and q columns). */
export const wallOf = (r: Pick<AbRow, 'evidence'>): WallVerdict | undefined => judgedOf(r, WALL_KIND);

/** Why an evidence asked for has no verdict on a row. */
export const noteOf = (r: Pick<AbRow, 'evidence'>, kind: MeasureKind): string | undefined => r.evidence[kind]?.note;

/** Which evidences flagged a row, in MEASURES order. */
export function flaggedBy(r: Pick<AbRow, 'status' | 'evidence'>, verdict: Verdict): MeasureKind[] {
  if (r.status !== 'ok') return [];
  return MEASURES.filter((k) => judgedOf(r, k)?.verdict === verdict);
}

/** The rows a verdict holds for on some evidence, each with the evidence (annotations, fail-on). */
export function flaggedRows(rows: readonly AbRow[], verdict: Verdict): Array<{ row: AbRow; by: MeasureKind[] }> {
  return rows.flatMap((row) => {
    const by = flaggedBy(row, verdict);
    return by.length > 0 ? [{ row, by }] : [];
  });
}

/** A row's verdict on all its evidence: a regression in any is a regression, never hidden by another. */
export function rowVerdict(r: Pick<AbRow, 'status' | 'evidence'>): Verdict {
  if (flaggedBy(r, 'regression').length > 0) return 'regression';
  if (flaggedBy(r, 'improvement').length > 0) return 'improvement';
  return '~';
}

/** The rows with their verdict set (ok rows) or cleared (the others): the one place a row's verdict is decided. */
export function withVerdicts(rows: readonly AbRow[]): AbRow[] {
  return rows.map(({ verdict: _old, ...r }) => (r.status === 'ok' ? { ...r, verdict: rowVerdict(r) } : r));
}

/**
 * The rows an evidence flagged, largest change first: for the evidence whose dumps function
 * profiles read, the order their profiles are made, capped and shown in.
 */
export function flaggedOn(rows: readonly AbRow[], kind: MeasureKind): AbRow[] {
  const change = (r: AbRow) => {
    const j = judgedOf(r, kind);
    return Math.abs(Math.log(j && 'ratio' in j ? j.ratio : 1));
  };
  return rows.filter((r) => (judgedOf(r, kind)?.verdict ?? '~') !== '~').sort((a, b) => change(b) - change(a));
}

export function countRows(rows: readonly AbRow[]): AbCounts {
  const c: AbCounts = { regressions: 0, improvements: 0, unchanged: 0, skipped: 0, new: 0, failed: 0, missing: 0 };
  for (const r of rows) {
    if (r.status === 'ok') {
      const v = r.verdict;
      if (v === 'regression') c.regressions++;
      else if (v === 'improvement') c.improvements++;
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
/** A step-rule verdict (steps.ts); allocation medians may be 0. */
const StepVerdictSchema = (median: z.ZodNumber) =>
  z.strictObject({ base: median, head: median, ratio: positive, spread: nonnegative, threshold: positive, bar: nonnegative, verdict: VerdictSchema });

const WallVerdictSchema = z.strictObject({
  baseMedianNs: nonnegative,
  headMedianNs: nonnegative,
  ratio: positive,
  ci: z.tuple([positive, positive]).optional(),
  ciHalfWidth: nonnegative.optional(),
  p: z.number().min(0).max(1),
  q: z.number().min(0).max(1),
  verdict: VerdictSchema,
});

/** Each evidence's verdict as a file holds it, by kind (with EvidenceVerdicts, the one place a verdict's shape is tied to a kind). */
const VERDICT_SCHEMAS: { [K in MeasureKind]: z.ZodType<EvidenceVerdicts[K]> } = {
  wall: WallVerdictSchema,
  instructions: StepVerdictSchema(positive),
  allocations: z.strictObject({ bytes: StepVerdictSchema(nonnegative), allocs: StepVerdictSchema(nonnegative).optional(), verdict: VerdictSchema }),
  cycles: StepVerdictSchema(positive),
};

const entrySchema = <K extends MeasureKind>(kind: K) =>
  z.union([z.strictObject({ judged: VERDICT_SCHEMAS[kind] }), z.strictObject({ note: text(2000) })]).optional() as z.ZodOptional<z.ZodType<EvidenceVerdict<K>>>;

const RowEvidenceSchema = z.strictObject(Object.fromEntries(MEASURES.map((k) => [k, entrySchema(k)]))) as unknown as z.ZodType<RowEvidence>;

/**
 * An AbRow read back from a file another job wrote (the fork-safe comment job reads the rows a PR's
 * run left in its artifact): every field typed and every string bounded, and the row's verdict the
 * one its evidence gives.
 */
export const AbRowSchema = z
  .strictObject({
    caseId: text(200),
    label: text(200),
    group: text(100),
    kind: KindSchema,
    status: z.enum(['ok', 'skipped', 'failed', 'new', 'missing']),
    note: text(2000).optional(),
    work: z.strictObject({ ops: z.number().finite().nonnegative().optional(), bytes: z.number().finite().nonnegative().optional() }),
    rounds: z.number().int().nonnegative().max(10_000),
    roundsRun: z.number().int().nonnegative().max(10_000).optional(),
    evidence: RowEvidenceSchema,
    verdict: VerdictSchema.optional(),
  })
  .superRefine((r, ctx) => {
    const want = r.status === 'ok' ? rowVerdict(r) : undefined;
    if (r.verdict !== want)
      ctx.addIssue({
        code: 'custom',
        path: ['verdict'],
        message: `is ${r.verdict ?? 'absent'} but the row's evidence gives ${want ?? 'none (status not ok)'}`,
      });
  }) satisfies z.ZodType<AbRow>;
