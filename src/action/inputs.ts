// The action's inputs: read as strings (INPUT_<NAME>, as the runner sets them from action.yml),
// validated with zod one by one so that every problem names its input and the fix. Defaults live
// here as well as in action.yml (a test keeps the two equal): the bundle also runs where no runner
// filled them in.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { defaultSpecPath } from '../build/paths.js';
import { FailOnSchema, type FailOn } from '../verdict/index.js';
import { isDeterministic, MEASURES, MeasureSchema, type Measure } from '../spec/measure.js';
import { AB_DEFAULTS, ALLOCATION_DEFAULTS, INSTRUCTION_DEFAULTS } from '../verdict/index.js';
import { loadSpec } from '../spec/load.js';
import { RUN_SIZES, RunnerSchema, type RunSize, type Runner } from '../spec/schema.js';
import { SelectionError, selectCases } from '../spec/select.js';
import { parsePieceRef, type PieceRef } from '../ab/pieces.js';
import { CLIENT_IDS, detectClients } from './detect.js';
import { parseNodeSpec, type NodeSpec } from '../bee/node-sides.js';

export const INPUT_DEFAULTS = {
  client: '',
  path: '.',
  cases: 'cpu.*',
  profile: 'quick',
  rounds: String(AB_DEFAULTS.rounds),
  alpha: String(AB_DEFAULTS.alpha),
  threshold: String(AB_DEFAULTS.threshold),
  'compare-clients': 'false',
  'go-client-path': '',
  'build-command': '',
  comment: 'always',
  'fail-on-regression': 'false',
  'fail-on': 'any',
  measure: 'both',
  'instructions-floor': String(INSTRUCTION_DEFAULTS.floor),
  'allocations-floor': String(ALLOCATION_DEFAULTS.floor),
  'instructions-threshold': '',
  'allocations-threshold': '',
  'github-token': '${{ github.token }}',
  bee: 'url',
  'bee-url': '',
  'batch-id': '',
  'base-bee': '',
  'head-bee': '',
  'base-batch-id': '',
  'head-batch-id': '',
  history: 'off',
  'history-branch': 'gh-pages',
  'history-folder': 'bench',
  'history-max-runs': '200',
  'history-remote': '',
  baseline: 'build',
  'history-runs': '10',
  alert: 'off',
  mode: 'run',
  'artifact-id': '',
  'base-ref': '',
  'head-ref': '',
  piece: '',
  split: '1',
  'pieces-path': '',
  'experiment-command': 'run',
  'experiment-design': '',
  'experiment-out': 'bee-bench-experiment',
} as const;

export type InputName = keyof typeof INPUT_DEFAULTS;
export const INPUT_NAMES = Object.keys(INPUT_DEFAULTS) as InputName[];

/** A bad input: which one, what is wrong, how to fix it. Several are reported together. */
export class ActionInputError extends Error {
  constructor(readonly problems: ReadonlyArray<{ input: string; problem: string; fix: string }>) {
    super(problems.map((p) => `input "${p.input}": ${p.problem} (fix: ${p.fix})`).join('\n'));
    this.name = 'ActionInputError';
  }
  static one(input: string, problem: string, fix: string): ActionInputError {
    return new ActionInputError([{ input, problem, fix }]);
  }
}

export interface BeeInput {
  url: string;
  batchId: string;
}

