// A PR's A/B measured as parallel pieces (docs/evidence.md "A PR as parallel jobs"): the wall-time
// rounds in one piece (base and head interleaved on one machine, as in a single job), each
// deterministic evidence's cases split over pieces balanced by expected cost (the sharded
// nightly's cost model). Each piece job runs measureAb on its share and writes piece.json; a
// count piece also profiles the rows its counts flag (src/ab/piece-profiles.ts). The merge, which
// runs no client code, reads every piece (zod), names a missing one, and judges and writes the
// same ab.md / ab.json and profiles/ a single job writes (reportAb).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EVIDENCES, PROFILED } from '../evidence/index.js';
import {
  judgeAb,
  measureAb,
  profileFlagged,
  reportAb,
  thresholdsOf,
  type AbJudging,
  type AbMeasured,
  type AbPresentation,
  type AbPipelineOptions,
} from './run.js';
import type { AbReport } from './report.js';
import { planFor } from '../pipeline/options.js';
import { InputError, describeIssues, parseJson } from '../spec/errors.js';
import { loadSpec } from '../spec/load.js';
import {
  DEFAULT_MEASURE,
  DETERMINISTIC,
  MEASURES,
  MeasureKindSchema,
  isDeterministic,
  type DeterministicKind,
  type Measure,
  type MeasureKind,
} from '../spec/measure.js';
import type { Plan } from '../spec/plan.js';
import { KindSchema, ParamValuesSchema, RunSizeSchema, ResultSchema, RunnerSchema } from '../spec/schema.js';
import { balance, type Piece } from '../shard/balance.js';
import { unitCostS, type CostModel } from '../shard/cost.js';
import { carryProfiles, PieceProfilesSchema, type CarriedProfiles } from './piece-profiles.js';

export const AB_PIECE_SCHEMA_ID = 'bee-bench/ab-piece@2';
export const AB_PIECE_FILE = 'piece.json';

/** One piece: wall time is always one piece (its rounds need one machine); the others are K of N. */
export interface PieceRef {
  evidence: MeasureKind;
  index: number;
  total: number;
}

/** "wall", "instructions:2/3": a piece of a split A/B; null when the text is not one. */
export function parsePieceRef(text: string): PieceRef | null {
  const m = /^([a-z]+)(?::(\d+)\/(\d+))?$/.exec(text.trim());
  const evidence = MeasureKindSchema.safeParse(m?.[1]);
  if (!m || !evidence.success) return null;
  const [index, total] = m[2] === undefined ? [1, 1] : [Number(m[2]), Number(m[3])];
  if (!(index >= 1 && index <= total) || (!isDeterministic(evidence.data) && total !== 1)) return null;
  return { evidence: evidence.data, index, total };
}

export const pieceText = (p: PieceRef) => (p.total === 1 ? p.evidence : `${p.evidence}:${p.index}/${p.total}`);

/** How many pieces each evidence of a measure gets: wall time one, the others `split` (at most their case count). */
export type Split = Partial<Record<MeasureKind, number>>;

/** Every piece of a split A/B, wall time first: the matrix of the measure jobs. */
export function piecesOfSplit(measure: Measure, split: Split): PieceRef[] {
  return measure.flatMap((evidence) => {
    const total = isDeterministic(evidence) ? Math.max(1, split[evidence] ?? 1) : 1;
    return Array.from({ length: total }, (_, i) => ({ evidence, index: i + 1, total }));
  });
}

/** The cases of one piece: the evidence's cases of the plan balanced over its pieces by expected cost (largest first). */
export function pieceCases(plan: Plan, piece: PieceRef, model: CostModel): string[] {
  const ev = EVIDENCES[piece.evidence];
  const units = plan.units.filter((u) => ev.takes(u));
  const cases = [...new Set(units.map((u) => u.id))];
  if (piece.total === 1) return cases;
  const byCase: Piece[] = cases.map((id) => ({
    evidence: piece.evidence,
    case: id,
    runners: [plan.runner],
    cost: units.filter((u) => u.id === id).reduce((s, u) => s + unitCostS(model, plan, u, piece.evidence), 0),
  }));
  const shard = balance(byCase, piece.total)[piece.index - 1]!;
  // In plan order, as a single job runs them.
  return cases.filter((id) => shard.pieces.some((p) => p.case === id));
}

// --- the piece file -------------------------------------------------------------------------

