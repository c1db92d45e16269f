// bee-bench: the local CLI. The same pipelines as the action (src/pipeline), on a laptop.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BeeArgumentError, parseBeeTarget } from './bee/preflight.js';
import { buildRunner, goProxyProblem, parseSource, type ClientSource } from './build/index.js';
import { defaultSpecPath, packageRoot } from './build/paths.js';
import { COMMANDS, commandHelp, commandsFor, globalHelp } from './cli/help.js';
import { closest } from './cli/suggest.js';
import type { DevNodeOptions } from './bee/dev-node.js';
import { withDevNode } from './bee/session.js';
import {
  commitUrl,
  exportGab,
  exportGabData,
  headCommit,
  importGab,
  parseRecord,
  publishRecords,
  publishResults,
  readRecords,
  RECORD_SCHEMA_ID,
  renderGabDataJs,
  type HistoryRecord,
  type RecordContext,
} from './history/index.js';
import { aggregate } from './report/aggregate.js';
import { compareModels, renderCompareMarkdown } from './report/compare.js';
import { failureHeadline, failureLine, failuresOf } from './report/failures.js';
import type { AggregateModel, NotRun } from './report/model.js';
import { writeReports, writeText } from './report/write.js';
import { MeasureSchema, type Measure } from './spec/measure.js';
import { AB_DEFAULTS, ALLOCATION_DEFAULTS, FailOnSchema, INSTRUCTION_DEFAULTS, failingRows } from './verdict/index.js';
import { abPipeline } from './pipeline/ab.js';
import { singlePipeline } from './pipeline/single.js';
import { MEASURE_TEXT, abStepComparator, bisectMeasure } from './bisect/compare.js';
import { renderBisectMarkdown } from './bisect/report.js';
import { bisect } from './bisect/run.js';
import { InputError } from './spec/errors.js';
import { loadResult, loadSpec } from './spec/load.js';
import { ProfileSchema, RUNNERS, RunnerSchema, type Result, type Runner } from './spec/schema.js';
import { SelectionError, profileParams, selectCases } from './spec/select.js';
import { resolvePlan } from './spec/plan.js';
import { hooksFromEnv } from './spec/hooks.js';
import { parseShardRef } from './shard/assignment.js';
import { costModel, matrixOf, mergeCommand, planShards, shardCommand, shardPlan, type SelectionRequest } from './shard/commands.js';
import { AB_PIECE_FILE, mergePieces, parsePieceRef, pieceText, runPiece, type PieceRef, type Split } from './shard/pr-pieces.js';
import { runProgress } from './cli/progress.js';
import { childEnv, registerSecret } from './child/env.js';

class UsageError extends Error {}

