// A same-job A/B of one runner built on two client sources (`bee-bench ab`, the action's pull
// requests and base-ref runs, each bisect step): build -> plan -> each evidence of the measure
// (wall time as lock-step rounds, src/run; the deterministic ones base twice and head once,
// src/evidence) -> verdicts (src/verdict, judgeAb, once per A/B) -> ab.md, ab.json, counts and
// annotations (report.ts).
// measureAb and reportAb are the two halves: a PR measured as parallel pieces runs the first (and
// a count piece profileFlagged on its own rows) in each piece job and the second once, in the
// merge (pieces.ts).
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NodeSide } from '../bee/node-sides.js';
import { MAX_PROFILE_BYTES, profileAb, type ProfileDiff } from '../profile/index.js';
import { renderProfileHtml } from '../report/render/profile-html.js';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import {
  EVIDENCES,
  PROFILED,
  deterministicAb,
  deterministicOf,
  deterministicEvidence,
  type DeterministicAbOutcome,
  type DeterministicFigures,
} from '../evidence/index.js';
import { DEFAULT_MEASURE, DETERMINISTIC, MEASURES, isDeterministic, measuresWall, type DeterministicKind, type Measure } from '../spec/measure.js';
import type { EvidenceSetting } from '../evidence/views.js';
import type { AbReportInput } from '../report/model/ab.js';
import type { AggregateModel } from '../report/model/types.js';
import { pairRows } from '../run/pairs.js';
import { runRounds, type RoundsOutcome } from '../run/rounds.js';
import type { Side } from '../run/side.js';
import { loadSpec } from '../spec/load.js';
import { planOf, type Plan, type PlanUnit } from '../spec/plan.js';
import { globToRegExp } from '../spec/select.js';
import type { Result, Runner, Spec } from '../spec/schema.js';
import { attachStepRows, flaggedOn, judgedOf, judgePaired, loadShift, withVerdicts, type AbRow, type PairedRow } from '../verdict/index.js';
import { clientText, writeAbReport, type AbReport } from './report.js';
import { checkNode, planFor, processBudgetMs, type PipelineOptions } from '../pipeline/options.js';

/** How an A/B is judged: what judgeAb needs besides the figures (a merge of pieces reads it from them). */
export interface AbJudging {
  runner: Runner;
  alpha: number;
  /** Wall time's change threshold. */
  threshold: number;
  /** Default wall. A deterministic evidence: the CPU rows also get its verdict (base twice, head once). */
  measure?: Measure;
  /** Each deterministic evidence's floor (default: the evidence's own, EVIDENCES[kind].defaultThreshold). */
  thresholds?: Partial<Record<DeterministicKind, number>>;
  /** Counted rows whose cases match these globs are profiled whether or not their counts flag them (--profile-case). */
  profileCases?: readonly string[];
}

/** How an A/B is shown: labels, the comment's marker, links and context; no verdict depends on these. */
export interface AbPresentation {
  baseLabel: string;
  headLabel: string;
  marker?: string;
  trendUrl?: string;
  crossClient?: AggregateModel;
}

export interface AbPipelineOptions extends PipelineOptions, AbJudging, AbPresentation {
  base: ClientSource;
  head: ClientSource;
  buildCommand?: string;
  rounds: number;
  runBudgetMs: number;
  /** Extra environment per side (the calibration injects a slowdown into head). */
  env?: Partial<Record<Side, Record<string, string>>>;
  /** Keep the counting runs' callgrind dumps in <out>/counts/raw-<run>/ (function profiles read them). */
  keepRaw?: boolean;
  /** Where a deterministic evidence cannot run (no valgrind), measure wall time instead (default; a PR piece measures only its own evidence). */
  fallbackToWall?: boolean;
  /** Use builds already in the cache (a build job's artifact) and never build. */
  prebuilt?: boolean;
  /**
   * A node A/B: each side runs against its own Bee node (src/bee/node-sides.ts) and both sides run
   * one client build (`base`; `head` must be the same source). Wall time only.
   */
  nodes?: Record<Side, NodeSide>;
}

type DeterministicOutcomes = { [K in DeterministicKind]: DeterministicAbOutcome<DeterministicFigures[K]> };

/** What an A/B measured, before any verdict: a piece file holds one part of it. */
export interface AbMeasured {
  /** The paired rounds' rows, when wall time was measured. */
  wall: { rows: PairedRow[]; roundsDone: number; stoppedEarly?: string; elapsedMs: number } | null;
  deterministic: { [K in DeterministicKind]?: DeterministicOutcomes[K] };
  /** Why a deterministic evidence asked for cannot run here, by kind. */
  unavailable?: Partial<Record<DeterministicKind, string>>;
  /** Each side's first result without its cases: its client and host name the report's sides. */
  sides: Record<Side, Result | null>;
}