const nonneg = z.number().finite().nonnegative();
const text = z.string().max(4000);
const WorkSchema = z.strictObject({ bytes: nonneg.optional(), ops: nonneg.optional() });

const PairedRowSchema = z.strictObject({
  caseId: text,
  label: text,
  kind: KindSchema,
  status: z.enum(['ok', 'skipped', 'failed', 'new', 'missing']),
  note: text.optional(),
  base: z.array(nonneg),
  head: z.array(nonneg),
  logRatios: z.array(z.number().finite()),
  roundsRun: z.number().int().nonnegative(),
  unused: z.array(text),
  work: WorkSchema,
  param: ParamValuesSchema,
});

const stepRowSchema = <F extends z.ZodType>(figures: F) =>
  z.strictObject({
    caseId: text,
    label: text,
    base: figures.nullable(),
    baseAgain: figures.nullable(),
    head: figures.nullable(),
    work: WorkSchema,
    note: text.optional(),
    skipped: z.boolean().optional(),
  });

const outcomeSchema = <K extends DeterministicKind>(kind: K) =>
  z.strictObject({
    kind: z.literal(kind),
    counter: text.nullable(),
    rows: z.array(stepRowSchema(EVIDENCES[kind].figuresSchema)),
    problems: z.array(text),
    elapsedMs: nonneg,
    // A piece keeps no run results: the sides' client and host travel in `sides`.
    results: z.strictObject({ base: z.null(), head: z.null() }),
  });

const MeasuredSchema = z.strictObject({
  wall: z
    .strictObject({ rows: z.array(PairedRowSchema), roundsDone: z.number().int().nonnegative(), stoppedEarly: text.optional(), elapsedMs: nonneg })
    .nullable(),
  deterministic: z.strictObject(Object.fromEntries(DETERMINISTIC.map((k) => [k, outcomeSchema(k).optional()]))),
  /** Why a deterministic evidence asked for could not run, by kind. */
  unavailable: z.partialRecord(MeasureKindSchema, text).optional(),
  sides: z.strictObject({ base: ResultSchema.nullable(), head: ResultSchema.nullable() }),
});

/** What every piece of one A/B shares: the merge refuses a piece whose `ab` differs. */
const SharedSchema = z.strictObject({
  runner: RunnerSchema,
  profile: RunSizeSchema,
  cases: z.array(text),
  large: z.boolean(),
  spec_hash: text,
  measure: z.array(MeasureKindSchema).min(1),
  /** Pieces per evidence. */
  split: z.partialRecord(MeasureKindSchema, z.number().int().positive().max(256)),
  base_label: text,
  head_label: text,
  alpha: z.number().positive().lt(1),
  threshold: nonneg,
  /** Each deterministic evidence's floor, by kind. */
  thresholds: z.partialRecord(MeasureKindSchema, nonneg),
  /** The commits measured, when the pieces ran in the action (the merge job has no checkout to ask). */
  commits: z.strictObject({ base: z.string().regex(/^[0-9a-f]{40}$/), head: z.string().regex(/^[0-9a-f]{40}$/) }).optional(),
});
type Shared = z.infer<typeof SharedSchema>;

export const AbPieceSchema = z.strictObject({
  schema: z.literal(AB_PIECE_SCHEMA_ID),
  piece: z.strictObject({ evidence: MeasureKindSchema, index: z.number().int().positive(), total: z.number().int().positive() }),
  ab: SharedSchema,
  /** The cases this piece measured. */
  cases: z.array(text),
  elapsed_s: nonneg,
  /** A count piece's flagged rows' profile differences (their files in the piece's profiles/). */
  profiles: PieceProfilesSchema.optional(),
});
export type AbPiece = z.infer<typeof AbPieceSchema> & { measured: AbMeasured };
const AbPieceFileSchema = AbPieceSchema.extend({ measured: MeasuredSchema });

export interface PieceOptions extends AbPipelineOptions {
  piece: PieceRef;
  split: Split;
  model: CostModel;
  commits?: { base: string; head: string };
}

/**
 * Measures one piece of a split A/B into <outDir>/piece.json; no report. A count piece judges its
 * own rows' count verdicts (each row's rule needs only its own three runs) and profiles the
 * flagged ones from its dumps, as one job does, into <outDir>/profiles/.
 */