export interface ActionInputs {
  /** publish (and its older name, comment): the writing job of the two-job setup; it runs no client code. */
  mode: 'run' | 'publish' | 'comment' | 'bisect' | 'experiment';
  /** undefined only in mode publish/comment without an explicit client (then bee-bench-js, -go and -rs are read, each by exact name). */
  client?: Runner;
  clientDetected: boolean;
  /** Absolute path of the client checkout (the head of a PR). */
  path: string;
  cases: string[];
  profile: RunSize;
  rounds: number;
  alpha: number;
  threshold: number;
  compareClients: boolean;
  goClientPath?: string;
  buildCommand?: string;
  comment: 'always' | 'on-change' | 'never';
  failOnRegression: boolean;
  /** Which evidence fail-on-regression acts on. */
  failOn: FailOn;
  /** What the A/B measures; instructions need valgrind on Linux x86-64 (elsewhere wall time, said in the report). */
  measure: Measure;
  /**
   * The deterministic evidences' floors by kind (instructions-floor, allocations-floor): a row's
   * threshold is the larger of its evidence's floor and ten A/A spreads.
   */
  thresholds: { instructions: number; allocations: number };
  /** A PR's A/B split into parallel jobs: the one piece this job measures (docs/action.md "A PR as parallel jobs"). */
  piece?: PieceRef;
  /** Pieces per deterministic evidence of a split A/B (every job of the matrix gives the same). */
  split: number;
  /** The merge job: the folder holding the downloaded pieces. */
  piecesPath?: string;
  token: string;
  /** dev: start a Bee dev node in Docker for the net cases; url: the node in bee-url (or none). */
  beeSource: 'dev' | 'url';
  bee?: BeeInput;
  /** base-bee and head-bee: the Bee node is the A/B's variable (one build of the checkout at path against both). */
  nodeAb?: { base: NodeSpec; head: NodeSpec };
  history: 'off' | 'gh-pages';
  historyBranch: string;
  historyFolder: string;
  historyMaxRuns: number;
  /** mode: publish: the one artifact to read, by id (a merge job's upload), instead of bee-bench-<client> by name. */
  artifactId?: number;
  /** Overrides the repository the history branch lives in (default: this repository). */
  historyRemote?: string;
  /** PRs: build the base in this job (paired) or judge against the base branch's history (unpaired). */
  baseline: 'build' | 'history';
  historyRuns: number;
  /** Pushes to the default branch: open/update/close one issue per regressed row against the branch's history. */
  alert: 'off' | 'issue';
  baseRef?: string;
  headRef?: string;
  specFile: string;
  /** mode: experiment (docs/experiment.md): the phase to run, the design file and the run folder (absolute). */
  experiment: { command: 'run' | 'upload' | 'wait' | 'download' | 'report'; design?: string; out: string };
}

const bool = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(['true', 'false'], { error: 'expected true or false' }))
  .transform((s) => s === 'true');

const number = (check: (n: number) => boolean, what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]*\.?[0-9]+(e-?[0-9]+)?$/i, `expected ${what}`)
    .transform(Number)
    .refine(check, `expected ${what}`);

