// Command line (runners/README.md): `run`, `ops` (ops.mjs) and `info`, exit codes 0 (result written), 2 (bad
// arguments or plan, message on stderr naming the flag or field), anything else (harness broke).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { loadClient, locateClient, operation } from './client.mjs';
import { ALLOC_METHOD, rerunWithAllocFlags } from './alloc.mjs';
import { describeError, UsageError } from './errors.mjs';
import { createFixtureStore } from './fixtures.mjs';
import { callTimeoutS, runPlan } from './harness.mjs';
import { hostInfo, runtime } from './host.mjs';
import { parseModes } from './modes.mjs';
import { loadPlan, RUNNER } from './plan.mjs';
import { serveOps } from './ops.mjs';
import { newResult } from './result.mjs';

const USAGE = `usage:
  bee-bench-js run --plan FILE --out FILE [--fixtures DIR] [--bee-url URL --batch-id HEX]
  bee-bench-js ops --bee-url URL --batch-id HEX    (JSON lines on stdin and stdout)
  bee-bench-js info
(make the plan with: bee-bench plan --runner js [--profile P] [--case GLOB]... [--large])`;

/** The version check must not hold up the run: a frozen node still gets a result file. */
const VERSION_TIMEOUT_S = 10;

const RUN_FLAGS = ['--plan', '--out', '--fixtures', '--bee-url', '--batch-id'];
const OPS_FLAGS = ['--bee-url', '--batch-id'];
/** What the engine resolves now: a runner given them is being driven the old way. */
const SPEC_FLAGS = ['--spec', '--case', '--profile', '--large'];

/** Reads `--flag value` and `--flag=value` pairs of the given flags into an object keyed by name. */
function parseFlags(args, flags) {
  const opts = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].startsWith('--') && args[i].includes('=') ? args[i].split(/=(.*)/s, 2) : [args[i], undefined];
    if (flags === RUN_FLAGS && SPEC_FLAGS.includes(flag))
      throw new UsageError(`${flag} is not taken any more: pass --plan FILE, a plan made by bee-bench plan --runner js`);
    if (!flags.includes(flag)) throw new UsageError(`unknown ${args[i].startsWith('-') ? 'flag' : 'argument'} ${args[i]}`);
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
    const key = flag.slice(2);
    if (key in opts) throw new UsageError(`${flag} given twice`);
    opts[key] = value;
  }
  return opts;
}

/** Checks --bee-url and --batch-id (given together) and returns the node, or null without them. */
function parseNode(opts) {
  if (Boolean(opts['bee-url']) !== Boolean(opts['batch-id'])) {
    throw new UsageError(opts['bee-url'] ? '--bee-url needs --batch-id' : '--batch-id needs --bee-url');
  }
  if (!opts['bee-url']) return null;
  let url;
  try {
    url = new URL(opts['bee-url']);
  } catch {
    throw new UsageError(`--bee-url: not a URL: ${opts['bee-url']}`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new UsageError(`--bee-url: must be http(s), got ${url.protocol}`);
  const batchId = opts['batch-id'].replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(batchId)) throw new UsageError('--batch-id: must be 64 hex digits');
  return { url: opts['bee-url'].replace(/\/+$/, ''), batchId };
}

/** Parses `run` arguments: {plan, out, fixtures?, node}. */
export function parseRunArgs(args) {
  const opts = parseFlags(args, RUN_FLAGS);
  if (!opts.plan) throw new UsageError('--plan is required (make it with bee-bench plan --runner js)');
  if (!opts.out) throw new UsageError('--out is required');
  return { plan: opts.plan, out: opts.out, fixtures: opts.fixtures, node: parseNode(opts) };
}

/** Parses `ops` arguments: {node}; both flags are required. */
export function parseOpsArgs(args) {
  const opts = parseFlags(args, OPS_FLAGS);
  if (!opts['bee-url'] && !opts['batch-id']) throw new UsageError('ops needs --bee-url and --batch-id');
  return { node: /** @type {{url: string, batchId: string}} */ (parseNode(opts)) };
}

function info() {
  const { info: client } = locateClient();
  process.stdout.write(`${JSON.stringify({ runner: RUNNER, client, runtime: runtime(), host: hostInfo() }, null, 2)}\n`);
}

/** The node block of the result: its URL and version (GET /health through bee-js, bounded). */
async function beeInfo(node, callTimeoutS) {
  if (!node) return null;
  try {
    const { lib } = await loadClient();
    const timeout = Math.min(VERSION_TIMEOUT_S, callTimeoutS) * 1000;
    const health = await operation(new lib.Bee(node.url, { timeout }), 'getHealth')();
    return { url: node.url, version: String(health.version) };
  } catch (err) {
    process.stderr.write(`warning: cannot read the Bee node version from ${node.url}: ${describeError(err)}\n`);
    return { url: node.url, version: 'unknown' };
  }
}

/** Runs a plan; returns the exit code. */
async function run(args) {
  const opts = parseRunArgs(args);
  const modes = parseModes();
  const plan = loadPlan(opts.plan);
  if (modes.allocs) {
    const code = await rerunWithAllocFlags(modes.paceFd);
    if (code !== null) return code;
  }
  const { node } = opts;
  const tempFixtures = opts.fixtures ? null : mkdtempSync(join(os.tmpdir(), 'bee-bench-js-'));
  const { info: client } = locateClient();
  // The version check waits no longer than the shortest call budget of the plan.
  const bee = await beeInfo(node, Math.min(...plan.units.map((u) => callTimeoutS(u.timeout_s))));
  const result = newResult({ client, bee, specHash: plan.spec_hash, profile: plan.profile, host: hostInfo() });
  if (modes.allocs) result.alloc_counter = { method: ALLOC_METHOD };
  try {
    await runPlan(plan.units, result, resolve(opts.out), {
      modes,
      shared: createFixtureStore(plan.fixtures),
      node,
      fixturesDir: resolve(opts.fixtures ?? tempFixtures),
      cpus: hostInfo().cpus,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    if (tempFixtures) rmSync(tempFixtures, { recursive: true, force: true });
  }
  return 0;
}

/** Runs the CLI; returns the exit code. */
export async function main(argv) {
  const [command, ...args] = argv;
  try {
    if (command === 'run') return await run(args);
    if (command === 'ops') return await serveOps(await loadClient(), parseOpsArgs(args).node, (line) => process.stderr.write(`${line}\n`));
    if (command === 'info' && args.length === 0) info();
    else if (command === '--help' || command === '-h' || command === 'help') process.stdout.write(`${USAGE}\n`);
    else throw new UsageError(command === 'info' ? `info takes no arguments, got ${args.join(' ')}` : `unknown command ${JSON.stringify(command ?? '')}`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`bee-bench-js: ${err.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`bee-bench-js: harness error: ${err instanceof Error ? err.stack : err}\n`);
    return 1;
  }
}
