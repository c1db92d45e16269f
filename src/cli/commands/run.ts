// `bee-bench run`: build the runners and run the cases, one run each, into the aggregate report;
// `run --shard K/N` runs one shard of a sharded run.
import { join, relative, resolve } from 'node:path';
import { goCloneCommand, goProxyProblem, type ClientSource } from '../../build/index.js';
import { singlePipeline } from '../../pipeline/single.js';
import { failureHeadline, failureLine, failuresOf } from '../../report/model/failures.js';
import { lowPrecisionLine, openRankingLine } from '../../report/model/tables.js';
import type { NotRun } from '../../report/model/types.js';
import { parseShardRef } from '../../shard/assignment.js';
import { shardCommand, shardPlan } from '../../shard/commands.js';
import { loadSpec } from '../../spec/load.js';
import type { Result, Runner } from '../../spec/schema.js';
import { keepLocally, LOCAL_HISTORY, localContext, readRecords } from '../../history/index.js';
import type { RunProfiles } from '../../profile/index.js';
import { selectCases } from '../../spec/select.js';
import { overheadEstimate, planLine, recordStages, runStages } from '../eta.js';
import { runProgress } from '../progress.js';
import {
  CLIENT_FLAGS,
  common,
  givenClient,
  log,
  measureOf,
  runnerList,
  SELECTION_FLAGS,
  selectionOf,
  source,
  UsageError,
  type Values,
  withBee,
} from '../flags.js';
import type { CliCommand } from '../command.js';
import { BEE, COMMON, MEASURE, RUN_FAILS, SRC } from '../help-text.js';
import { MEASURES } from '../../spec/measure.js';

export async function run(v: Values): Promise<number> {
  if (v.shard !== undefined) return runShard(v);
  const c = common(v);
  selectCases(loadSpec(c.specFile).spec, c.cases); // a mistyped --case stops here, before any build
  const measure = measureOf(v); // and a mistyped --measure, before the Go proxy is asked anything
  const runners: Array<{ runner: Runner; source: ClientSource; buildCommand?: string }> = [];
  const notRun: NotRun[] = [];
  for (const runner of runnerList(v)) {
    const given = givenClient(v, runner);
    if (runner === 'go' && !given) {
      const problem = await goProxyProblem();
      if (problem) {
        const fix = `give a bee-go checkout with --go-client PATH or BEE_GO_PATH (${goCloneCommand()})`;
        notRun.push({ runner, status: 'skipped', reason: `the Go module proxy does not serve bee-go: ${problem}`, fix });
        log(`go: skipped: ${problem} (fix: ${fix}; the report says so too)`);
        continue;
      }
    }
    runners.push({ runner, source: source(given ?? 'registry', `${runner}-client`), buildCommand: v['build-command'] });
  }
  // Every step with its estimate first; then a line per build start and finished case, with an
  // ETA over the steps left, and a heartbeat when a step is silent (a cold cargo build).
  const stages = await runStages({ ...c, runners, measure });
  log(planLine(stages, overheadEstimate(c.cacheDir, c.size)));
  const progress = runProgress(stages, log);
  const heartbeat = setInterval(() => progress.beat(), 2_000);
  heartbeat.unref();
  const out = await withBee({ ...c, log: progress.log }, (c) => singlePipeline({ ...c, runners, notRun, measure })).finally(() => clearInterval(heartbeat));
  const stepTimes = progress.finish();
  log(`reports: ${[out.reports.markdown, out.reports.html, out.reports.csv].map(shortPath).join(', ')}`);
  for (const line of [openRankingLine(out.model), lowPrecisionLine(out.model)]) if (line) log(line);
  const failed = failuresOf(out.model);
  if (failed.length > 0) log(`${failureHeadline(failed.length)}:\n${failed.map((f) => `  ${failureLine(f)}`).join('\n')}`);
  // Each run a point of the local history under --out; the last line says how to see the trend.
  if (out.results.length > 0) log(await keepRun(c.outDir, c.specFile, out.results, out.profiles));
  // Last: what this run took since the process started (what a user waits), for the next one's estimate.
  recordStages(c.cacheDir, c.size, stepTimes, { elapsedMs: performance.now(), stages });
  return out.problems.length > 0 || out.results.length === 0 || failed.length > 0 ? 1 : 0;
}

