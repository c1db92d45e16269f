// `bee-bench experiment SUB`: the Bee release experiment (src/experiment). run = upload, wait and
// download in one go; upload / wait / download run one phase on a run folder (a workflow can upload
// now and download hours later); status reads the journal; compare and report hand journals to
// the analysis.
import { resolve } from 'node:path';
import { designFromWords, loadDesign, runExperiment, runStatus, type PhaseName } from '../../experiment/index.js';
import type { Design } from '../../experiment/schema.js';
import { analyse, experimentId, experimentReport, publishExperiment, readJournal } from '../../experiment/report/index.js';
import { redact } from '../../history/git.js';
import { historyTarget } from '../history-target.js';
import { InputError } from '../../spec/errors.js';
import { CLIENT_FLAGS, givenClient, log, num, oneRunner, source, UsageError, type Values, type FlagName } from '../flags.js';
import type { CliCommand } from '../command.js';
import { EXPERIMENT_DESIGN } from '../help-text.js';

const PHASES = {
  run: ['upload', 'sync', 'download'],
  upload: ['upload'],
  wait: ['sync'],
  download: ['sync', 'download'],
} as const satisfies Record<string, readonly PhaseName[]>;

const DESIGN_FLAGS = [
  'sizes',
  'levels',
  'strategies',
  'node',
  'replicates',
  'attempts',
  'upload',
  'endpoint',
  'wait',
  'ceiling',
  'poll',
  'timeout',
  'seed',
  'order',
  'fallback',
] as const;

/** The flags every phase on a run folder takes: the runner and its client build, the folder. */
const RUN_FOLDER_FLAGS = ['runner', ...CLIENT_FLAGS, 'out', 'cache', 'build-command'] as const satisfies readonly FlagName[];
/** The phases that can start a run folder take its design too. */
const DESIGNING_FLAGS = [...RUN_FOLDER_FLAGS, 'design', ...DESIGN_FLAGS] as const satisfies readonly FlagName[];

/** The design of the command line: --design FILE, or the design flags; undefined when neither is given. */
export function designOf(v: Values): Design | undefined {
  const given = DESIGN_FLAGS.filter((f) => v[f] !== undefined);
  if (v.design) {
    if (given.length > 0) throw new UsageError(`--design FILE holds the whole design: drop ${given.map((f) => `--${f}`).join(', ')}`);
    return loadDesign(resolve(v.design));
  }
  if (given.length === 0) return undefined;
  if (v.fallback !== undefined && v.fallback !== 'true' && v.fallback !== 'false') throw new UsageError(`--fallback ${v.fallback}: use true or false`);
  try {
    return designFromWords({
      sizes: v.sizes,
      levels: v.levels,
      strategies: v.strategies,
      nodes: v.node,
      replicates: v.replicates,
      attempts: v.attempts,
      upload: v.upload,
      endpoint: v.endpoint,
      wait: v.wait,
      ceiling: v.ceiling,
      poll: v.poll,
      timeout: v.timeout,
      seed: v.seed,
      order: v.order,
      ...(v.fallback !== undefined ? { fallback: v.fallback === 'true' } : {}),
    });
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(e.message);
    throw e;
  }
}

/** The experiment's subcommands: the phases a run folder goes through, its status, and the analysis's. */
type Sub = keyof typeof PHASES | 'status' | 'compare' | 'report' | 'publish';

async function experiment(v: Values, sub: Sub, rest: string[]): Promise<number> {
  if (sub === 'compare' || sub === 'report') return analysisReport(v, sub, rest);
  if (sub === 'publish') return publishRuns(v, rest);
  if (rest.length > 0) throw new UsageError(`experiment ${sub} takes no positional argument (got ${rest.join(' ')})`);
  const dir = resolve(v.out ?? 'experiment');
  if (sub === 'status') {
    process.stdout.write(`${(await runStatus(dir)).text}\n`);
    return 0;
  }
  const runner = oneRunner(v, `experiment ${sub}`);
  const given = givenClient(v, runner);
  await runExperiment({
    dir,
    design: designOf(v),
    runner,
    source: given ? source(given, `${runner}-client`) : { kind: 'registry' },
    cacheDir: v.cache ? resolve(v.cache) : undefined,
    buildCommand: v['build-command'],
    phases: PHASES[sub],
    log,
  });
  const st = await runStatus(dir);
  process.stdout.write(`${st.text}\n`);
  return 0;
}

