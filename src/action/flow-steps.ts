// The action's side of the shared pipelines (src/pipeline): which runners to build, builds in
// their own log groups, then abPipeline or singlePipeline exactly as the CLI calls them, and what
// every flow ends with (outputs, annotations, job summary, artifact).
import * as core from '@actions/core';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildRunner, goProxyProblem, type ClientSource } from '../build/index.js';
import { BuildError } from '../build/exec.js';
import { uploadFolder } from '../github/artifacts.js';
import { writeSummary } from '../github/summary.js';
import { ensureValgrind } from '../count/install.js';
import type { BuildFailureInput } from '../report/render/ab-comment.js';
import type { AggregateModel } from '../report/model/types.js';
import { AB_DEFAULTS, failingRows, type AbCounts, type FailOn } from '../verdict/index.js';
import { abPipeline, type AbPipelineOptions } from '../ab/run.js';
import { writeBuildFailureReport, type AbReport } from '../ab/report.js';
import type { PipelineOptions } from '../pipeline/options.js';
import { singlePipeline, type SinglePipelineOutcome } from '../pipeline/single.js';
import { RUNNERS, type Runner } from '../spec/schema.js';
import type { Measure } from '../spec/measure.js';
import { loadSpec } from '../spec/load.js';
import { selectCases } from '../spec/select.js';
import type { RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { markerFor } from './bundle.js';
import { ARTIFACT_PREFIX } from '../github/artifacts.js';

export const log = (line: string) => core.info(line);

export type CrossClient = { runner: Runner; source: ClientSource };

export interface FlowEnv {
  inputs: ActionInputs & { client: Runner };
  ctx: RunContext;
  /** compare-clients' other runners (crossClientRunners), decided once per flow. */
  crossClients: CrossClient[];
  outDir: string;
  cacheDir: string;
  /** The trend site, linked from comments when the history is on. */
  trendUrl?: string;
}

export interface FlowResult {
  regressions: number;
  improvements: number;
  /** Rows whose head failed (crash, timeout, bad output); a failed build counts as one. */
  failed: number;
  /** Rows the base had and the head did not. */
  missing: number;
  /** Set when a build failed: the step fails whatever fail-on-regression says. */
  buildFailed?: string;
}

export const NOTHING: FlowResult = { regressions: 0, improvements: 0, failed: 0, missing: 0 };

/** A runner build that failed: which side, what was built, and the end of its log. */
export class BuildFailure extends Error {
  override name = 'BuildFailure';
  constructor(
    message: string,
    readonly side: 'base' | 'head',
    readonly runner: Runner,
    readonly source: string,
    readonly logTail: readonly string[],
  ) {
    super(message);
  }
}

/** The flow's result from its verdicts; `regressions` counts the rows that fail the step under the fail-on input. */
export function flowResult(v: Pick<AbReport, 'input' | 'counts'>, failOn: FailOn): FlowResult {
  // failed and missing from the counts, which also carry a failed build (a row of its own).
  const { improvements, failed, missing } = v.counts;
  return { regressions: failingRows(v.input.rows, failOn).regressions, improvements, failed, missing };
}

/** One side of a comparison as the action builds it: the client source and how the report names it. */
export interface SideSource {
  source: ClientSource;
  label: string;
}

const SRC_TEXT = (s: ClientSource) => (s.kind === 'registry' ? 'released version' : s.path);

/** A fresh output folder for this client's run (stale files must not reach the artifact). */
export function freshOutDir(ctx: RunContext, client: Runner): string {
  const dir = join(ctx.temp, 'bee-bench', 'out', client);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * compare-clients' other two clients from their released versions: bee-js and bee-rs from their
 * registries; bee-go from go-client-path, else from the Go module proxy when it serves bee-go's
 * pinned version (as `bee-bench run` does), else left out in one line quoting the proxy's error.
 */
export async function crossClientRunners(inputs: ActionInputs, client: Runner): Promise<CrossClient[]> {
  if (!inputs.compareClients) return [];
  const runners: CrossClient[] = [];
  for (const runner of RUNNERS.filter((r) => r !== client)) {
    if (runner === 'go' && inputs.goClientPath) {
      runners.push({ runner, source: { kind: 'path', path: inputs.goClientPath } });
      continue;
    }
    const problem = runner === 'go' ? await goProxyProblem() : undefined;
    if (problem) log(`compare-clients: bee-go skipped: ${problem} (fix: set go-client-path to a bee-go checkout)`);
    else runners.push({ runner, source: { kind: 'registry' } });
  }
  return runners;
}

export function pipelineOptions(env: FlowEnv, outDir = env.outDir): PipelineOptions {
  const i = env.inputs;
  return { specFile: i.specFile, size: i.profile, cases: i.cases, ...(i.bee ? { bee: i.bee } : {}), outDir, cacheDir: env.cacheDir, log };
}

/** The A/B of the inputs between two sides, as one job (runAbPipeline) and each piece of a split one (measurePiece) run it. */
export function abOptions(env: FlowEnv, base: SideSource, head: SideSource): AbPipelineOptions {
  const i = env.inputs;
  return {
    ...pipelineOptions(env),
    runner: i.client,
    base: base.source,
    head: head.source,
    baseLabel: base.label,
    headLabel: head.label,
    ...(i.buildCommand ? { buildCommand: i.buildCommand } : {}),
    rounds: i.rounds,
    alpha: i.alpha,
    threshold: i.threshold,
    runBudgetMs: AB_DEFAULTS.runBudgetMs,
    measure: i.measure,
    thresholds: i.thresholds,
  };
}

export async function prebuild(env: FlowEnv, what: 'base' | 'head', runner: Runner, source: ClientSource, buildCommand?: string): Promise<void> {
  await core
    .group(`build ${what}: ${runner} (${SRC_TEXT(source)})`, async () => {
      const b = await buildRunner({ runner, source, cacheDir: env.cacheDir, ...(buildCommand ? { buildCommand } : {}), log });
      log(`${what}: ${b.cached ? 'cached build' : 'built'} in ${(b.buildMs / 1000).toFixed(1)} s`);
    })
    .catch((e: unknown) => {
      const message = `building the ${what} runner (${runner}, ${SRC_TEXT(source)}) failed: ${e instanceof Error ? e.message : String(e)}`;
      const tail = e instanceof BuildError ? e.logTail : (e instanceof Error ? e.message : String(e)).split('\n').slice(-30);
      throw new BuildFailure(message, what, runner, SRC_TEXT(source), tail);
    });
}

async function crossClientModel(env: FlowEnv): Promise<AggregateModel | undefined> {
  const runners = env.crossClients;
  if (runners.length === 0) return undefined;
  return core.group(`cross-client context: ${runners.map((r) => r.runner).join(', ')}`, async () => {
    const out = await singlePipeline({ ...pipelineOptions(env, join(env.outDir, 'cross-client')), runners });
    for (const p of out.problems) core.warning(`cross-client context: ${p}`);
    return out.results.length > 0 ? out.model : undefined;
  });
}

/** The outputs every comparison sets and its annotations, all from the pipeline's one report. */
export function announce(report: AbReport, outDir: string): void {
  const c = report.counts;
  log(
    `verdict: ${c.regressions} regression(s), ${c.improvements} improvement(s), ${c.unchanged} unchanged, ${c.skipped} skipped, ${c.new} new, ${c.failed} failed, ${c.missing} missing`,
  );
  for (const line of report.annotations) core.warning(line);
  setCountOutputs(c);
  core.setOutput('report-path', report.markdownFile);
  core.setOutput('results-path', outDir);
}

/** The count outputs of every flow: regressions, improvements, failed, missing. */
export function setCountOutputs(c: Pick<AbCounts, 'regressions' | 'improvements' | 'failed' | 'missing'>): void {
  core.setOutput('regressions', String(c.regressions));
  core.setOutput('improvements', String(c.improvements));
  core.setOutput('failed', String(c.failed));
  core.setOutput('missing', String(c.missing));
}

/**
 * A failed build still reports: the comment-shaped markdown naming the build and the end of its
 * log is the job summary (and, on a PR, the comment), the outputs say failed 1, the artifact is
 * uploaded by the caller's publish.
 */
export function reportBuildFailure(
  env: FlowEnv,
  f: BuildFailure,
  title: string,
): { markdown: string; failure: Omit<BuildFailureInput, 'marker'>; result: FlowResult } {
  core.error(f.message);
  const failure = { title, runner: f.runner, side: f.side, source: f.source, logTail: [...f.logTail] };
  const { markdown, markdownFile, counts } = writeBuildFailureReport(env.outDir, { ...failure, marker: markerFor(env.ctx.workflow, f.runner) });
  setCountOutputs(counts);
  core.setOutput('report-path', markdownFile);
  core.setOutput('results-path', env.outDir);
  return { markdown, failure, result: { ...NOTHING, failed: 1, buildFailed: f.message } };
}

/** Builds both sides (and the cross-client runners), then abPipeline: the same pipeline as `bee-bench ab`. */
export async function runAbPipeline(env: FlowEnv, base: SideSource, head: SideSource): Promise<AbReport> {
  const i = env.inputs;
  await prebuild(env, 'base', i.client, base.source, i.buildCommand);
  await prebuild(env, 'head', i.client, head.source, i.buildCommand);
  const crossClient = await crossClientModel(env);
  await ensureValgrind(i.measure, log);
  const n = selectCases(loadSpec(i.specFile).spec, i.cases).length;
  const marker = markerFor(env.ctx.workflow, i.client);
  const job = await core.group(`A/B: ${n} case${n === 1 ? '' : 's'} x ${i.rounds} rounds, base and head interleaved`, () =>
    abPipeline({
      ...abOptions(env, base, head),
      marker,
      ...(crossClient ? { crossClient } : {}),
      ...(env.trendUrl ? { trendUrl: env.trendUrl } : {}),
    }),
  );
  announce(job.report, env.outDir);
  return job.report;
}

/**
 * Builds the client under test (and the cross-client runners), then singlePipeline: `bee-bench run`.
 * With `measure` (a push or dispatch run: the `measure` input) the CPU rows are also counted, and
 * the counted rows' compact profiles kept for the history; without it, wall time only.
 */
export async function runSinglePipeline(env: FlowEnv, head: SideSource, measure?: Measure): Promise<SinglePipelineOutcome> {
  const i = env.inputs;
  await prebuild(env, 'head', i.client, head.source, i.buildCommand);
  if (measure) await ensureValgrind(measure, log);
  const runners = [{ runner: i.client, source: head.source, ...(i.buildCommand ? { buildCommand: i.buildCommand } : {}) }, ...env.crossClients];
  const n = selectCases(loadSpec(i.specFile).spec, i.cases).length;
  const out = await core.group(`run: ${n} case${n === 1 ? '' : 's'} on ${runners.map((r) => r.runner).join(', ')}`, () =>
    singlePipeline({ ...pipelineOptions(env), runners, ...(measure ? { measure } : {}) }),
  );
  const problems = out.problems.filter((p) => p.startsWith(`${i.client}:`));
  for (const p of out.problems) core.warning(p);
  if (!out.results.some((r) => r.runner === i.client))
    throw new Error(`the ${i.client} runner produced no result: ${problems.join('; ') || 'unknown problem'}`);
  const own = out.results.find((r) => r.runner === i.client)!;
  setCountOutputs({ regressions: 0, improvements: 0, failed: own.cases.filter((c) => c.status === 'failed').length, missing: 0 });
  core.setOutput('report-path', out.reports.markdown);
  core.setOutput('results-path', join(env.outDir, 'results'));
  return out;
}

/**
 * Job summary and artifact: every flow ends with both, before any step failure. The artifact's id
 * is the step's `artifact-id` output: the publish job reads that id, handed on by `needs:`, and no
 * other artifact of the run (a job that ran client code can upload any name). The merge job of a
 * split PR replaces a `bee-bench-<client>` a piece job uploaded before it, for a publish that can
 * only read by name (workflow_run).
 */
export async function summarizeAndUpload(env: FlowEnv, summary: string): Promise<void> {
  await writeSummary(summary, log);
  try {
    const up = await uploadFolder(`${ARTIFACT_PREFIX}${env.inputs.client}`, env.outDir, log, undefined, Boolean(env.inputs.piecesPath));
    if (up?.id !== undefined) core.setOutput('artifact-id', String(up.id));
  } catch (e) {
    core.warning(`artifact upload failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