export interface AbPipelineOutcome {
  report: AbReport;
  measured: AbMeasured;
  rounds: RoundsOutcome;
  builds: Record<Side, BuiltRunner>;
}

const NO_ROUNDS: RoundsOutcome = { cases: [], roundsDone: 0, elapsedMs: 0 };

/** The asked measure, less the deterministic evidences that cannot run here (wall time then stands in, rather than nothing). */
async function measurable(
  runner: Runner,
  asked: Measure,
  fallbackToWall: boolean,
  log: (line: string) => void,
): Promise<{ measure: Measure; unavailable?: Partial<Record<DeterministicKind, string>> }> {
  const unavailable: Partial<Record<DeterministicKind, string>> = {};
  for (const kind of deterministicOf(asked)) {
    const why = await deterministicEvidence(kind).unavailable(runner);
    if (!why) continue;
    unavailable[kind] = why;
    log(`${EVIDENCES[kind].label} unavailable: ${why}${fallbackToWall ? '; wall time stands in' : ''}`);
  }
  if (Object.keys(unavailable).length === 0) return { measure: asked };
  const rest = asked.filter((k) => !isDeterministic(k) || !unavailable[k]);
  return { measure: fallbackToWall ? MEASURES.filter((k) => !isDeterministic(k) || rest.includes(k)) : rest, unavailable };
}

/** Builds both sides and measures each evidence of the measure on them; no verdict yet. */
export async function measureAb(
  o: AbPipelineOptions,
): Promise<{ measured: AbMeasured; rounds: RoundsOutcome; builds: Record<Side, BuiltRunner>; spec: Spec; hash: string; plan: Plan }> {
  const { spec, hash } = loadSpec(o.specFile);
  const plan = planFor(o, spec, hash, o.runner);
  if (o.nodes) {
    // The node is the variable: instruction and allocation counts are the client's, the same build on both sides.
    if ((o.measure ?? DEFAULT_MEASURE).some(isDeterministic)) throw new Error('a node A/B measures wall time only: the client build is the same on both sides');
    for (const side of ['base', 'head'] as const) await checkNode({ ...o, bee: o.nodes[side] }, plan.units);
  } else await checkNode(o, plan.units);
  const build = (source: ClientSource) =>
    buildRunner({ runner: o.runner, source, cacheDir: o.cacheDir, buildCommand: o.buildCommand, reuseOnly: o.prebuilt, log: o.log });
  const baseBuild = await build(o.base);
  const builds = { base: baseBuild, head: o.nodes ? baseBuild : await build(o.head) };
  const { measure, unavailable } = await measurable(o.runner, o.measure ?? DEFAULT_MEASURE, o.fallbackToWall ?? true, o.log);
  const sides = { base: builds.base.command, head: builds.head.command };
  const rounds = measuresWall(measure) ? await runRounds(sides, roundsOptions(o, plan)) : NO_ROUNDS;
  const measured: AbMeasured = {
    wall: measuresWall(measure)
      ? {
          rows: pairRows(rounds),
          roundsDone: rounds.roundsDone,
          elapsedMs: rounds.elapsedMs,
          ...(rounds.stoppedEarly ? { stoppedEarly: rounds.stoppedEarly } : {}),
        }
      : null,
    deterministic: {},
    ...(unavailable ? { unavailable } : {}),
    sides: { base: null, head: null },
  };
  // One set of options for every deterministic evidence: each takes its own units and iterations.
  const measureKind = async <K extends DeterministicKind>(kind: K) => {
    const ev = deterministicEvidence(kind);
    const out = await deterministicAb(ev, sides, {
      runner: o.runner,
      plan,
      outDir: resolve(o.outDir),
      timeoutMs: processBudgetMs(planOf(plan, ev.takes)),
      fixtures: o.fixtures,
      env: o.env,
      log: o.log,
      // Raw output is kept where function profiles read it, or where asked.
      keepRaw: o.keepRaw === true || ev.profiles,
    });
    for (const p of out.problems) o.log(`${ev.label}: ${p}`);
    Object.assign(measured.deterministic, { [kind]: out });
  };
  for (const kind of deterministicOf(measure)) await measureKind(kind);
  // The sides' client and host: from the rounds, else from the deterministic runs.
  for (const side of ['base', 'head'] as const) {
    const first =
      rounds.cases.flatMap((c) => c.runs).find((r) => r.side === side && r.result)?.result ??
      deterministicOf(measure)
        .map((k) => measured.deterministic[k]?.results[side])
        .find((r) => r) ??
      null;
    measured.sides[side] = first ? { ...first, cases: [] } : null;
  }
  return { measured, rounds, builds, spec, hash, plan };
}