/** compare A B (two runs, the seed's way) and report RUN... (one run side by side or an A/A; or several): the analysis's report. */
async function analysisReport(v: Values, sub: 'compare' | 'report', runs: string[]): Promise<number> {
  if (sub === 'compare' && runs.length !== 2) throw new UsageError('experiment compare needs two run folders (A B)');
  if (sub === 'report' && runs.length === 0) throw new UsageError('experiment report needs a run folder (or more)');
  const out = resolve(v.out ?? (sub === 'report' && runs.length === 1 ? `${runs[0]}/report` : 'experiment-report'));
  const alpha = alphaOf(v);
  const r = await experimentReport({ journals: runs.map((d) => resolve(d)), out, alpha });
  process.stdout.write(`${r.summary}\n`);
  for (const f of r.files) log(`experiment: wrote ${f}`);
  return 0;
}

/** publish RUN... --remote R: the runs' analysis (as `report` or `compare` makes it) into the history branch's experiments. */
async function publishRuns(v: Values, runs: string[]): Promise<number> {
  if (runs.length === 0) throw new UsageError('experiment publish needs a run folder (one side by side, or two: A B) and --remote');
  const target = historyTarget(v);
  const alpha = alphaOf(v);
  const journals = [];
  for (const d of runs) journals.push(await readJournal(resolve(d)));
  const analysis = analyse(journals, { alpha });
  const written = await publishExperiment(analysis, {
    remote: target.remote,
    workdir: target.workdir,
    ...(target.token ? { token: target.token } : {}),
    ...(target.branch ? { branch: target.branch } : {}),
    ...(target.folder ? { folder: target.folder } : {}),
    log,
  });
  log(`experiment: ${experimentId(analysis)} published, commit ${written.commit ?? '(none)'}`);
  log(`next: npx bee-bench site --remote ${redact(target.remote)} (its experiments page lists it)`);
  return 0;
}

const alphaOf = (v: Values) => num(v.alpha, 'alpha', 0.05, (n) => n > 0 && n < 1, 'a false-discovery rate between 0 and 1, e.g. 0.05');

/** `bee-bench experiment run`: its help, its flags and what it runs. */
export const experimentRunCli: CliCommand = {
  name: 'experiment run',
  usage: [
    'bee-bench experiment run      --runner js|go|rs (--design FILE | DESIGN) [--out DIR]',
    '                              [--<runner>-client SRC] [--cache DIR] [--build-command CMD]',
  ],
  summary: 'the Bee release experiment: unique uploads, a sync wait, checked downloads, journaled',
  details: `${EXPERIMENT_DESIGN}
A run folder (--out, default experiment/) holds journal.jsonl, one fsync'd row per upload, sync
wait and download attempt. Run the same command again on the same folder after a kill or a crash:
it continues after the last row, repeating none (the design then comes from the journal).
Example, two dev nodes side by side (started by hand: bee dev --api-addr=127.0.0.1:1633, :1634):
  bee-bench experiment run --runner js --out exp1 \\
    --node a=2.7.0@http://127.0.0.1:1633 --node b=2.8.0@http://127.0.0.1:1634 \\
    --sizes 1KB,10KB,100KB --levels 0,2,4 --strategies DATA,RACE --replicates 5
  bee-bench experiment status --out exp1
More: docs/experiment.md (real nodes, what a dev node cannot show, the cost of a full study).`,
  fails: 'a node or the runner failed (the message names it; the journal keeps every finished row: run again to continue)',
  flags: DESIGNING_FLAGS,
  run: (v, args) => experiment(v, 'run', args),
};

/** `bee-bench experiment upload`: its help, its flags and what it runs. */
export const experimentUploadCli: CliCommand = {
  name: 'experiment upload',
  usage: [
    'bee-bench experiment upload   --runner js|go|rs (--design FILE | DESIGN) [--out DIR]',
    '                              [--<runner>-client SRC] [--cache DIR] [--build-command CMD]',
  ],
  summary: 'the upload phase alone: one unique payload per unit, journaled',
  details: `${EXPERIMENT_DESIGN}
Starts or continues a run folder (default --out experiment/); wait and download can follow hours later from the folder alone.`,
  fails: 'a node or the runner failed (run again to continue)',
  flags: DESIGNING_FLAGS,
  run: (v, args) => experiment(v, 'upload', args),
};

