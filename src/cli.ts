// bee-bench: the local CLI. The same pipelines as the action (src/run/jobs.ts), on a laptop.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BeeArgumentError, parseBeeTarget } from './bee/preflight.js';
import { goProxyProblem, parseSource, type ClientSource } from './build/index.js';
import { defaultSpecPath } from './build/paths.js';
import type { DevNodeOptions } from './bee/dev-node.js';
import { withDevNode } from './bee/session.js';
import { commitUrl, exportGab, exportGabData, headCommit, importGab, parseRecord, publishRecords, publishResults, readRecords, RECORD_SCHEMA_ID, renderGabDataJs, type HistoryRecord, type RunContext } from './history/index.js';
import { aggregate } from './report/aggregate.js';
import { compareModels, renderCompareMarkdown } from './report/compare.js';
import { failureHeadline, failureLine, failuresOf } from './report/failures.js';
import type { AggregateModel } from './report/model.js';
import { writeReports, writeText } from './report/write.js';
import { MeasureSchema, type Measure } from './count/measure.js';
import { FailOnSchema, failingRows } from './count/fail-on.js';
import { AB_DEFAULTS, INSTRUCTION_DEFAULTS } from './verdict/index.js';
import { abJob, singleJob } from './run/jobs.js';
import { MEASURE_TEXT, abStepComparator, bisectMeasure } from './bisect/compare.js';
import { renderBisectMarkdown } from './bisect/report.js';
import { bisect } from './bisect/run.js';
import { InputError } from './spec/errors.js';
import { loadResult, loadSpec } from './spec/load.js';
import { ProfileSchema, RUNNERS, RunnerSchema, type Result, type Runner } from './spec/schema.js';
import { SelectionError } from './spec/select.js';
import { childEnv, registerSecret } from './child/env.js';

const USAGE = `bee-bench: continuous benchmarks for the Swarm Bee API clients

Usage:
  bee-bench run     [--runner js|go|rs]... [--js-client SRC] [--go-client SRC] [--rs-client SRC]
                    [--profile quick|full] [--case GLOB]... [--large] [BEE] [--out DIR]
                    [--measure wall|instructions|both]
  bee-bench ab      --runner js|go|rs --base SRC --head SRC [--rounds N] [--alpha A] [--threshold T]
                    [--profile quick|full] [--case GLOB]... [--out DIR] [--fail-on-regression]
                    [--base-env K=V]... [--head-env K=V]... [BEE] [--measure wall|instructions|both]
                    [--instructions-threshold T] [--fail-on wall|instructions|any]
  bee-bench bisect  --runner js|go|rs --good REF --bad REF --case ID [--path CHECKOUT] [--rounds N]
                    [--alpha A] [--threshold T] [--profile quick|full] [--out DIR]
                    [--measure wall|instructions]
  bee-bench report  --out DIR RESULT.json|DIR...
  bee-bench compare OLD_DIR NEW_DIR [--out FILE]
  bee-bench history publish    --remote URL|PATH [--history-branch gh-pages] [--folder bench]
                               [--max-runs N] [--default-branch NAME] [--repo DIR] [--event E] [--run-id ID]
                               [--commit-url URL | --repo-url URL] [--workdir DIR] RESULT.json|DIR...
  bee-bench history import-gab --remote URL|PATH [--runner js|go|rs] [--ref BRANCH] [--default-branch NAME] [--workdir DIR] DATA.js|JSON
  bee-bench history export-gab RESULT.json|RECORD.json [--out FILE]
  bee-bench history export-gab --data-js HISTORY_DIR|RECORD.json... [--out FILE]

"bisect" walks the first-parent commits of the client checkout at --path (default .) from
--good (excluded) to --bad, each step an A/B against --good, and names the first commit whose
change exceeds the threshold (or says "no change found"). Steps count instructions where
valgrind is installed, else time paired rounds (--measure wall forces wall time).
SRC is "registry" (the runner's pinned client version) or a path to a client checkout.
BEE is the node the net.* cases run against (without one they are skipped):
  --bee-url URL --batch-id HEX   a node you run, with a usable postage batch
  --bee dev                      a Bee 2.8.0 dev node in Docker (ethersphere/bee:2.8.0), on 127.0.0.1
  --bee-binary PATH              the same from a local bee executable, without Docker
  --bee-port N                   host port of the dev node (default: a free one)
  A dev node gets a fresh postage batch and is stopped and removed when the command ends.
bee-go's pinned version comes through the Go module proxy (GOPROXY); where the proxy does not
serve it, run skips bee-go unless a checkout is given: --go-client PATH (or BEE_GO_PATH).
Common: --spec FILE (default: the bundled spec/bench-spec.json), --cache DIR (build cache,
default .bee-bench/cache), --build-command CMD (how to build a client checkout).
History: --workdir DIR is the local clone of the history branch (default .bee-bench/history);
publishes sharing one wait for each other. --commit-url (or --repo-url, which gives
<URL>/commit/<sha>) lets the site link the measured commit. --default-branch NAME is the branch
the site's files always keep (default: the branch with the most records; others are kept while
recently active).

--measure: wall time (default), instruction counts of the CPU cases under valgrind's callgrind,
or both; net cases are never counted. --fail-on: which evidence --fail-on-regression acts on.

Exit codes: 0 done; 1 a runner or a case failed, the Bee node is unreachable or its batch
unusable, or (with --fail-on-regression) a regression was found or a row failed or is missing in
head; 2 bad arguments.`;

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
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

