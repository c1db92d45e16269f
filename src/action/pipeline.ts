// The action's side of the shared pipelines (src/run/jobs.ts): which runners to build, builds in
// their own log groups, then abJob or singleJob exactly as the CLI calls them, and the publishing
// every flow shares (outputs, job summary, artifact).
import * as core from '@actions/core';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildRunner, type ClientSource } from '../build/index.js';
import { uploadFolder } from '../github/artifacts.js';
import { writeSummary } from '../github/summary.js';
import type { AggregateModel } from '../report/model.js';
import { AB_DEFAULTS, countRows, type AbCounts, type AbRow } from '../verdict/index.js';
import { abJob, singleJob, type AbJobOutcome, type Common, type SingleJobOutcome } from '../run/jobs.js';
import { RUNNERS, type Runner } from '../spec/schema.js';
import { loadSpec } from '../spec/load.js';
import { selectCases } from '../spec/select.js';
import type { RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { markerFor } from './bundle.js';
import { ARTIFACT_PREFIX } from '../github/artifacts.js';

export const log = (line: string) => core.info(line);

export interface FlowEnv {
  inputs: ActionInputs & { client: Runner };
  ctx: RunContext;
  outDir: string;
  cacheDir: string;
  /** The trend site, linked from comments when the history is on. */
  trendUrl?: string;
}

export interface FlowResult {
  regressions: number;
  improvements: number;
}

export interface Side {
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

/** The other two clients from their released versions; bee-go only from a checkout (go-client-path). */
export function crossClientRunners(inputs: ActionInputs, client: Runner): Array<{ runner: Runner; source: ClientSource }> {
  if (!inputs.compareClients) return [];
  return RUNNERS.filter((r) => r !== client).flatMap((r): Array<{ runner: Runner; source: ClientSource }> => {
    if (r !== 'go') return [{ runner: r, source: { kind: 'registry' } }];
    if (inputs.goClientPath) return [{ runner: r, source: { kind: 'path', path: inputs.goClientPath } }];
    log('compare-clients: bee-go left out: set go-client-path to a bee-go checkout (its module is not served by every Go proxy)');
    return [];
  });
}

export function common(env: FlowEnv, outDir = env.outDir): Common {
  const i = env.inputs;
  return { specFile: i.specFile, profile: i.profile, cases: i.cases, ...(i.bee ? { bee: i.bee } : {}), outDir, cacheDir: env.cacheDir, log };
}

async function prebuild(env: FlowEnv, what: string, runner: Runner, source: ClientSource, buildCommand?: string): Promise<void> {
  await core.group(`build ${what}: ${runner} (${SRC_TEXT(source)})`, async () => {
    const b = await buildRunner({ runner, source, cacheDir: env.cacheDir, ...(buildCommand ? { buildCommand } : {}), log });
    log(`${what}: ${b.cached ? 'cached build' : 'built'} in ${(b.buildMs / 1000).toFixed(1)} s`);
  }).catch((e: unknown) => {
    throw new Error(`building the ${what} runner (${runner}, ${SRC_TEXT(source)}) failed: ${e instanceof Error ? e.message : String(e)}`);
  });
}

async function crossClientModel(env: FlowEnv): Promise<AggregateModel | undefined> {
  const runners = crossClientRunners(env.inputs, env.inputs.client);
  if (runners.length === 0) return undefined;
  return core.group(`cross-client context: ${runners.map((r) => r.runner).join(', ')}`, async () => {
    const out = await singleJob({ ...common(env, join(env.outDir, 'cross-client')), runners });
    for (const p of out.problems) core.warning(`cross-client context: ${p}`);
    return out.results.length > 0 ? out.model : undefined;
  });
}

/** What a PR flow posts: the verdict table, its counts and the sticky comment's marker. */
export interface Verdicts {
  markdown: string;
  counts: AbCounts;
  marker: string;
}

export interface AbRun extends Verdicts {
  job: AbJobOutcome;
}

/** The outputs every comparison sets, and a warning per regression. */
export function announce(rows: readonly AbRow[], markdownFile: string, outDir: string): AbCounts {
  const counts = countRows(rows);
  log(`verdict: ${counts.regressions} regression(s), ${counts.improvements} improvement(s), ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.new} new, ${counts.failed} failed, ${counts.missing} missing`);
  for (const r of rows) if (r.status === 'ok' && r.verdict === 'regression') core.warning(`regression: ${r.caseId} [${r.label}] ${(((r.ratio ?? 1) - 1) * 100).toFixed(1)}% slower (q ${r.q?.toPrecision(2)})`);
  core.setOutput('regressions', String(counts.regressions));
  core.setOutput('improvements', String(counts.improvements));
  core.setOutput('report-path', markdownFile);
  core.setOutput('results-path', outDir);
  return counts;
}

/** Builds both sides (and the cross-client runners), then abJob: the same pipeline as `bee-bench ab`. */
export async function runAbPipeline(env: FlowEnv, base: Side, head: Side): Promise<AbRun> {
  const i = env.inputs;
  await prebuild(env, 'base', i.client, base.source, i.buildCommand);
  await prebuild(env, 'head', i.client, head.source, i.buildCommand);
  const crossClient = await crossClientModel(env);
  const n = selectCases(loadSpec(i.specFile).spec, i.cases).length;
  const marker = markerFor(env.ctx.workflow, i.client);
  const job = await core.group(`A/B: ${n} case${n === 1 ? '' : 's'} x ${i.rounds} rounds, base and head interleaved`, () =>
    abJob({
      ...common(env),
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
      marker,
      ...(crossClient ? { crossClient } : {}),
      ...(env.trendUrl ? { trendUrl: env.trendUrl } : {}),
    }),
  );
  const counts = announce(job.rows, job.markdownFile, env.outDir);
  return { job, markdown: job.markdown, counts, marker };
}

/** Builds the client under test (and the cross-client runners), then singleJob: `bee-bench run`. */
export async function runSinglePipeline(env: FlowEnv, head: Side): Promise<SingleJobOutcome> {
  const i = env.inputs;
  await prebuild(env, 'head', i.client, head.source, i.buildCommand);
  const runners = [
    { runner: i.client, source: head.source, ...(i.buildCommand ? { buildCommand: i.buildCommand } : {}) },
    ...crossClientRunners(i, i.client),
  ];
  const n = selectCases(loadSpec(i.specFile).spec, i.cases).length;
  const out = await core.group(`run: ${n} case${n === 1 ? '' : 's'} on ${runners.map((r) => r.runner).join(', ')}`, () => singleJob({ ...common(env), runners }));
  const own = out.problems.filter((p) => p.startsWith(`${i.client}:`));
  for (const p of out.problems) core.warning(p);
  if (!out.results.some((r) => r.runner === i.client)) throw new Error(`the ${i.client} runner produced no result: ${own.join('; ') || 'unknown problem'}`);
  core.setOutput('regressions', '0');
  core.setOutput('improvements', '0');
  core.setOutput('report-path', out.reports.markdown);
  core.setOutput('results-path', join(env.outDir, 'results'));
  return out;
}

/** Job summary and artifact: every flow ends with both, before any step failure. */
export async function publish(env: FlowEnv, summary: string): Promise<void> {
  await writeSummary(summary, log);
  try {
    await uploadFolder(`${ARTIFACT_PREFIX}${env.inputs.client}`, env.outDir, log);
  } catch (e) {
    core.warning(`artifact upload failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