/** `bee-bench experiment wait`: its help, its flags and what it runs. */
export const experimentWaitCli: CliCommand = {
  name: 'experiment wait',
  usage: ['bee-bench experiment wait     --runner js|go|rs [--out DIR] [--<runner>-client SRC] [--cache DIR] [--build-command CMD]'],
  summary: "the sync wait alone: each upload waited for on the node's own signal, up to the ceiling",
  details: `The design's wait rule: --wait auto|tag|stewardship|none, --ceiling SECONDS, --poll SECONDS.
auto waits for nothing on a dev node (it holds every chunk), else for the upload's tag.
A wait that reaches the ceiling is journaled as not synced; its unit is still downloaded.
Default --out experiment/; the rule is the run's, from its journal.`,
  fails: 'a node failed, or the uploads are not finished',
  flags: RUN_FOLDER_FLAGS,
  run: (v, args) => experiment(v, 'wait', args),
};

/** `bee-bench experiment download`: its help, its flags and what it runs. */
export const experimentDownloadCli: CliCommand = {
  name: 'experiment download',
  usage: ['bee-bench experiment download --runner js|go|rs [--out DIR] [--<runner>-client SRC] [--cache DIR] [--build-command CMD]'],
  summary: 'the download phase (after any sync wait left): attempts up to --attempts, content checked',
  details: 'Each attempt is bounded by --timeout; a wrong byte is a failed attempt, never a time. Default --out experiment/.',
  fails: 'a node or the runner failed (run again to continue)',
  flags: RUN_FOLDER_FLAGS,
  run: (v, args) => experiment(v, 'download', args),
};

/** `bee-bench experiment compare`: its help, its flags and what it runs. */
export const experimentCompareCli: CliCommand = {
  name: 'experiment compare',
  usage: ['bee-bench experiment compare  A_DIR B_DIR [--out DIR] [--alpha 0.05]'],
  summary: "two runs (one release each) compared per cell, the seed study's way",
  details: `Per cell (size × level × strategy, per server and pooled): Mann–Whitney, the Hodges–Lehmann
shift with its 95% interval, BH-corrected across cells at --alpha; failures per cell; z-scores;
RACE vs DATA within a release; replicates needed. Writes experiment-report.{md,csv,html},
experiment-samples.csv and experiment-analysis.json into --out (default experiment-report/) and
prints the summary.`,
  fails: 'never (unreadable journals are bad input: 2)',
  flags: ['out', 'alpha'],
  run: (v, args) => experiment(v, 'compare', args),
};

/** `bee-bench experiment report`: its help, its flags and what it runs. */
export const experimentReportCli: CliCommand = {
  name: 'experiment report',
  usage: ['bee-bench experiment report   RUN_DIR... [--out DIR] [--alpha 0.05]'],
  summary: 'the report of one run: two releases side by side, or an A/A (one release on two nodes)',
  details: 'As compare, for the releases (or nodes) of one run; --out defaults to RUN_DIR/report.',
  fails: 'never (unreadable journals are bad input: 2)',
  flags: ['out', 'alpha'],
  run: (v, args) => experiment(v, 'report', args),
};

/** `bee-bench experiment publish`: its help, its flags and what it runs. */
export const experimentPublishCli: CliCommand = {
  name: 'experiment publish',
  usage: ['bee-bench experiment publish  RUN_DIR... --remote URL|PATH [--history-branch gh-pages] [--folder bench] [--workdir DIR] [--alpha 0.05]'],
  summary: "a run's analysis (or compare A B's) into the history branch, where the site's experiments page lists it",
  details: `The summary (bee-bench/experiment-summary@1: the pooled per-cell comparisons and the one-paragraph
summary) is written once under experiments/<run id>.json, immutable, with the index re-derived and
the trend site copied in the same commit; a cell measured by two or more experiments gets a trend.
Defaults: --history-branch gh-pages, --folder bench, --workdir .bee-bench/history, --alpha 0.05.`,
  fails: 'the push failed after its retries (1); unreadable journals are bad input (2)',
  flags: ['remote', 'history-branch', 'folder', 'workdir', 'alpha'],
  run: (v, args) => experiment(v, 'publish', args),
};

/** `bee-bench experiment status`: its help, its flags and what it runs. */
export const experimentStatusCli: CliCommand = {
  name: 'experiment status',
  usage: ['bee-bench experiment status   [--out DIR]'],
  summary: 'what a run folder holds: units uploaded, synced, downloaded, failed and left',
  details: 'Reads the journal only (no node, no runner). Default --out experiment/.',
  fails: 'never (an unreadable journal is bad input: 2)',
  flags: ['out'],
  run: (v, args) => experiment(v, 'status', args),
};