const options = {
  runner: { type: 'string', multiple: true },
  'js-client': { type: 'string' },
  'go-client': { type: 'string' },
  'rs-client': { type: 'string' },
  base: { type: 'string' },
  head: { type: 'string' },
  'base-label': { type: 'string' },
  'head-label': { type: 'string' },
  'base-env': { type: 'string', multiple: true },
  'head-env': { type: 'string', multiple: true },
  good: { type: 'string' },
  bad: { type: 'string' },
  path: { type: 'string', default: '.' },
  profile: { type: 'string', default: 'quick' },
  case: { type: 'string', multiple: true },
  large: { type: 'boolean', default: false },
  'bee-url': { type: 'string' },
  'batch-id': { type: 'string' },
  bee: { type: 'string' },
  'bee-binary': { type: 'string' },
  'bee-port': { type: 'string' },
  rounds: { type: 'string' },
  alpha: { type: 'string' },
  threshold: { type: 'string' },
  'fail-on-regression': { type: 'boolean', default: false },
  'fail-on': { type: 'string', default: 'any' },
  measure: { type: 'string' },
  'instructions-threshold': { type: 'string' },
  'allocations-threshold': { type: 'string' },
  out: { type: 'string' },
  spec: { type: 'string' },
  cache: { type: 'string' },
  'build-command': { type: 'string' },
  remote: { type: 'string' },
  'history-branch': { type: 'string', default: 'gh-pages' },
  folder: { type: 'string', default: 'bench' },
  'max-runs': { type: 'string' },
  'default-branch': { type: 'string' },
  repo: { type: 'string', default: '.' },
  ref: { type: 'string' },
  event: { type: 'string', default: 'local' },
  'run-id': { type: 'string' },
  workdir: { type: 'string' },
  'commit-url': { type: 'string' },
  'repo-url': { type: 'string' },
  'data-js': { type: 'boolean', default: false },
  shards: { type: 'string' },
  shard: { type: 'string' },
  assignment: { type: 'string' },
  history: { type: 'string' },
  prebuilt: { type: 'boolean', default: false },
  piece: { type: 'string' },
  split: { type: 'string' },
  'keep-raw': { type: 'boolean', default: false },
  marker: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function num(v: string | undefined, name: string, fallback: number, check: (n: number) => boolean, hint: string): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} ${v}: ${hint}`);
  return n;
}

/** A deterministic evidence's threshold (--instructions-threshold, --allocations-threshold): a fraction of the base figure. */
function changeThreshold(v: Values, name: 'instructions-threshold' | 'allocations-threshold', fallback: number): number {
  return num(v[name], name, fallback, (n) => n > 0 && n < 10, 'a fraction, e.g. 0.01 for 1%');
}

function source(text: string, flag: string): ClientSource {
  try {
    return parseSource(text);
  } catch (e) {
    throw new UsageError(`--${flag}: ${(e as Error).message}`);
  }
}

function envPairs(list: string[] | undefined, flag: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of list ?? []) {
    const at = kv.indexOf('=');
    if (at < 1) throw new UsageError(`--${flag} ${kv}: expected KEY=VALUE`);
    env[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return env;
}

/** --bee dev / --bee-binary: how to start a dev node; undefined for --bee url (today's external node, or none). */
function devNodeOptions(v: Values): DevNodeOptions | undefined {
  const mode = v.bee ?? (v['bee-binary'] ? 'dev' : 'url');
  if (mode !== 'dev' && mode !== 'url')
    throw new UsageError(`--bee ${v.bee}: use dev (start a Bee dev node for the net cases) or url (the node given by --bee-url and --batch-id)`);
  if (mode === 'url') {
    if (v['bee-binary'] || v['bee-port']) throw new UsageError('--bee-binary and --bee-port start a dev node: drop --bee url');
    return undefined;
  }
  if (v['bee-url'] || v['batch-id']) throw new UsageError('--bee dev starts its own node and batch: drop --bee-url and --batch-id');
  const port =
    v['bee-port'] === undefined
      ? undefined
      : num(v['bee-port'], 'bee-port', 0, (n) => Number.isInteger(n) && n >= 1 && n <= 65535, 'a TCP port from 1 to 65535');
  return {
    how: v['bee-binary'] ? { kind: 'binary', path: resolve(v['bee-binary']) } : { kind: 'docker' },
    ...(port ? { port } : {}),
    log,
  };
}

function beeTarget(url: string, batchId: string) {
  try {
    return parseBeeTarget(url, batchId);
  } catch (e) {
    if (e instanceof BeeArgumentError) throw new UsageError(e.message);
    throw e;
  }
}

function common(v: Values) {
  const profile = ProfileSchema.safeParse(v.profile);
  if (!profile.success) throw new UsageError(`--profile ${v.profile}: use quick or full`);
  if (Boolean(v['bee-url']) !== Boolean(v['batch-id'])) throw new UsageError('--bee-url and --batch-id go together');
  return {
    devNode: devNodeOptions(v),
    specFile: resolve(v.spec ?? defaultSpecPath()),
    profile: profile.data,
    cases: v.case ?? [],
    large: v.large,
    bee: v['bee-url'] ? beeTarget(v['bee-url'], v['batch-id']!) : undefined,
    outDir: resolve(v.out ?? 'out'),
    cacheDir: v.cache ? resolve(v.cache) : undefined,
    log,
  };
}

/** Runs a job with the net cases' node: the given one, or a dev node started for it and always removed. */
function withBee<T>(c: ReturnType<typeof common>, job: (c: ReturnType<typeof common>) => Promise<T>): Promise<T> {
  if (!c.devNode) return job(c);
  return withDevNode(c.devNode, (node) => job({ ...c, bee: { url: node.url, batchId: node.batchId } }));
}

function measureOf(v: Values): Measure {
  const m = MeasureSchema.safeParse(v.measure ?? 'wall');
  if (!m.success) throw new UsageError(`--measure ${v.measure}: a comma list of wall, instructions, allocations (both = wall,instructions)`);
  return m.data;
}

function runnerList(v: Values): Runner[] {
  const list = (v.runner ?? []).flatMap((r) => r.split(','));
  for (const r of list) if (!RunnerSchema.safeParse(r).success) throw new UsageError(`--runner ${r}: use js, go or rs`);
  return list.length ? (list as Runner[]) : [...RUNNERS];
}

function selectionOf(v: Values): SelectionRequest {
  const c = common(v);
  const m = measureOf(v);
  const evidences = [...m];
  return { specFile: c.specFile, runners: runnerList(v), profile: c.profile, cases: c.cases, large: c.large ?? false, evidences };
}

function shardCount(v: Values): number {
  return num(v.shards, 'shards', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 256, 'a whole number from 1 to 256 (a GitHub matrix holds 256 jobs)');
}

/**
 * `plan`: the resolved plan one runner would execute, as JSON on stdout (runners/README.md); with
 * --shards N the matrix of a sharded run (and, with --assignment FILE, the assignment for the shards).
 */
function cmdPlan(v: Values): number {
  if (v.shards !== undefined) {
    const assignment = planShards(selectionOf(v), shardCount(v), v.history);
    if (v.assignment) writeText(resolve(v.assignment), `${JSON.stringify(assignment, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(matrixOf(assignment))}\n`);
    return 0;
  }
  const c = common(v);
  const runner = oneRunner(v, 'plan');
  const { spec, hash } = loadSpec(c.specFile);
  const plan = resolvePlan({ spec, specHash: hash, runner, profile: c.profile, cases: c.cases, large: c.large, hooks: hooksFromEnv(process.env) });
  process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  return 0;
}

/** `run --shard K/N`: one shard of a sharded run, into --out (default out/shard-K-of-N). */
async function cmdRunShard(v: Values): Promise<number> {
  const ref = parseShardRef(v.shard!);
  if (!ref) throw new UsageError(`--shard ${v.shard}: use K/N with 1 <= K <= N, e.g. 2/8`);
  const c = common(v);
  const selection = selectionOf(v);
  const sources = new Map(
    selection.runners.map((r) => [r, source(v[`${r}-client`] ?? (r === 'go' ? process.env.BEE_GO_PATH : undefined) ?? 'registry', `${r}-client`)]),
  );
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

/** `merge --out DIR SHARD_DIR...`: the shards joined as one run's results and report. */
/** --split N: pieces per deterministic evidence of a split A/B (every piece of one A/B is given the same N). */
function splitOf(v: Values, measure: Measure, piece: PieceRef): Split {
  if (v.split === undefined)
    throw new UsageError('--piece needs --split N: how many pieces each of instructions and allocations is split into (the same N for every piece)');
  const n = num(v.split, 'split', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64');
  if (piece.evidence !== 'wall' && piece.total !== n) throw new UsageError(`--piece ${v.piece}: ${piece.total} pieces, but --split ${n}`);
  return Object.fromEntries(measure.filter((k) => k !== 'wall').map((k) => [k, n]));
}

/** `merge --out DIR PIECE_DIR...`: the pieces of a split A/B judged as one (ab.md, ab.json); exit 1 naming a missing piece. */
function cmdMergePieces(v: Values, dirs: string[]): number {
  const merged = mergePieces(dirs, {
    specFile: resolve(v.spec ?? defaultSpecPath()),
    outDir: resolve(v.out ?? 'out'),
    ...(v.marker ? { marker: v.marker } : {}),
  });
  for (const m of merged.missing) log(`merge: piece ${m} has no output`);
  process.stdout.write(merged.report.markdown);
  log(`wrote ${merged.report.markdownFile}`);
  return merged.missing.length > 0 ? 1 : 0;
}

function cmdMerge(v: Values, dirs: string[]): number {
  if (dirs.length === 0) throw new UsageError('merge needs the shard folders: bee-bench merge --out DIR SHARD_DIR...');
  if (existsSync(join(dirs[0]!, AB_PIECE_FILE))) return cmdMergePieces(v, dirs);
  const { merged, reports } = mergeCommand(resolve(v.spec ?? defaultSpecPath()), dirs, resolve(v.out ?? 'out'));
  for (const s of merged.missingShards) log(`merge: shard ${s}/${merged.assignment.shards.length} has no output`);
  for (const r of merged.missingRows) log(`merge: missing ${r}`);
  for (const p of merged.problems) log(`merge: ${p}`);
  log(`wrote ${reports.markdown}, ${reports.html}, ${reports.csv}`);
  return merged.missingShards.length + merged.missingRows.length + merged.problems.length > 0 ? 1 : 0;
}

/** `build --runner R...`: the runner builds into the cache (the nightly's build job; shards reuse them with --prebuilt). */
async function cmdBuild(v: Values): Promise<number> {
  const c = common(v);
  for (const runner of runnerList(v)) {
    const given = v[`${runner}-client`] ?? (runner === 'go' ? process.env.BEE_GO_PATH : undefined);
    const built = await buildRunner({
      runner,
      source: source(given ?? 'registry', `${runner}-client`),
      cacheDir: c.cacheDir,
      buildCommand: v['build-command'],
      log,
    });
    log(`${runner}: ${built.cached ? 'cached' : 'built'} ${runner}-${built.key}`);
  }
  return 0;
}

async function cmdRun(v: Values): Promise<number> {
  if (v.shard !== undefined) return cmdRunShard(v);
  const c = common(v);
  selectCases(loadSpec(c.specFile).spec, c.cases); // a mistyped --case stops here, before any build
  const runners: Array<{ runner: Runner; source: ClientSource; buildCommand?: string }> = [];
  const notRun: NotRun[] = [];
  for (const runner of runnerList(v)) {
    const given = v[`${runner}-client`] ?? (runner === 'go' ? process.env.BEE_GO_PATH : undefined);
    if (runner === 'go' && !given) {
      const problem = await goProxyProblem();
      if (problem) {
        const fix = 'give a bee-go checkout with --go-client PATH or BEE_GO_PATH';
        notRun.push({ runner, status: 'skipped', reason: `the Go module proxy does not serve bee-go: ${problem}`, fix });
        log(`go: skipped: ${problem} (fix: ${fix}; the report says so too)`);
        continue;
      }
    }
    runners.push({ runner, source: source(given ?? 'registry', `${runner}-client`), buildCommand: v['build-command'] });
  }
  // One line per finished case, done/total over every runner, with an ETA.
  const spec = loadSpec(c.specFile).spec;
  const units = selectCases(spec, c.cases).reduce((n, sc) => n + profileParams(sc, c.profile, c.large).length, 0);
  const progress = runProgress(units * runners.length, log);
  const out = await withBee({ ...c, log: progress.log }, (c) => singlePipeline({ ...c, runners, notRun, measure: measureOf(v) }));
  log(`reports: ${[out.reports.markdown, out.reports.html, out.reports.csv].map(shortPath).join(', ')}`);
  const failed = failuresOf(out.model);
  if (failed.length > 0) log(`${failureHeadline(failed.length)}:\n${failed.map((f) => `  ${failureLine(f)}`).join('\n')}`);
  return out.problems.length > 0 || out.results.length === 0 || failed.length > 0 ? 1 : 0;
}

/** A path as typed relative to the working folder when it is under it. */
function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') || r === '' ? p : r;
}

function oneRunner(v: Values, command: string): Runner {
  const runner = RunnerSchema.safeParse(v.runner?.[0]);
  if (!runner.success || (v.runner?.length ?? 0) !== 1) throw new UsageError(`${command} needs exactly one --runner js|go|rs`);
  return runner.data;
}

function verdictOptions(v: Values) {
  return {
    rounds: num(v.rounds, 'rounds', AB_DEFAULTS.rounds, (n) => Number.isInteger(n) && n >= 1 && n <= 200, 'a whole number from 1 to 200'),
    alpha: num(v.alpha, 'alpha', AB_DEFAULTS.alpha, (n) => n > 0 && n < 1, 'a probability between 0 and 1, e.g. 0.05'),
    threshold: num(v.threshold, 'threshold', AB_DEFAULTS.threshold, (n) => n >= 0 && n < 10, 'a fraction, e.g. 0.03 for 3%'),
  };
}

async function cmdAb(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'ab');
  if (!v.base || !v.head) throw new UsageError('ab needs --base SRC and --head SRC');
  const { rounds, alpha, threshold } = verdictOptions(v);
  const instructionThreshold = changeThreshold(v, 'instructions-threshold', INSTRUCTION_DEFAULTS.threshold);
  const allocationThreshold = changeThreshold(v, 'allocations-threshold', ALLOCATION_DEFAULTS.threshold);
  const failOn = FailOnSchema.safeParse(v['fail-on']);
  if (!failOn.success) throw new UsageError(`--fail-on ${v['fail-on']}: use wall, instructions, allocations or any`);
  const measure = measureOf(v);
  // Every argument is checked before a dev node is started for the job.
  const sides = {
    base: source(v.base, 'base'),
    head: source(v.head, 'head'),
    baseLabel: v['base-label'] ?? v.base,
    headLabel: v['head-label'] ?? v.head,
    env: { base: envPairs(v['base-env'], 'base-env'), head: envPairs(v['head-env'], 'head-env') },
  };
  const abOptions = {
    ...sides,
    runner,
    buildCommand: v['build-command'],
    rounds,
    alpha,
    threshold,
    runBudgetMs: AB_DEFAULTS.runBudgetMs,
    measure,
    instructionThreshold,
    allocationThreshold,
    prebuilt: v.prebuilt,
    keepRaw: v['keep-raw'],
    ...(v.marker ? { marker: v.marker } : {}),
  };
  if (v.piece !== undefined) {
    const piece = parsePieceRef(v.piece);
    if (!piece) throw new UsageError(`--piece ${v.piece}: use wall, or instructions:K/N or allocations:K/N with 1 <= K <= N`);
    const split = splitOf(v, measure, piece);
    const model = costModel({ specFile: c.specFile, runners: [runner], profile: c.profile, cases: c.cases, large: c.large ?? false, evidences: [...measure] });
    const got = await withBee(c, (c) => runPiece({ ...c, ...abOptions, piece, split, model }));
    log(`piece ${pieceText(piece)}: ${got.cases.length} case(s) in ${Math.round(got.elapsed_s)} s; wrote ${join(c.outDir, AB_PIECE_FILE)}`);
    return 0;
  }
  const out = await withBee(c, (c) => abPipeline({ ...c, ...abOptions }));
  process.stdout.write(out.report.markdown);
  log(`wrote ${out.report.markdownFile}`);
  // As in the action: a head that failed or lost a row fails the run like a regression does.
  const f = failingRows(out.report.input.rows, failOn.data);
  return v['fail-on-regression'] && f.regressions + f.failed + f.missing > 0 ? 1 : 0;
}

async function cmdBisect(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'bisect');
  if (!v.good || !v.bad) throw new UsageError('bisect needs --good REF (a commit without the slowdown) and --bad REF (one with it)');
  if (c.cases.length === 0) throw new UsageError('bisect needs --case ID (the case that got slower)');
  const repo = resolve(v.path);
  if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new UsageError(`--path ${v.path}: not a folder (the client checkout whose history to walk)`);
  const verdict = verdictOptions(v);
  const measure = await bisectMeasure(v.measure === undefined ? undefined : measureOf(v), log);
  const outcome = await bisect({
    repo,
    good: v.good,
    bad: v.bad,
    log,
    compare: abStepComparator({ ...c, ...verdict, runner, buildCommand: v['build-command'], runBudgetMs: AB_DEFAULTS.runBudgetMs, measure: [measure] }),
  });
  const md = renderBisectMarkdown(outcome, { runner, cases: c.cases, threshold: verdict.threshold, measure: MEASURE_TEXT[measure] });
  writeText(join(c.outDir, 'bisect.md'), md);
  process.stdout.write(md);
  return 0;
}

/** Result files named directly or found (*.json, recursively) under a folder; report outputs are not results. */
function resultFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
    else if (p.endsWith('.json') && !/(aggregate|ab)\.json$/.test(p)) files.push(p);
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`${p}: no such file or folder`);
    walk(resolve(p));
  }
  return files;
}

function modelOf(paths: readonly string[], specFile: string): AggregateModel {
  const { spec, hash } = loadSpec(specFile);
  const results = resultFiles(paths).map(loadResult);
  if (results.length === 0) throw new UsageError(`no result files under ${paths.join(', ')}`);
  return aggregate(results, spec, { specHash: hash });
}

function cmdReport(v: Values, positionals: string[]): number {
  if (positionals.length === 0) throw new UsageError('report needs result files or folders');
  const c = common(v);
  const paths = writeReports(c.outDir, modelOf(positionals, c.specFile));
  log(`wrote ${paths.markdown}, ${paths.html}, ${paths.csv}`);
  return 0;
}

function cmdCompare(v: Values, positionals: string[]): number {
  if (positionals.length !== 2) throw new UsageError('compare needs OLD_DIR NEW_DIR');
  const c = common(v);
  const cmp = compareModels(modelOf([positionals[0]!], c.specFile), modelOf([positionals[1]!], c.specFile));
  const md = renderCompareMarkdown(cmp);
  if (v.out) writeText(resolve(v.out), md);
  process.stdout.write(md);
  return 0;
}

/** The commit a local history write is about: HEAD of --repo, read with git. */
function headContext(v: Values): RecordContext {
  let commit: RecordContext['commit'];
  try {
    commit = headCommit(resolve(v.repo));
  } catch {
    throw new UsageError(`--repo ${v.repo}: not a git checkout with a commit (history records name the commit they measured)`);
  }
  if (v['commit-url'] !== undefined && v['repo-url'] !== undefined) throw new UsageError('give --commit-url or --repo-url, not both');
  let url: string | undefined;
  try {
    url = commitUrl(commit.sha, { commitUrl: v['commit-url'], repoUrl: v['repo-url'] });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    commit: url ? { ...commit, url } : commit,
    branch: v.ref ?? execFileSync('git', ['-C', resolve(v.repo), 'rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8', env: childEnv() }).trim(),
    event: v.event,
    run: { id: v['run-id'] ?? `local-${Date.now()}` },
  };
}

function historyTarget(v: Values) {
  if (!v.remote) throw new UsageError('history needs --remote URL|PATH (the repository holding the history branch)');
  const maxRuns =
    v['max-runs'] === undefined ? undefined : num(v['max-runs'], 'max-runs', 0, (n) => Number.isInteger(n) && n > 0, 'a whole number of points per series');
  // A token for an https remote comes from the environment (git gets it as a header, never argv);
  // children drop inherited GIT_CONFIG_* entries, so that route no longer reaches git.
  const token = process.env.BEE_BENCH_HISTORY_TOKEN || undefined;
  registerSecret(token);
  return {
    remote: v.remote,
    ...(token ? { token } : {}),
    workdir: resolve(v.workdir ?? join('.bee-bench', 'history')),
    branch: v['history-branch'],
    folder: v.folder,
    maxRuns,
    ...(v['default-branch'] ? { defaultBranch: v['default-branch'] } : {}),
    spec: loadSpec(resolve(v.spec ?? defaultSpecPath())).spec,
    log,
  };
}

function writeOrPrint(v: Values, text: string): void {
  if (v.out) writeText(resolve(v.out), text);
  else process.stdout.write(text);
}

/** A result file, or a history record (recognised by its schema id). */
function resultOrRecord(file: string): Result | HistoryRecord {
  const text = readFileSync(file, 'utf8');
  let schema: unknown;
  try {
    schema = (JSON.parse(text) as { schema?: unknown } | null)?.schema;
  } catch {
    return loadResult(file); // names the file and the JSON error
  }
  return typeof schema === 'string' && schema.startsWith(RECORD_SCHEMA_ID.slice(0, RECORD_SCHEMA_ID.indexOf('@') + 1))
    ? parseRecord(file, text)
    : loadResult(file);
}

/** The valid records of a history folder (its runs/), or one record file; invalid ones stop the export. */
function historyRecords(path: string): HistoryRecord[] {
  if (!statSync(path).isDirectory()) return [parseRecord(path, readFileSync(path, 'utf8'))];
  const set = readRecords(path);
  if (set.invalid.length > 0)
    throw new InputError(join(path, set.invalid[0]!.file), [set.invalid[0]!.problem], 'fix or remove the invalid record before exporting');
  if (set.records.length === 0)
    throw new UsageError(`${path}: no records under runs/ (give the history folder, e.g. the bench/ folder of the gh-pages branch)`);
  return set.records.map((r) => r.record);
}

async function cmdHistory(v: Values, positionals: string[]): Promise<number> {
  const [sub, ...paths] = positionals;
  switch (sub) {
    case 'publish': {
      if (paths.length === 0) throw new UsageError('history publish needs result files or folders');
      const results = resultFiles(paths).map(loadResult);
      const report = await publishResults(results, headContext(v), historyTarget(v));
      log(
        `history: ${report.added.length} record(s) added, ${report.present.length} already present, commit ${report.commit ?? '(none)'} after ${report.attempts} attempt(s)`,
      );
      for (const bad of report.invalid) log(`history: invalid record kept as is: ${bad.file}: ${bad.problem}`);
      return 0;
    }
    case 'import-gab': {
      if (paths.length !== 1) throw new UsageError('history import-gab needs one data.js or JSON file');
      const runner = v.runner?.[0] === undefined ? undefined : RunnerSchema.safeParse(v.runner[0]);
      if (runner && !runner.success) throw new UsageError(`--runner ${v.runner?.[0]}: use js, go or rs`);
      const file = resolve(paths[0]!);
      const imported = importGab(file, readFileSync(file, 'utf8'), { runner: runner?.data, branch: v.ref ?? 'main' });
      for (const s of imported.skipped) log(`history: not charted: ${s.where} "${s.name}": ${s.reason}`);
      if (imported.charted === 0) {
        log(`history: ${file}: no bench has a time to chart (${imported.skipped.length} without one); nothing imported`);
        return 1;
      }
      const report = await publishRecords(imported.records, historyTarget(v));
      log(
        `history: imported ${report.added.length} record(s), ${imported.charted} bench(es) charted, ${imported.skipped.length} stored without a time; commit ${report.commit ?? '(none)'}`,
      );
      return 0;
    }
    case 'export-gab': {
      if (v['data-js']) {
        if (paths.length === 0) throw new UsageError('history export-gab --data-js needs history folders (holding runs/) or record files');
        writeOrPrint(v, renderGabDataJs(exportGabData(paths.flatMap((p) => historyRecords(resolve(p))))) + '\n');
        return 0;
      }
      if (paths.length !== 1) throw new UsageError('history export-gab needs one result or record file (or --data-js with history folders)');
      writeOrPrint(v, `${JSON.stringify(exportGab(resultOrRecord(resolve(paths[0]!))), null, 2)}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown history command "${sub ?? ''}": use publish, import-gab or export-gab`);
  }
}

/** The command words typed (before any flag's value could be mistaken for one): "run", "history publish". */
function commandWords(positionals: readonly string[]): string[] {
  return positionals[0] === 'history' ? positionals.slice(0, 2) : positionals.slice(0, 1);
}

/** One line for a flag the parser does not know, with the closest valid flag. */
function unknownFlag(raw: string, words: readonly string[]): string {
  const typed = raw.replace(/^-+/, '').split('=')[0]!;
  const near = closest(typed, Object.keys(options));
  const help = words.length > 0 && commandsFor(words).length > 0 ? `bee-bench ${words.join(' ')} --help` : 'bee-bench --help';
  return `bee-bench: unknown flag ${raw.split('=')[0]}${near ? ` (did you mean --${near}?)` : ''}; see ${help}`;
}

/** Node's parser messages, for the errors left once unknown flags are caught, in one line each. */
function parserMessage(e: Error & { code?: string }, words: readonly string[]): string {
  const help = words.length > 0 ? `bee-bench ${words.join(' ')} --help` : 'bee-bench --help';
  const missing = /Option '(-\w, )?(--[\w-]+) <value>' argument missing/.exec(e.message);
  if (missing) return `bee-bench: ${missing[2]} needs a value; see ${help}`;
  const noValue = /Option '(--[\w-]+)' does not take an argument/.exec(e.message);
  if (noValue) return `bee-bench: ${noValue[1]} takes no value; see ${help}`;
  return `bee-bench: ${e.message.split('\n')[0]}; see ${help}`;
}

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  // A lenient pass first: unknown flags are answered in one line naming the closest known one.
  const loose = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const words = commandWords(loose.positionals);
  const unknown = loose.tokens.find((t) => t.kind === 'option' && !(t.name in options));
  if (unknown?.kind === 'option') {
    log(unknownFlag(unknown.rawName, words));
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    log(parserMessage(e as Error, words));
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`bee-bench ${version()}\n`);
    return 0;
  }
  if (command === 'help' || values.help || !command) {
    const about = command === 'help' ? rest : values.help ? positionals : [];
    if (about.length === 0) {
      process.stdout.write(`${globalHelp()}\n`);
      return command || values.help ? 0 : 2;
    }
    const list = commandsFor(about);
    if (list.length === 0) {
      log(unknownCommand(about.join(' ')));
      return 2;
    }
    process.stdout.write(`${commandHelp(list)}\n`);
    return 0;
  }
  try {
    switch (command) {
      case 'run':
        return await cmdRun(values);
      case 'plan':
        return cmdPlan(values);
      case 'merge':
        return cmdMerge(values, rest);
      case 'build':
        return await cmdBuild(values);
      case 'ab':
        return await cmdAb(values);
      case 'bisect':
        return await cmdBisect(values);
      case 'report':
        return cmdReport(values, rest);
      case 'compare':
        return cmdCompare(values, rest);
      case 'history':
        return await cmdHistory(values, rest);
      default:
        log(unknownCommand(command));
        return 2;
    }
  } catch (e) {
    const help = commandsFor(commandWords(positionals)).length > 0 ? `bee-bench ${commandWords(positionals).join(' ')} --help` : 'bee-bench --help';
    if (e instanceof UsageError || e instanceof SelectionError) {
      log(`bee-bench: ${e.message}; see ${help}`);
      return 2;
    }
    if (e instanceof InputError) {
      log(`bee-bench: ${e.message}`);
      return 2;
    }
    log(`bee-bench: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

function unknownCommand(typed: string): string {
  const names = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!)), 'help'];
  const near = closest(typed.split(' ')[0]!, names);
  return `bee-bench: unknown command "${typed}"${near ? ` (did you mean "${near}"?)` : ''}; see bee-bench --help`;
}

// Run when executed (node dist/cli.js, tsx src/cli.ts), not when imported by tests.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