// A git ref or sha the action passes to git: no option look-alikes, no whitespace or control bytes.
const gitRef = z
  .string()
  .trim()
  .regex(/^[^-\s][^\s\x00-\x1f\x7f~^:?*[\\]*$/, 'not a branch, tag or commit sha git accepts');

interface Field<T> {
  schema: z.ZodType<T, string>;
  fix: string;
}

const FIELDS = {
  mode: {
    schema: z.enum(['run', 'publish', 'comment', 'bisect', 'experiment'], { error: 'expected run, publish, comment, bisect or experiment' }),
    fix: "use run (measure), publish (the second job: comment, history and alerts from the measuring run's artifact; comment is its older name), bisect (find the commit between base-ref and head-ref that made the cases slower) or experiment (the Bee release experiment, docs/experiment.md)",
  },
  client: {
    schema: z.union([z.literal(''), RunnerSchema], { error: 'expected js, go or rs' }),
    fix: 'use js, go or rs, or leave it empty to detect the client from the checkout at path',
  },
  profile: { schema: z.enum(RUN_SIZES, { error: 'expected quick or full' }), fix: 'use quick (PRs) or full' },
  rounds: {
    schema: number((n) => Number.isInteger(n) && n >= 1 && n <= 200, 'a whole number from 1 to 200'),
    fix: `a whole number of paired rounds, default ${AB_DEFAULTS.rounds}`,
  },
  alpha: { schema: number((n) => n > 0 && n < 1, 'a probability between 0 and 1'), fix: `a false-discovery level such as ${AB_DEFAULTS.alpha}` },
  threshold: {
    schema: number((n) => n >= 0 && n < 10, 'a fraction from 0 to 10'),
    fix: `the smallest change to flag as a fraction, e.g. ${AB_DEFAULTS.threshold} for ${AB_DEFAULTS.threshold * 100}%`,
  },
  'compare-clients': { schema: bool, fix: 'use true or false' },
  comment: { schema: z.enum(['always', 'on-change', 'never'], { error: 'expected always, on-change or never' }), fix: 'use always, on-change or never' },
  'fail-on-regression': { schema: bool, fix: 'use true or false' },
  'fail-on': { schema: FailOnSchema, fix: 'any (a regression in any evidence), wall, instructions or allocations' },
  measure: { schema: MeasureSchema, fix: `a comma list of ${MEASURES.join(', ')}; both = wall,instructions` },
  'instructions-floor': {
    schema: number((n) => n > 0 && n < 10, 'a fraction above 0'),
    fix: `the smallest change in instruction counts any row flags, e.g. ${INSTRUCTION_DEFAULTS.floor} for ${INSTRUCTION_DEFAULTS.floor * 100}% (a row whose A/A spread is larger flags at ten spreads)`,
  },
  'allocations-floor': {
    schema: number((n) => n > 0 && n < 10, 'a fraction above 0'),
    fix: `the smallest change in bytes (or allocations) per iteration any row flags, e.g. ${ALLOCATION_DEFAULTS.floor} for ${ALLOCATION_DEFAULTS.floor * 100}%`,
  },
  'instructions-threshold': {
    schema: z.union([z.literal(''), number((n) => n > 0 && n < 10, 'a fraction above 0')]),
    fix: 'the former name of instructions-floor: a fraction such as 0.005, or empty',
  },
  'allocations-threshold': {
    schema: z.union([z.literal(''), number((n) => n > 0 && n < 10, 'a fraction above 0')]),
    fix: 'the former name of allocations-floor: a fraction such as 0.005, or empty',
  },
  history: {
    schema: z.enum(['off', 'gh-pages'], { error: 'expected off or gh-pages' }),
    fix: 'gh-pages (append push and dispatch runs to the history branch) or off',
  },
  'history-branch': { schema: gitRef, fix: 'the branch that holds the history, e.g. gh-pages' },
  'history-folder': {
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'expected a relative folder such as bench')
      .refine((f) => !f.split('/').includes('..'), 'must not climb out of the branch'),
    fix: 'a relative folder inside the history branch, e.g. bench',
  },
  'experiment-command': {
    schema: z.enum(['run', 'upload', 'wait', 'download', 'report'], { error: 'expected run, upload, wait, download or report' }),
    fix: 'mode: experiment only: run (all phases), upload, wait, download (one phase), or report',
  },
  'experiment-design': {
    schema: z.string().trim(),
    fix: 'mode: experiment only: a design JSON file (bee-bench/experiment-design@1) relative to the workspace, or empty to continue the run in experiment-out',
  },
  'experiment-out': {
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'expected a relative folder such as bee-bench-experiment')
      .refine((f) => !f.split('/').includes('..'), 'must not climb out of the workspace'),
    fix: 'mode: experiment only: the run folder, relative to the workspace (restore it from a cache or an artifact to continue a run)',
  },
  'artifact-id': {
    schema: z.union([z.literal(''), z.string().regex(/^[1-9][0-9]{0,15}$/, 'expected an artifact id (digits), or empty')]),
    fix: "mode: publish only: the id of the one artifact to publish, a merge job's actions/upload-artifact output artifact-id (e.g. ${{ needs.merge.outputs.artifact-id }}), or empty to read bee-bench-<client> by name",
  },
  'history-max-runs': {
    schema: number((n) => Number.isInteger(n) && n >= 1, 'a whole number of at least 1'),
    fix: 'points kept per series in the derived files (records are all kept), e.g. 200',
  },
  baseline: {
    schema: z.enum(['build', 'history'], { error: 'expected build or history' }),
    fix: "build (build the PR's merge base in this job: paired verdicts) or history (compare with the base branch's recorded runs: unpaired, cross-machine)",
  },
  'history-runs': {
    schema: number((n) => Number.isInteger(n) && n >= 2 && n <= 1000, 'a whole number from 2 to 1000'),
    fix: "how many of the base branch's latest runs form the baseline, e.g. 10",
  },
  alert: {
    schema: z.enum(['off', 'issue'], { error: 'expected off or issue' }),
    fix: 'issue (on pushes to the default branch, keep one GitHub issue per regressed row) or off',
  },
  'base-ref': { schema: z.literal('').or(gitRef), fix: 'a branch, tag or commit sha' },
  'head-ref': { schema: z.literal('').or(gitRef), fix: 'a branch, tag or commit sha' },
  piece: {
    schema: z.string().refine((t) => t === '' || parsePieceRef(t) !== null, 'not a piece'),
    fix: 'wall, or instructions:K/N or allocations:K/N with 1 <= K <= N (N = split), or leave it empty to measure the whole A/B',
  },
  split: {
    schema: number((n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64'),
    fix: 'how many pieces each of instructions and allocations is split into, the same in every job of the matrix',
  },
  'pieces-path': { schema: z.string(), fix: 'the folder actions/download-artifact put the pieces in, or leave it empty' },
  bee: {
    schema: z.enum(['dev', 'url'], { error: 'expected dev or url' }),
    fix: 'dev (start a Bee 2.8.0 dev node in Docker for the net cases) or url (the node in bee-url and batch-id, if any)',
  },
  'bee-url': {
    schema: z.literal('').or(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })),
    fix: 'the API URL of a Bee node, e.g. http://localhost:1633',
  },
  'base-bee': { schema: z.string(), fix: 'a Bee executable (a path in the workspace) started as a dev node, or the http(s) URL of a running node' },
  'head-bee': { schema: z.string(), fix: 'a Bee executable (a path in the workspace) started as a dev node, or the http(s) URL of a running node' },
  'base-batch-id': { schema: z.string(), fix: 'the postage batch (64 hex digits) of the node in base-bee, when it is a URL' },
  'head-batch-id': { schema: z.string(), fix: 'the postage batch (64 hex digits) of the node in head-bee, when it is a URL' },
  'batch-id': {
    schema: z.literal('').or(
      z
        .string()
        .trim()
        .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a 64-digit hex postage batch id'),
    ),
    fix: 'the id of a usable postage batch on that node (64 hex digits)',
  },
} satisfies Record<string, Field<unknown>>;