function roundsOptions(o: AbPipelineOptions, plan: Plan) {
  const caseBudgetMs = Math.max(0, ...[...new Set(plan.units.map((u) => u.id))].map((id) => processBudgetMs(planOf(plan, (u: PlanUnit) => u.id === id))));
  return {
    plan,
    rounds: o.rounds,
    outDir: resolve(o.outDir),
    caseBudgetMs,
    runBudgetMs: o.runBudgetMs,
    fixtures: o.fixtures,
    bee: o.bee,
    ...(o.nodes ? { beeBySide: { base: o.nodes.base, head: o.nodes.head } } : {}),
    env: o.env,
    log: o.log,
  };
}

/** The deterministic verdict thresholds of an A/B: each evidence's floor, or its default. */
export const thresholdsOf = (j: Pick<AbJudging, 'thresholds'>): Record<DeterministicKind, number> =>
  Object.fromEntries(DETERMINISTIC.map((k) => [k, j.thresholds?.[k] ?? EVIDENCES[k].defaultThreshold])) as Record<DeterministicKind, number>;

/** The report's rows: wall time judged across all rows, then each deterministic evidence's verdicts joined on, then each row's own verdict. */
export function judgeAb(m: AbMeasured, spec: Spec, j: AbJudging): AbRow[] {
  let rows = m.wall ? judgePaired(m.wall.rows, spec, { alpha: j.alpha, threshold: j.threshold }) : [];
  const thresholds = thresholdsOf(j);
  const attach = <K extends DeterministicKind>(kind: K) => {
    const out = m.deterministic[kind];
    if (!out) return;
    const ev = deterministicEvidence(kind);
    rows = attachStepRows(rows, out.rows, spec, { kind, judge: ev.judge(thresholds[kind]), missing: `not ${ev.verb}` });
  };
  for (const kind of deterministicOf(j.measure ?? DEFAULT_MEASURE)) attach(kind);
  return withVerdicts(rows);
}

/** Each deterministic evidence asked for, as the report's settings hold it: counter, threshold, time, why it could not run. */
function settingsOf(m: AbMeasured, j: AbJudging): Partial<Record<DeterministicKind, EvidenceSetting>> {
  const thresholds = thresholdsOf(j);
  return Object.fromEntries(
    deterministicOf(j.measure ?? DEFAULT_MEASURE).map((k) => {
      const out = m.deterministic[k];
      const why = m.unavailable?.[k];
      return [k, { counter: out?.counter ?? null, threshold: thresholds[k], ms: out?.elapsedMs ?? 0, ...(why ? { unavailable: why } : {}) }];
    }),
  );
}

/** The report files (ab.md, ab.json) of what was measured and the rows judgeAb made of it (judged once per A/B). */
export function reportAb(
  m: AbMeasured,
  rows: AbRow[],
  hash: string,
  j: AbJudging & AbPresentation & Pick<PipelineOptions, 'size' | 'outDir'>,
  details: Record<string, unknown> = {},
  profiles?: readonly ProfileDiff[],
  nodes?: Record<Side, NodeSide>,
): AbReport {
  const load = m.wall ? loadShift(m.wall.rows) : null;
  const head = m.sides.head;
  const wallMs = m.wall?.elapsedMs ?? 0;
  const outcomes = DETERMINISTIC.flatMap((k) => {
    const out = m.deterministic[k];
    return out ? [{ kind: k, out }] : [];
  });
  const input: AbReportInput = {
    title: `bee-bench: ${j.runner} ${j.baseLabel} → ${j.headLabel}`,
    marker: j.marker ?? `bee-bench:${j.runner}`,
    runner: j.runner,
    baseLabel: j.baseLabel,
    headLabel: j.headLabel,
    rows,
    alpha: j.alpha,
    threshold: j.threshold,
    rounds: m.wall?.roundsDone ?? 0,
    profile: j.size,
    env: {
      host: head?.host ?? 'unknown',
      clientBase: clientText(m.sides.base, 'base'),
      clientHead: clientText(head, 'head'),
      specHash: hash,
      wallTimeMs: wallMs + outcomes.reduce((n, { out }) => n + out.elapsedMs, 0),
      settings: settingsOf(m, j),
      ...(m.wall?.stoppedEarly ? { stoppedEarly: m.wall.stoppedEarly } : {}),
      ...(load ? { loadShift: load } : {}),
      ...(nodes ? { nodes: { base: nodeText(nodes.base), head: nodeText(nodes.head) } } : {}),
    },
    ...(j.crossClient ? { crossClient: j.crossClient } : {}),
    ...(j.trendUrl ? { trendUrl: j.trendUrl } : {}),
    ...(profiles && profiles.length > 0 ? { profiles: [...profiles] } : {}),
  };
  return writeAbReport(j.outDir, input, {
    roundsDone: m.wall?.roundsDone ?? 0,
    stoppedEarly: m.wall?.stoppedEarly ?? null,
    elapsedMs: wallMs,
    // Each deterministic evidence's run time and problems, by kind.
    evidence: Object.fromEntries(outcomes.map(({ kind, out }) => [kind, { ms: out.elapsedMs, counter: out.counter, problems: out.problems }])),
    ...(nodes ? { nodes: { base: nodeRecord(nodes.base), head: nodeRecord(nodes.head) } } : {}),
    ...details,
  });
}

