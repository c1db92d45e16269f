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
import { givenClient, log, num, oneRunner, source, UsageError, type Values } from '../flags.js';
import { closest } from '../../spec/suggest.js';

const PHASES: Record<string, readonly PhaseName[]> = {
  run: ['upload', 'sync', 'download'],
  upload: ['upload'],
  wait: ['sync'],
  download: ['sync', 'download'],
};

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

export async function experiment(v: Values, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const subs = [...Object.keys(PHASES), 'status', 'compare', 'report', 'publish'];
  if (!sub || !subs.includes(sub)) {
    const near = sub ? closest(sub, subs) : undefined;
    throw new UsageError(`unknown experiment command "${sub ?? ''}"${near ? ` (did you mean "experiment ${near}"?)` : ''}: use ${subs.join(', ')}`);
  }
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
    phases: PHASES[sub]!,
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