/** Adds the run to <out>/history and says how to open the trend site over it (or why it was not kept). */
async function keepRun(outDir: string, specFile: string, results: readonly Result[], profiles: readonly RunProfiles[]): Promise<string> {
  const folder = join(outDir, LOCAL_HISTORY);
  try {
    const kept = await keepLocally(results, localContext(process.cwd(), `local-${Date.now()}`), { folder, spec: loadSpec(specFile).spec, profiles, log });
    const runs = new Set(readRecords(folder).records.map((r) => r.record.run.id)).size;
    const flag = resolve(outDir) === resolve('out') ? '' : ` --history ${shortPath(folder)}`;
    return `history: run kept in ${shortPath(folder)} (${kept.added.length} record(s), ${runs} run(s) in all); trend site: npx bee-bench site${flag}`;
  } catch (e) {
    return `history: this run was not kept in ${shortPath(folder)}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** `run --shard K/N`: one shard of a sharded run, into --out (default out/shard-K-of-N). */
async function runShard(v: Values): Promise<number> {
  const ref = parseShardRef(v.shard!);
  if (!ref) throw new UsageError(`--shard ${v.shard}: use K/N with 1 <= K <= N, e.g. 2/8`);
  const c = common(v);
  const selection = selectionOf(v);
  const sources = new Map(selection.runners.map((r) => [r, source(givenClient(v, r) ?? 'registry', `${r}-client`)]));
  const outDir = resolve(v.out ?? join('out', `shard-${ref.index}-of-${ref.total}`));
  const request = { ...selection, ...ref, assignmentFile: v.assignment, historyDir: v.history };
  const planned = shardPlan(request);
  // A dev node is started only for a shard that has net cases.
  const run = await withBee(planned.hasNet ? c : { ...c, devNode: undefined }, (c) =>
    shardCommand({ ...request, sources, outDir, cacheDir: c.cacheDir, reuseBuilds: v.prebuilt, bee: c.bee, log }, planned),
  );
  log(`shard ${ref.index}/${ref.total}: ${run.files.length} result file(s) in ${outDir}, ${run.problems.length} problem(s), ${Math.round(run.elapsed_s)} s`);
  return run.problems.length > 0 ? 1 : 0;
}

/** A path as typed relative to the working folder when it is under it. */
function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') || r === '' ? p : r;
}

/** `bee-bench run`: its help, its flags and what it runs. */
export const runCli: CliCommand = {
  name: 'run',
  usage: [
    'bee-bench run     [--runner js|go|rs]... [--js-client SRC] [--go-client SRC] [--rs-client SRC]',
    '                  [--size quick|full] [--case GLOB]... [--large] [BEE] [--out DIR]',
    `                  [--measure ${MEASURES.join(',')}|both]`,
    'bee-bench run     --shard K/N [the selection flags of a sharded plan] [--assignment FILE] [--history DIR] [--prebuilt] [BEE] [--out DIR]',
  ],
  summary: 'build the runners and run the cases; writes OUT/report.{md,html,csv} (default out/)',
  details: `${SRC}
--shard K/N runs exactly shard K's part of a sharded run (the --assignment file of plan --shards,
else worked out again from the same selection flags) into OUT (default out/shard-K-of-N);
--prebuilt uses the builds in --cache (from \`bee-bench build\`) and never builds: a build of other
inputs is refused by name. A dev node (--bee dev) is started only when the shard has net cases.
--case takes an id or a glob (* matches any run of characters): --case 'cpu.keccak.*'.
bee-go's pinned version comes through the Go module proxy (GOPROXY); where the proxy does not
serve it, run skips bee-go (the report says so) unless a checkout is given: --go-client PATH (or
BEE_GO_PATH). A build's tool output goes to build.log in its cache folder (one console line
per build names it). The console names each step (builds, cases, counting) with its estimate,
then a line per build start and finished case with an ETA, and a heartbeat every 10 s of silence.
Defaults: all three runners (--runner js --runner go --runner rs), every client from its registry,
--size quick, every case, --measure wall, --out out.
${BEE}
${MEASURE}
${COMMON}`,
  fails: RUN_FAILS,
  flags: [...SELECTION_FLAGS, ...CLIENT_FLAGS, 'shard', 'assignment', 'history', 'prebuilt', 'build-command'],
  run: run,
};
