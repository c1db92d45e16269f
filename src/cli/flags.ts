// The CLI's flags, parsed once for every command, and the readers that turn a flag's text into a
// checked value (a bad value is a UsageError naming the flag and what it takes).
import { resolve } from 'node:path';
import type { ParseArgsConfig, parseArgs } from 'node:util';
import { BeeArgumentError, parseBeeTarget } from '../bee/preflight.js';
import type { DevNodeOptions } from '../bee/dev-node.js';
import { withDevNode } from '../bee/session.js';
import { parseSource, type ClientSource } from '../build/index.js';
import { defaultSpecPath } from '../build/paths.js';
import { renamedCaseNotes } from '../spec/aliases.js';
import { loadSpec } from '../spec/load.js';
import { closest } from '../spec/suggest.js';
import { MEASURES, MeasureSchema, type Measure } from '../spec/measure.js';
import { RunSizeSchema, RUNNERS, RunnerSchema, type Runner } from '../spec/schema.js';
import type { SelectionRequest } from '../shard/commands.js';
import { AB_DEFAULTS } from '../verdict/index.js';

/** A wrong command line: exit 2, with the command's help named. */
export class UsageError extends Error {}

export const options = {
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
  size: { type: 'string' },
  // The run size's former name: `profile` now means a function profile only (`bee-bench profile`, --profile-case).
  profile: { type: 'string' },
  case: { type: 'string', multiple: true },
  param: { type: 'string' },
  large: { type: 'boolean', default: false },
  'bee-url': { type: 'string' },
  'batch-id': { type: 'string' },
  bee: { type: 'string' },
  'bee-binary': { type: 'string' },
  'bee-port': { type: 'string' },
  'base-bee': { type: 'string' },
  'head-bee': { type: 'string' },
  'base-batch-id': { type: 'string' },
  'head-batch-id': { type: 'string' },
  port: { type: 'string' },
  rounds: { type: 'string' },
  alpha: { type: 'string' },
  threshold: { type: 'string' },
  'fail-on-regression': { type: 'boolean', default: false },
  'fail-on': { type: 'string', default: 'any' },
  measure: { type: 'string' },
  'instructions-floor': { type: 'string' },
  'allocations-floor': { type: 'string' },
  // The floors' former names (one fixed threshold per evidence before rows had their own).
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
  'profile-case': { type: 'string', multiple: true },
  marker: { type: 'string' },
  design: { type: 'string' },
  sizes: { type: 'string' },
  levels: { type: 'string' },
  strategies: { type: 'string' },
  node: { type: 'string', multiple: true },
  replicates: { type: 'string' },
  attempts: { type: 'string' },
  upload: { type: 'string' },
  endpoint: { type: 'string' },
  wait: { type: 'string' },
  ceiling: { type: 'string' },
  poll: { type: 'string' },
  timeout: { type: 'string' },
  seed: { type: 'string' },
  order: { type: 'string' },
  fallback: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} satisfies ParseArgsConfig['options'];

/** The parsed flags every command receives. */
export type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

/** A flag's name as typed after `--`. */
export type FlagName = keyof typeof options;

/** Flags kept under a former name: the former name means the same as the flag it maps to. */
export const FORMER_NAMES: Readonly<Partial<Record<FlagName, FlagName>>> = {
  profile: 'size',
  'instructions-threshold': 'instructions-floor',
  'allocations-threshold': 'allocations-floor',
};

/** The flags `common` reads: the spec, the run size, the cases, the node, the out and cache folders. */
export const COMMON_FLAGS = [
  'spec',
  'size',
  'profile',
  'case',
  'large',
  'bee-url',
  'batch-id',
  'bee',
  'bee-binary',
  'bee-port',
  'out',
  'cache',
] as const satisfies readonly FlagName[];
/** The flags `selectionOf` reads: the common ones, the runners and the measure. */
export const SELECTION_FLAGS = [...COMMON_FLAGS, 'runner', 'measure'] as const satisfies readonly FlagName[];
/** The flags `verdictOptions` reads. */
export const VERDICT_FLAGS = ['rounds', 'alpha', 'threshold'] as const satisfies readonly FlagName[];
/** The client sources `givenClient` reads, one per runner. */
export const CLIENT_FLAGS = ['js-client', 'go-client', 'rs-client'] as const satisfies readonly FlagName[];

export const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