const log = (line: string) => process.stderr.write(`${line}\n`);

function num(v: string | undefined, name: string, fallback: number, check: (n: number) => boolean, hint: string): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} ${v}: ${hint}`);
  return n;
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
  if (mode !== 'dev' && mode !== 'url') throw new UsageError(`--bee ${v.bee}: use dev (start a Bee dev node for the net cases) or url (the node given by --bee-url and --batch-id)`);
  if (mode === 'url') {
    if (v['bee-binary'] || v['bee-port']) throw new UsageError('--bee-binary and --bee-port start a dev node: drop --bee url');
    return undefined;
  }
  if (v['bee-url'] || v['batch-id']) throw new UsageError('--bee dev starts its own node and batch: drop --bee-url and --batch-id');
  const port = v['bee-port'] === undefined ? undefined : num(v['bee-port'], 'bee-port', 0, (n) => Number.isInteger(n) && n >= 1 && n <= 65535, 'a TCP port from 1 to 65535');
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
  if (!m.success) throw new UsageError(`--measure ${v.measure}: use wall, instructions or both`);
  return m.data;
}

function runnerList(v: Values): Runner[] {
  const list = (v.runner ?? []).flatMap((r) => r.split(','));
  for (const r of list) if (!RunnerSchema.safeParse(r).success) throw new UsageError(`--runner ${r}: use js, go or rs`);
  return list.length ? (list as Runner[]) : [...RUNNERS];
}

async function cmdRun(v: Values): Promise<number> {
  const c = common(v);
  const runners: Array<{ runner: Runner; source: ClientSource; buildCommand?: string }> = [];
  for (const runner of runnerList(v)) {
    const given = v[`${runner}-client`] ?? (runner === 'go' ? process.env.BEE_GO_PATH : undefined);
    if (runner === 'go' && !given) {
      const problem = await goProxyProblem();
      if (problem) {
        log(`go: skipped: ${problem} (fix: give a bee-go checkout with --go-client PATH or BEE_GO_PATH)`);
        continue;
      }
    }
    runners.push({ runner, source: source(given ?? 'registry', `${runner}-client`), buildCommand: v['build-command'] });
  }
  const out = await withBee(c, (c) => singleJob({ ...c, runners, measure: measureOf(v) }));
  log(`wrote ${out.reports.markdown}, ${out.reports.html}, ${out.reports.csv}`);
  const failed = failuresOf(out.model);
  if (failed.length > 0) log(`${failureHeadline(failed.length)}:\n${failed.map((f) => `  ${failureLine(f)}`).join('\n')}`);
  return out.problems.length > 0 || out.results.length === 0 || failed.length > 0 ? 1 : 0;
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
  const instructionThreshold = num(v['instructions-threshold'], 'instructions-threshold', INSTRUCTION_DEFAULTS.threshold, (n) => n > 0 && n < 10, 'a fraction, e.g. 0.01 for 1%');
  const failOn = FailOnSchema.safeParse(v['fail-on']);
  if (!failOn.success) throw new UsageError(`--fail-on ${v['fail-on']}: use wall, instructions or any`);
  const measure = measureOf(v);
  // Every argument is checked before a dev node is started for the job.
  const sides = {
    base: source(v.base, 'base'), head: source(v.head, 'head'), baseLabel: v['base-label'] ?? v.base, headLabel: v['head-label'] ?? v.head,
    env: { base: envPairs(v['base-env'], 'base-env'), head: envPairs(v['head-env'], 'head-env') },
  };
  const out = await withBee(c, (c) => abJob({
    ...c, ...sides, runner, buildCommand: v['build-command'], rounds, alpha, threshold, runBudgetMs: AB_DEFAULTS.runBudgetMs,
    measure, instructionThreshold,
  }));
  process.stdout.write(out.markdown);
  log(`wrote ${out.markdownFile}`);
  // As in the action: a head that failed or lost a row fails the run like a regression does.
  const f = failingRows(out.rows, failOn.data);
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
    repo, good: v.good, bad: v.bad, log,
    compare: abStepComparator({ ...c, ...verdict, runner, buildCommand: v['build-command'], runBudgetMs: AB_DEFAULTS.runBudgetMs, measure }),
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
function headContext(v: Values): RunContext {
  let commit: RunContext['commit'];
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
  const maxRuns = v['max-runs'] === undefined ? undefined : num(v['max-runs'], 'max-runs', 0, (n) => Number.isInteger(n) && n > 0, 'a whole number of points per series');
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
  return typeof schema === 'string' && schema.startsWith(RECORD_SCHEMA_ID.slice(0, RECORD_SCHEMA_ID.indexOf('@') + 1)) ? parseRecord(file, text) : loadResult(file);
}

/** The valid records of a history folder (its runs/), or one record file; invalid ones stop the export. */
function historyRecords(path: string): HistoryRecord[] {
  if (!statSync(path).isDirectory()) return [parseRecord(path, readFileSync(path, 'utf8'))];
  const set = readRecords(path);
  if (set.invalid.length > 0) throw new InputError(join(path, set.invalid[0]!.file), [set.invalid[0]!.problem], 'fix or remove the invalid record before exporting');
  if (set.records.length === 0) throw new UsageError(`${path}: no records under runs/ (give the history folder, e.g. the bench/ folder of the gh-pages branch)`);
  return set.records.map((r) => r.record);
}

async function cmdHistory(v: Values, positionals: string[]): Promise<number> {
  const [sub, ...paths] = positionals;
  switch (sub) {
    case 'publish': {
      if (paths.length === 0) throw new UsageError('history publish needs result files or folders');
      const results = resultFiles(paths).map(loadResult);
      const report = await publishResults(results, headContext(v), historyTarget(v));
      log(`history: ${report.added.length} record(s) added, ${report.present.length} already present, commit ${report.commit ?? '(none)'} after ${report.attempts} attempt(s)`);
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
      log(`history: imported ${report.added.length} record(s), ${imported.charted} bench(es) charted, ${imported.skipped.length} stored without a time; commit ${report.commit ?? '(none)'}`);
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

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    log(`bee-bench: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  try {
    switch (command) {
      case 'run': return await cmdRun(values);
      case 'ab': return await cmdAb(values);
      case 'bisect': return await cmdBisect(values);
      case 'report': return cmdReport(values, rest);
      case 'compare': return cmdCompare(values, rest);
      case 'history': return await cmdHistory(values, rest);
      default: throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof SelectionError) {
      log(`bee-bench: ${e.message}\n(see bee-bench --help)`);
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

// Run when executed (node dist/cli.js, tsx src/cli.ts), not when imported by tests.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
