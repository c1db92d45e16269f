// The two pipelines the CLI and the action share: a single run of several runners into an
// aggregate report, and a same-job A/B of one runner built on two client sources.
import { join, resolve } from 'node:path';
import { buildRunner, type BuiltRunner, type ClientSource } from '../build/index.js';
import { renderAbComment, type AbReportInput } from '../report/ab-comment.js';
import { aggregate } from '../report/aggregate.js';
import type { AggregateModel } from '../report/model.js';
import { writeReports, writeText, type WrittenReports } from '../report/write.js';
import { loadSpec } from '../spec/load.js';
import { judgePaired, type AbRow } from '../verdict/index.js';
import type { Profile, Result, Runner, SpecCase } from '../spec/schema.js';
import { profileParams, selectCases } from '../spec/select.js';
import { runAb, type AbOutcome } from './ab.js';
import { invokeRunner, type BeeTarget } from './invoke.js';
import { pairRows } from './pairs.js';

export interface Common {
  specFile: string;
  profile: Profile;
  cases: readonly string[];
  large?: boolean;
  bee?: BeeTarget;
  fixtures?: string;
  outDir: string;
  cacheDir?: string;
  log: (line: string) => void;
}

/** Extra allowance per runner process on top of the spec's case timeouts: start-up and fixtures. */
const PROCESS_SLACK_MS = 90_000;

/** Time one runner process may take for these cases: the spec's per-case timeouts plus slack. */
export function processBudgetMs(cases: readonly SpecCase[], timeoutS: number, profile: Profile, large = false): number {
  const params = cases.reduce((n, c) => n + profileParams(c, profile, large).length, 0);
  return params * timeoutS * 1000 + PROCESS_SLACK_MS;
}

export interface SingleJobOptions extends Common {
  runners: ReadonlyArray<{ runner: Runner; source: ClientSource; buildCommand?: string }>;
}

export interface SingleJobOutcome {
  results: Result[];
  builds: BuiltRunner[];
  /** Per runner that produced no clean run: what went wrong. */
  problems: string[];
  model: AggregateModel;
  reports: WrittenReports;
}

export async function singleJob(o: SingleJobOptions): Promise<SingleJobOutcome> {
  const { spec, hash } = loadSpec(o.specFile);
  const selected = selectCases(spec, o.cases);
  const budget = processBudgetMs(selected, spec.profiles[o.profile].case_timeout_s, o.profile, o.large);
  const results: Result[] = [];
  const builds: BuiltRunner[] = [];
  const problems: string[] = [];
  for (const r of o.runners) {
    let built: BuiltRunner;
    try {
      built = await buildRunner({ runner: r.runner, source: r.source, cacheDir: o.cacheDir, buildCommand: r.buildCommand, log: o.log });
      builds.push(built);
    } catch (e) {
      problems.push(`${r.runner}: build failed: ${e instanceof Error ? e.message : String(e)}`);
      o.log(problems.at(-1)!);
      continue;
    }
    const inv = await invokeRunner(built.command, {
      spec: resolve(o.specFile), profile: o.profile, cases: o.cases, out: join(resolve(o.outDir), 'results', `${r.runner}.json`),
      timeoutMs: budget, large: o.large, fixtures: o.fixtures, bee: o.bee, onLine: (l) => o.log(`[${r.runner}] ${l}`),
    });
    if (inv.result) results.push(inv.result);
    if (inv.problem) {
      problems.push(`${r.runner}: ${inv.problem}`);
      o.log(problems.at(-1)!);
    }
  }
  const model = aggregate(results, spec, { specHash: hash });
  const reports = writeReports(o.outDir, model);
  return { results, builds, problems, model, reports };
}

export interface AbJobOptions extends Common {
  runner: Runner;
  base: ClientSource;
  head: ClientSource;
  baseLabel: string;
  headLabel: string;
  buildCommand?: string;
  rounds: number;
  alpha: number;
  threshold: number;
  runBudgetMs: number;
  /** Extra environment per side (the calibration injects a slowdown into head). */
  env?: { base?: Record<string, string>; head?: Record<string, string> };
  marker?: string;
  trendUrl?: string;
  crossClient?: AggregateModel;
}

export interface AbJobOutcome {
  rows: AbRow[];
  outcome: AbOutcome;
  input: AbReportInput;
  markdown: string;
  markdownFile: string;
  builds: { base: BuiltRunner; head: BuiltRunner };
}

export async function abJob(o: AbJobOptions): Promise<AbJobOutcome> {
  const { spec, hash } = loadSpec(o.specFile);
  const selected = selectCases(spec, o.cases);
  const build = (source: ClientSource) =>
    buildRunner({ runner: o.runner, source, cacheDir: o.cacheDir, buildCommand: o.buildCommand, log: o.log });
  const builds = { base: await build(o.base), head: await build(o.head) };
  const caseBudgetMs = selected.reduce((m, c) => Math.max(m, processBudgetMs([c], spec.profiles[o.profile].case_timeout_s, o.profile, o.large)), 0);
  const outcome = await runAb(
    { base: builds.base.command, head: builds.head.command },
    {
      spec: resolve(o.specFile), profile: o.profile, cases: selected, rounds: o.rounds, outDir: resolve(o.outDir),
      caseBudgetMs, runBudgetMs: o.runBudgetMs, large: o.large, fixtures: o.fixtures, bee: o.bee, env: o.env, log: o.log,
    },
  );
  const rows = judgePaired(pairRows(outcome), spec, { alpha: o.alpha, threshold: o.threshold });
  const firstResult = (side: 'base' | 'head') =>
    outcome.cases.flatMap((c) => c.runs).find((r) => r.side === side && r.result)?.result ?? null;
  const clientText = (r: Result | null, label: string) =>
    r ? `${r.client.name} ${r.client.version} (${r.client.source}${r.client.commit ? ` ${r.client.commit.slice(0, 12)}` : ''})` : `${label}: no result`;
  const head = firstResult('head');
  const input: AbReportInput = {
    title: `bee-bench: ${o.runner} ${o.baseLabel} → ${o.headLabel}`,
    marker: o.marker ?? `bee-bench:${o.runner}`,
    runner: o.runner,
    baseLabel: o.baseLabel,
    headLabel: o.headLabel,
    rows,
    alpha: o.alpha,
    threshold: o.threshold,
    rounds: outcome.roundsDone,
    profile: o.profile,
    env: {
      host: head?.host ?? 'unknown',
      clientBase: clientText(firstResult('base'), 'base'),
      clientHead: clientText(head, 'head'),
      specHash: hash,
      wallTimeMs: outcome.elapsedMs,
      ...(outcome.stoppedEarly ? { stoppedEarly: outcome.stoppedEarly } : {}),
    },
    ...(o.crossClient ? { crossClient: o.crossClient } : {}),
    ...(o.trendUrl ? { trendUrl: o.trendUrl } : {}),
  };
  const markdown = renderAbComment(input);
  const markdownFile = join(o.outDir, 'ab.md');
  writeText(markdownFile, markdown);
  writeText(join(o.outDir, 'ab.json'), `${JSON.stringify({ rows, roundsDone: outcome.roundsDone, stoppedEarly: outcome.stoppedEarly ?? null, elapsedMs: outcome.elapsedMs }, null, 2)}\n`);
  return { rows, outcome, input, markdown, markdownFile, builds };
}