type Parsed = { [K in keyof typeof FIELDS]: z.output<(typeof FIELDS)[K]['schema']> };

/** Splits the cases input on newlines and commas. */
export function splitCases(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export interface ReadOptions {
  workspace: string;
  specFile?: string;
  /** Where the action runs (bee: dev needs Docker on Linux); default: this process's platform. */
  platform?: NodeJS.Platform;
}

/** Reads and validates every input; throws ActionInputError listing all problems. */
export function readInputs(get: (name: InputName) => string, o: ReadOptions): ActionInputs {
  const problems: Array<{ input: string; problem: string; fix: string }> = [];
  const raw = (name: InputName) => {
    const v = get(name).trim();
    return v === '' ? (name === 'github-token' ? '' : INPUT_DEFAULTS[name]) : v;
  };
  const parsed = {} as Record<string, unknown>;
  for (const [name, field] of Object.entries(FIELDS) as Array<[keyof typeof FIELDS, Field<unknown>]>) {
    const text = raw(name);
    const r = field.schema.safeParse(text);
    if (r.success) parsed[name] = r.data;
    else problems.push({ input: name, problem: `${JSON.stringify(text)}: ${r.error.issues[0]?.message ?? 'invalid'}`, fix: field.fix });
  }
  const p = parsed as Parsed;
  const mode = p.mode ?? 'run';
  // The publishing job checks nothing out and builds nothing: path, client and cases are not its business.
  const publishing = mode === 'comment' || mode === 'publish';
  // The experiment builds the chosen runner on its registry client: no checkout to look at.
  const noCheckout = publishing || mode === 'experiment';

  const path = resolve(o.workspace, raw('path'));
  const pathOk = existsSync(path) && statSync(path).isDirectory();
  if (!noCheckout && !pathOk) {
    problems.push({
      input: 'path',
      problem: `${JSON.stringify(raw('path'))} is not a folder (resolved to ${path})`,
      fix: 'the folder of the client checkout, relative to the workspace',
    });
  }

  // Client: given, or detected from the checkout.
  let client: Runner | undefined = p.client ? p.client : undefined;
  let clientDetected = false;
  if (!noCheckout && p.client === '' && pathOk) {
    const found = detectClients(path);
    if (found.length === 1) {
      client = found[0];
      clientDetected = true;
    } else {
      problems.push({
        input: 'client',
        problem:
          found.length === 0
            ? `cannot detect the client in ${path}: no ${Object.values(CLIENT_IDS).join(', no ')}`
            : `${path} looks like several clients (${found.join(', ')})`,
        fix: 'set client to js, go or rs, or point path at the client checkout',
      });
    }
  }

  // Cases: a non-empty selection that matches the spec.
  const specFile = o.specFile ?? defaultSpecPath();
  const cases = splitCases(raw('cases'));
  if (cases.length === 0) {
    problems.push({ input: 'cases', problem: 'the selection is empty', fix: 'one or more case globs, comma- or newline-separated, e.g. cpu.*' });
  } else if (!publishing) {
    try {
      selectCases(loadSpec(specFile).spec, cases);
    } catch (e) {
      if (!(e instanceof SelectionError)) throw e;
      problems.push({ input: 'cases', problem: e.message, fix: "globs over the spec's case ids (spec/bench-spec.json), e.g. cpu.* or cpu.bmt.*,net.bzz.*" });
    }
  }

  // bee-url and batch-id go together.
  const beeUrl = p['bee-url'] ?? '';
  const batchId = (p['batch-id'] ?? '').replace(/^0x/, '').toLowerCase();
  if (Boolean(beeUrl) !== Boolean(batchId) && p['bee-url'] !== undefined && p['batch-id'] !== undefined) {
    problems.push({
      input: beeUrl ? 'batch-id' : 'bee-url',
      problem: 'bee-url and batch-id go together',
      fix: 'give both (net cases run against that node) or neither (net cases are skipped)',
    });
  }

  if (p.bee === 'dev' && mode === 'run') {
    if (beeUrl || batchId)
      problems.push({
        input: 'bee',
        problem: 'dev starts its own node and batch, but bee-url or batch-id is set too',
        fix: 'drop bee-url and batch-id, or use bee: url to run against that node',
      });
    if ((o.platform ?? process.platform) !== 'linux')
      problems.push({
        input: 'bee',
        problem: `dev needs Docker on a Linux runner, and this one runs ${o.platform ?? process.platform}`,
        fix: 'run the job on ubuntu-latest, or give bee-url and batch-id of a node you run',
      });
  }

  // base-bee and head-bee: the node A/B (src/bee/node-sides.ts parses each side, relative to the workspace).
  let nodeAb: ActionInputs['nodeAb'];
  const baseBee = raw('base-bee');
  const headBee = raw('head-bee');
  if (baseBee || headBee || raw('base-batch-id') || raw('head-batch-id')) {
    const conflict =
      !baseBee || !headBee
        ? { input: baseBee ? 'head-bee' : 'base-bee', problem: 'a node A/B needs both base-bee and head-bee', fix: 'give both, or neither for a client A/B' }
        : mode !== 'run'
          ? { input: 'base-bee', problem: `a node A/B measures, and mode is ${mode}`, fix: 'use mode: run' }
          : p.bee === 'dev' || beeUrl || batchId
            ? {
                input: 'base-bee',
                problem: 'base-bee and head-bee are the nodes of a node A/B, but bee: dev or bee-url is set too',
                fix: 'drop bee, bee-url and batch-id',
              }
            : p['base-ref'] || p['head-ref'] || p.piece
              ? { input: 'base-bee', problem: 'a node A/B runs one build of the checkout, but base-ref, head-ref or piece is set too', fix: 'drop them' }
              : undefined;
    if (conflict) problems.push(conflict);
    else {
      const side = (name: 'base' | 'head', value: string) => {
        try {
          return parseNodeSpec(value, raw(`${name}-batch-id`) || undefined, `${name}-bee`, `${name}-batch-id`, o.workspace);
        } catch (e) {
          problems.push({ input: `${name}-bee`, problem: (e as Error).message, fix: FIELDS[`${name}-bee`].fix });
          return undefined;
        }
      };
      const base = side('base', baseBee);
      const head = side('head', headBee);
      if (base && head) nodeAb = { base, head };
    }
  }

  const goClientPath = raw('go-client-path');
  let goPath: string | undefined;
  if (goClientPath) {
    goPath = isAbsolute(goClientPath) ? goClientPath : resolve(o.workspace, goClientPath);
    if (!existsSync(goPath) || !statSync(goPath).isDirectory() || !detectClients(goPath).includes('go')) {
      problems.push({
        input: 'go-client-path',
        problem: `${goPath} is not a bee-go checkout (no ${CLIENT_IDS.go})`,
        fix: 'the folder of a bee-go checkout (e.g. an actions/checkout of ethswarm-tools/bee-go), or leave it empty',
      });
    }
  }

  if (p.baseline === 'history' && p.history !== 'gh-pages') {
    problems.push({ input: 'baseline', problem: 'history needs the history store', fix: 'set history: gh-pages as well, or baseline: build' });
  }

  if (p.alert === 'issue' && p.history !== 'gh-pages') {
    problems.push({
      input: 'alert',
      problem: "issue judges each run against the branch's history, which is off",
      fix: 'set history: gh-pages as well, or alert: off',
    });
  }
  if (mode === 'experiment' && p.client === '')
    problems.push({ input: 'client', problem: 'mode experiment needs the client that drives it', fix: 'set client to js, go or rs' });
  const experimentDesign = p['experiment-design'] ? resolve(o.workspace, p['experiment-design']) : undefined;
  if (mode === 'experiment' && experimentDesign && !existsSync(experimentDesign))
    problems.push({
      input: 'experiment-design',
      problem: `${experimentDesign} does not exist`,
      fix: 'a design JSON file in the workspace (docs/experiment.md), or empty to continue a run',
    });
  if (mode === 'bisect' && p['base-ref'] === '') {
    problems.push({
      input: 'base-ref',
      problem: 'mode bisect needs the good ref to walk from',
      fix: 'a branch, tag or sha without the slowdown (head-ref, or the checkout, is the bad one)',
    });
  }

  const piece = p.piece ? parsePieceRef(p.piece) : null;
  if (piece && p.measure && !p.measure.includes(piece.evidence))
    problems.push({ input: 'piece', problem: `${p.piece} is not measured (measure: ${p.measure.join(',')})`, fix: 'a piece of an evidence in measure' });
  if (piece && isDeterministic(piece.evidence) && p.split !== undefined && piece.total !== p.split)
    problems.push({
      input: 'piece',
      problem: `${p.piece} has ${piece.total} pieces, but split is ${p.split}`,
      fix: 'give every job of the matrix the same split, and pieces K/split',
    });
  const piecesPath = p['pieces-path'] ? resolve(o.workspace, p['pieces-path']) : undefined;
  if (piece && piecesPath)
    problems.push({ input: 'pieces-path', problem: 'set together with piece', fix: 'piece in the measure jobs, pieces-path in the merge job' });
  if (piecesPath && (!existsSync(piecesPath) || !statSync(piecesPath).isDirectory()))
    problems.push({ input: 'pieces-path', problem: `${piecesPath} is not a folder`, fix: 'the path given to actions/download-artifact' });

  // instructions-threshold, allocations-threshold: the floors' former names, used when given. The
  // runner fills in action.yml's default floor, so only a floor other than the default conflicts.
  const floor = (evidence: 'instructions' | 'allocations'): number => {
    const former = p[`${evidence}-threshold`];
    if (former === '' || former === undefined) return p[`${evidence}-floor`];
    if (p[`${evidence}-floor`] !== Number(INPUT_DEFAULTS[`${evidence}-floor`]))
      problems.push({
        input: `${evidence}-threshold`,
        problem: `the former name of ${evidence}-floor, which is set too`,
        fix: `keep ${evidence}-floor and drop ${evidence}-threshold`,
      });
    return former;
  };
  const thresholds = { instructions: floor('instructions'), allocations: floor('allocations') };

  if (problems.length > 0) throw new ActionInputError(problems);
  const buildCommand = raw('build-command');
  const historyRemote = raw('history-remote');
  const baseRef = p['base-ref'];
  const headRef = p['head-ref'];
  return {
    mode,
    ...(client ? { client } : {}),
    clientDetected,
    path,
    cases,
    profile: p.profile,
    rounds: p.rounds,
    alpha: p.alpha,
    threshold: p.threshold,
    compareClients: p['compare-clients'],
    ...(goPath ? { goClientPath: goPath } : {}),
    ...(buildCommand ? { buildCommand } : {}),
    comment: p.comment,
    failOnRegression: p['fail-on-regression'],
    failOn: p['fail-on'],
    measure: p.measure,
    thresholds,
    ...(piece ? { piece } : {}),
    split: p.split,
    ...(piecesPath ? { piecesPath } : {}),
    token: raw('github-token'),
    beeSource: p.bee,
    ...(beeUrl ? { bee: { url: beeUrl, batchId } } : {}),
    ...(nodeAb ? { nodeAb } : {}),
    history: p.history,
    historyBranch: p['history-branch'],
    historyFolder: p['history-folder'],
    historyMaxRuns: p['history-max-runs'],
    ...(historyRemote ? { historyRemote } : {}),
    baseline: p.baseline,
    historyRuns: p['history-runs'],
    alert: p.alert,
    ...(baseRef ? { baseRef } : {}),
    ...(headRef ? { headRef } : {}),
    experiment: {
      command: p['experiment-command'],
      ...(experimentDesign ? { design: experimentDesign } : {}),
      out: resolve(o.workspace, p['experiment-out']),
    },
    ...(p['artifact-id'] ? { artifactId: Number(p['artifact-id']) } : {}),
    specFile,
  };
}