export function num(v: string | undefined, name: string, fallback: number, check: (n: number) => boolean, hint: string): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} ${v}: ${hint}`);
  return n;
}

/**
 * A deterministic evidence's floor (--instructions-floor, --allocations-floor; the former
 * --instructions-threshold, --allocations-threshold mean the same): the smallest change any row
 * flags, a fraction of the base figure. A row's own threshold is the larger of it and ten A/A
 * spreads (src/verdict/steps.ts).
 */
export function changeFloor(v: Values, evidence: 'instructions' | 'allocations', fallback: number): number {
  const [name, former] = [`${evidence}-floor`, `${evidence}-threshold`] as const;
  if (v[name] !== undefined && v[former] !== undefined)
    throw new UsageError(`--${former} ${v[former]}: the former name of --${name}, which is given too (${v[name]}): keep --${name}`);
  const given = v[name] !== undefined ? name : former;
  return num(v[given], given, fallback, (n) => n > 0 && n < 10, 'a fraction, e.g. 0.005 for 0.5%');
}

export function source(text: string, flag: string): ClientSource {
  try {
    return parseSource(text);
  } catch (e) {
    throw new UsageError(`--${flag}: ${(e as Error).message}`);
  }
}

export function envPairs(list: string[] | undefined, flag: string): Record<string, string> {
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

/** The flags most commands share: spec, run size, cases, the node, out and cache folders. */
export function common(v: Values) {
  if (v.size !== undefined && v.profile !== undefined)
    throw new UsageError(`--profile ${v.profile}: the former name of --size, which is given too: keep --size`);
  const flag = v.profile !== undefined ? 'profile' : 'size';
  const size = RunSizeSchema.safeParse(v[flag] ?? 'quick');
  if (!size.success) throw new UsageError(`--${flag} ${v[flag]}: use quick or full (the run size)`);
  if (Boolean(v['bee-url']) !== Boolean(v['batch-id'])) throw new UsageError('--bee-url and --batch-id go together');
  const specFile = resolve(v.spec ?? defaultSpecPath());
  noteRenamedCases(specFile, v.case ?? []);
  return {
    devNode: devNodeOptions(v),
    specFile,
    size: size.data,
    cases: v.case ?? [],
    large: v.large,
    bee: v['bee-url'] ? beeTarget(v['bee-url'], v['batch-id']!) : undefined,
    outDir: resolve(v.out ?? 'out'),
    cacheDir: v.cache ? resolve(v.cache) : undefined,
    log,
  };
}

export type Common = ReturnType<typeof common>;

const noted = new Set<string>();

/** A --case naming a case by its former id works; say once per process which id it is now. */
function noteRenamedCases(specFile: string, cases: readonly string[]): void {
  if (cases.length === 0) return;
  let notes: string[];
  try {
    notes = renamedCaseNotes(loadSpec(specFile).spec, cases);
  } catch {
    return; // a spec that does not load is reported by the command that reads it, with the fix
  }
  for (const n of notes.filter((n) => !noted.has(n))) {
    noted.add(n);
    log(`note: ${n}`);
  }
}

/** Runs a job with the net cases' node: the given one, or a dev node started for it and always removed. */
export function withBee<T>(c: Common, job: (c: Common) => Promise<T>): Promise<T> {
  if (!c.devNode) return job(c);
  return withDevNode(c.devNode, (node) => job({ ...c, bee: { url: node.url, batchId: node.batchId } }));
}

export function measureOf(v: Values): Measure {
  const m = MeasureSchema.safeParse(v.measure ?? 'wall');
  if (!m.success) {
    // Did you mean, per item typed: `--measure wal` → wall.
    const wrong = (v.measure ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== 'both' && !(MEASURES as readonly string[]).includes(x));
    const near = wrong.map((x) => closest(x, [...MEASURES, 'both'])).filter((x): x is string => x !== undefined);
    const hint = near.length > 0 ? `; did you mean ${near.map((x) => `"${x}"`).join(', ')}?` : '';
    throw new UsageError(`--measure ${v.measure}: a comma list of ${MEASURES.join(', ')} (both = wall,instructions)${hint}`);
  }
  return m.data;
}

export function runnerList(v: Values): Runner[] {
  const list = (v.runner ?? []).flatMap((r) => r.split(','));
  for (const r of list) if (!RunnerSchema.safeParse(r).success) throw new UsageError(`--runner ${r}: use js, go or rs`);
  // A runner named twice runs once (--runner rs --runner rs, --runner rs,rs).
  return list.length ? ([...new Set(list)] as Runner[]) : [...RUNNERS];
}

export function oneRunner(v: Values, command: string): Runner {
  const runner = RunnerSchema.safeParse(v.runner?.[0]);
  if (!runner.success || (v.runner?.length ?? 0) !== 1) throw new UsageError(`${command} needs exactly one --runner js|go|rs`);
  return runner.data;
}

/** The client source a runner is built on: --R-client, BEE_GO_PATH for go, else the registry version. */
export function givenClient(v: Values, runner: Runner): string | undefined {
  return v[`${runner}-client`] ?? (runner === 'go' ? process.env.BEE_GO_PATH : undefined);
}

export function selectionOf(v: Values): SelectionRequest {
  const c = common(v);
  const m = measureOf(v);
  const evidences = [...m];
  return { specFile: c.specFile, runners: runnerList(v), size: c.size, cases: c.cases, large: c.large ?? false, evidences };
}

export function shardCount(v: Values): number {
  return num(v.shards, 'shards', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 256, 'a whole number from 1 to 256 (a GitHub matrix holds 256 jobs)');
}

/** --rounds, --alpha, --threshold of the A/B commands. */
export function verdictOptions(v: Values) {
  return {
    rounds: num(v.rounds, 'rounds', AB_DEFAULTS.rounds, (n) => Number.isInteger(n) && n >= 1 && n <= 200, 'a whole number from 1 to 200'),
    alpha: num(v.alpha, 'alpha', AB_DEFAULTS.alpha, (n) => n > 0 && n < 1, 'a probability between 0 and 1, e.g. 0.05'),
    threshold: num(v.threshold, 'threshold', AB_DEFAULTS.threshold, (n) => n >= 0 && n < 10, 'a fraction, e.g. 0.03 for 3%'),
  };
}