/** A side's node as the comment names it: "Bee 2.8.0-41d6efc6 (dev node of /…/bee)". */
const nodeText = (n: NodeSide) => `Bee ${n.version} (${n.how})`;
/** A side's node as ab.json records it (the batch id is the node's, not a secret, but adds nothing). */
const nodeRecord = (n: NodeSide) => ({ version: n.version, url: n.url, how: n.how });

export async function abPipeline(o: AbPipelineOptions): Promise<AbPipelineOutcome> {
  // The profiled evidence keeps its dumps until the flagged rows are profiled (unless asked to keep them).
  const { measured, rounds, builds, spec, hash, plan } = await measureAb(o);
  const rows = judgeAb(measured, spec, o);
  const profiled = profileFlagged(measured, rows, plan, o);
  const report = reportAb(measured, rows, hash, o, profiled ? { profileMs: profiled.ms } : {}, profiled?.diffs, o.nodes);
  return { report, measured, rounds, builds };
}

/**
 * The rows to profile: the ones the profiled evidence (PROFILED, instruction counts) flagged, then
 * the other rows it judged that `profileCases` asks for (a change under the threshold, say).
 */
export function rowsToProfile(rows: readonly AbRow[], profileCases: readonly string[] = []): AbRow[] {
  if (!PROFILED) return [];
  const kind = PROFILED;
  const flagged = flaggedOn(rows, kind);
  const asked = profileCases.map(globToRegExp);
  return [...flagged, ...rows.filter((r) => judgedOf(r, kind) && !flagged.includes(r) && asked.some((re) => re.test(r.caseId)))];
}

/** The flagged rows' differences and what making them took. */
export interface FlaggedProfiles {
  diffs: ProfileDiff[];
  ms: number;
  /** Rows past the size cap: their lists only, no files. */
  unwritten: number;
}

/**
 * Where the instructions of the rows the counts flagged went (src/profile), from the dumps the
 * profiled evidence's verdict read (PROFILED), largest change first; the dumps are removed after unless keepRaw asked for
 * them. A single job profiles all its rows; a count piece of a split A/B its own (pieces.ts).
 */
export function profileFlagged(
  m: AbMeasured,
  rows: readonly AbRow[],
  plan: Plan,
  o: Pick<AbJudging, 'runner' | 'profileCases'> & Pick<AbPresentation, 'baseLabel' | 'headLabel'> & Pick<AbPipelineOptions, 'outDir' | 'log' | 'keepRaw'>,
): FlaggedProfiles | null {
  const out = PROFILED ? m.deterministic[PROFILED] : undefined;
  const raw = out?.raw;
  if (!out || !raw) return null;
  try {
    const made = profileAb({
      runner: o.runner,
      base: { dir: raw.base, plan },
      head: { dir: raw.head, plan },
      baseAgain: { dir: raw.baseAgain, plan },
      rows: rowsToProfile(rows, o.profileCases),
      outDir: resolve(o.outDir),
      labels: { base: o.baseLabel, head: o.headLabel },
      view: renderProfileHtml,
    });
    o.log(`profiles: ${made.diffs.length} flagged row(s) in ${Math.round(made.ms)} ms (its runs took ${Math.round(out.elapsedMs)} ms)`);
    for (const p of made.problems) o.log(`profiles: ${p}`);
    if (made.unwritten > 0) o.log(`profiles: ${made.unwritten} row(s) past the ${MAX_PROFILE_BYTES >> 20} MiB of profile files have their lists only`);
    return { diffs: made.diffs, ms: made.ms, unwritten: made.unwritten };
  } catch (e) {
    o.log(`profiles: not made: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  } finally {
    if (!o.keepRaw) for (const d of Object.values(raw)) rmSync(d, { recursive: true, force: true });
  }
}