export async function runPiece(o: PieceOptions): Promise<AbPiece> {
  const started = performance.now();
  const measure = o.measure ?? DEFAULT_MEASURE;
  if (!measure.includes(o.piece.evidence))
    throw new InputError('--piece', [`${pieceText(o.piece)} is not in --measure ${measure.join(',')}`], 'pick a piece of an evidence measured');
  const { spec, hash } = loadSpec(o.specFile);
  const cases = pieceCases(planFor(o, spec, hash, o.runner), o.piece, o.model);
  const got = await measureAb({ ...o, measure: [o.piece.evidence], cases, fallbackToWall: false });
  const profiles = o.piece.evidence === PROFILED ? profileFlagged(got.measured, judgeAb(got.measured, got.spec, o), got.plan, o) : null;
  const m = got.measured;
  const measured: AbMeasured = {
    ...m,
    deterministic: Object.fromEntries(Object.entries(m.deterministic).map(([k, out]) => [k, { ...out, results: { base: null, head: null }, raw: undefined }])),
  };
  const piece: AbPiece = {
    schema: AB_PIECE_SCHEMA_ID,
    piece: o.piece,
    ab: sharedOf(o, hash),
    cases,
    elapsed_s: (performance.now() - started) / 1000,
    ...(profiles ? { profiles } : {}),
    measured: JSON.parse(JSON.stringify(measured)) as AbMeasured,
  };
  mkdirSync(o.outDir, { recursive: true });
  writeFileSync(join(o.outDir, AB_PIECE_FILE), `${JSON.stringify(piece, null, 2)}\n`);
  return piece;
}

function sharedOf(o: PieceOptions, hash: string): Shared {
  const measure = o.measure ?? DEFAULT_MEASURE;
  return {
    runner: o.runner,
    profile: o.size,
    cases: [...o.cases],
    large: o.large ?? false,
    spec_hash: hash,
    measure: [...measure],
    split: Object.fromEntries(piecesOfSplit(measure, o.split).map((p) => [p.evidence, p.total])),
    base_label: o.baseLabel,
    head_label: o.headLabel,
    alpha: o.alpha,
    threshold: o.threshold,
    thresholds: thresholdsOf(o),
    ...(o.commits ? { commits: o.commits } : {}),
  };
}

/** Beyond this size a piece file is refused unread (a wall piece of the full profile's 1000 rows is a few MB). */
export const MAX_PIECE_BYTES = 64 << 20;

export function loadPiece(dir: string): AbPiece {
  const file = join(dir, AB_PIECE_FILE);
  const fix = 'pass the folders `bee-bench ab --piece EVIDENCE[:K/N] --out DIR` wrote';
  if (!existsSync(file)) throw new InputError(file, ['missing'], fix);
  const size = statSync(file).size;
  if (size > MAX_PIECE_BYTES) throw new InputError(file, [`${size} bytes, more than the ${MAX_PIECE_BYTES} accepted`], fix);
  const parsed = AbPieceFileSchema.safeParse(parseJson(file, readFileSync(file, 'utf8')));
  if (!parsed.success) throw new InputError(file, describeIssues(parsed.error), fix);
  return parsed.data as AbPiece;
}

// --- the merge ------------------------------------------------------------------------------

export interface AbMergeOutcome {
  report: AbReport;
  /** Pieces of the split with no piece file among the folders: "instructions:2/3". */
  missing: string[];
  pieces: AbPiece[];
  /** The count pieces' profiles as carried into <outDir>/profiles/, when any piece made some. */
  profiles: CarriedProfiles | null;
}

/** The pieces joined and judged as one A/B; `extra` carries what only the merge knows (marker, trend link). */
export function mergePieces(dirs: readonly string[], o: { specFile: string; outDir: string } & Pick<AbPresentation, 'marker' | 'trendUrl'>): AbMergeOutcome {
  if (dirs.length === 0) throw new InputError('merge', ['no piece folders given'], 'pass the folders of every piece');
  const pieces = dirs.map((d) => ({ dir: d, piece: loadPiece(d) }));
  const shared = pieces[0]!.piece.ab;
  const seen = new Map<string, string>();
  for (const { dir, piece } of pieces) {
    const file = join(dir, AB_PIECE_FILE);
    if (JSON.stringify(piece.ab) !== JSON.stringify(shared))
      throw new InputError(file, ['belongs to another A/B (its ab settings differ)'], 'merge the pieces of one A/B only');
    const name = pieceText(piece.piece);
    if (seen.has(name)) throw new InputError(file, [`piece ${name} is also in ${seen.get(name)}`], 'pass each piece once');
    seen.set(name, dir);
  }
  const { spec, hash } = loadSpec(o.specFile);
  if (hash !== shared.spec_hash)
    throw new InputError(o.specFile, [`spec hash ${hash} differs from the pieces' ${shared.spec_hash}`], 'merge with the spec the pieces ran');
  const missing = piecesOfSplit(shared.measure, shared.split)
    .map(pieceText)
    .filter((n) => !seen.has(n));
  const plan = planFor({ size: shared.profile, cases: shared.cases, large: shared.large }, spec, hash, shared.runner);
  const measured = joinPieces(
    pieces.map((p) => p.piece),
    plan,
  );
  const judging: AbJudging = {
    runner: shared.runner,
    alpha: shared.alpha,
    threshold: shared.threshold,
    measure: shared.measure,
    thresholds: shared.thresholds,
  };
  const presentation: AbPresentation = {
    baseLabel: shared.base_label,
    headLabel: shared.head_label,
    ...(o.marker ? { marker: o.marker } : {}),
    ...(o.trendUrl ? { trendUrl: o.trendUrl } : {}),
  };
  const rows = judgeAb(measured, spec, judging);
  const profiles = carryProfiles(
    pieces.map((p) => ({
      dir: p.dir,
      file: join(p.dir, AB_PIECE_FILE),
      evidence: p.piece.piece.evidence,
      cases: p.piece.cases,
      ...(p.piece.profiles ? { profiles: p.piece.profiles } : {}),
    })),
    rows,
    shared.runner,
    o.outDir,
  );
  const report = reportAb(
    measured,
    rows,
    hash,
    { ...judging, ...presentation, size: shared.profile, outDir: o.outDir },
    {
      pieces: pieces.map((p) => ({
        piece: pieceText(p.piece.piece),
        cases: p.piece.cases.length,
        elapsed_s: p.piece.elapsed_s,
        ...(p.piece.profiles ? { profile_s: p.piece.profiles.ms / 1000 } : {}),
      })),
      missingPieces: missing,
      ...(profiles ? { profileMs: profiles.ms } : {}),
    },
    profiles?.diffs,
  );
  return { report, missing, pieces: pieces.map((p) => p.piece), profiles };
}

/** The pieces' figures as one A/B's: the wall piece's rounds, each evidence's rows in plan order, its time the longest piece's. */
export function joinPieces(pieces: readonly AbPiece[], plan: Plan): AbMeasured {
  const order = new Map(plan.units.map((u, i) => [`${u.id}\u0000${String(u.param.label)}`, i]));
  const at = (r: { caseId: string; label: string }) => order.get(`${r.caseId}\u0000${r.label}`) ?? Number.MAX_SAFE_INTEGER;
  const byEvidence = (k: MeasureKind) => pieces.filter((p) => p.piece.evidence === k).sort((a, b) => a.piece.index - b.piece.index);
  // The one piece of the non-deterministic evidence (wall time's rounds) holds them.
  const wall = pieces.map((p) => p.measured.wall).find((w) => w !== null) ?? null;
  const deterministic: AbMeasured['deterministic'] = {};
  for (const kind of DETERMINISTIC) {
    const outs = byEvidence(kind).flatMap((p) => {
      const out = p.measured.deterministic[kind];
      return out ? [out] : [];
    });
    if (outs.length === 0) continue;
    Object.assign(deterministic, {
      [kind]: {
        kind,
        counter: outs.map((x) => x.counter).find((c) => c !== null) ?? null,
        rows: outs.flatMap((x) => x.rows as Array<{ caseId: string; label: string }>).sort((a, b) => at(a) - at(b)),
        problems: outs.flatMap((x) => x.problems),
        elapsedMs: Math.max(...outs.map((x) => x.elapsedMs)),
        results: { base: null, head: null },
      },
    });
  }
  const unavailable = Object.assign({}, ...pieces.map((p) => p.measured.unavailable ?? {})) as NonNullable<AbMeasured['unavailable']>;
  // The sides as a single job names them: from the rounds, else from the first deterministic evidence measured.
  const sideSource = MEASURES.flatMap((k) => byEvidence(k)).find((p) => p.measured.sides.base || p.measured.sides.head);
  return {
    wall,
    deterministic,
    ...(Object.keys(unavailable).length > 0 ? { unavailable } : {}),
    sides: sideSource?.measured.sides ?? { base: null, head: null },
  };
}
