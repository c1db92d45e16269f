// Command line (runners/README.md): `run` and `info`, exit codes 0 (result written), 2 (bad
// arguments or spec, message on stderr naming the flag or field), anything else (harness broke).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { loadClient, locateClient, operation } from './client.mjs';
import { describeError, UsageError } from './errors.mjs';
import { createFixtureStore } from './fixtures.mjs';
import { runPlan } from './harness.mjs';
import { parseHooks } from './hooks.mjs';
import { hostInfo, runtime } from './host.mjs';
import { newResult } from './result.mjs';
import { loadSpec, plan, PROFILES, RUNNER } from './spec.mjs';

const USAGE = `usage:
  bee-bench-js run --spec FILE [--case GLOB]... [--profile quick|full] [--large]
                   [--fixtures DIR] [--bee-url URL --batch-id HEX] --out FILE
  bee-bench-js info`;

/** The version check must not hold up the run: a frozen node still gets a result file. */
const VERSION_TIMEOUT_S = 10;

/**
 * Each call to the node may wait half the case budget for an answer, so a frozen node fails the
 * case with "no answer in N s" (naming the call) before the case timeout cuts it off.
 */
const callTimeoutS = (caseTimeoutS) => caseTimeoutS / 2;

const FLAGS = {
  '--spec': 'value',
  '--case': 'list',
  '--profile': 'value',
  '--large': 'bool',
  '--fixtures': 'value',
  '--bee-url': 'value',
  '--batch-id': 'value',
  '--out': 'value',
};

/** Parses `run` arguments; `--flag value` and `--flag=value` are both accepted. */
export function parseRunArgs(args) {
  const opts = { case: [], large: false, profile: 'quick' };
  const given = new Set();
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].startsWith('--') && args[i].includes('=') ? args[i].split(/=(.*)/s, 2) : [args[i], undefined];
    const kind = FLAGS[flag];
    if (!kind) throw new UsageError(`unknown ${args[i].startsWith('-') ? 'flag' : 'argument'} ${args[i]}`);
    const key = flag.slice(2);
    if (kind === 'bool') {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      opts.large = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
    if (kind === 'list') opts[key].push(value);
    else if (given.has(flag)) throw new UsageError(`${flag} given twice`);
    else opts[key] = value;
    given.add(flag);
  }
  if (!opts.spec) throw new UsageError('--spec is required');
  if (!opts.out) throw new UsageError('--out is required');
  if (!PROFILES.includes(opts.profile)) throw new UsageError(`--profile must be ${PROFILES.join(' or ')}, got ${JSON.stringify(opts.profile)}`);
  if (Boolean(opts['bee-url']) !== Boolean(opts['batch-id'])) {
    throw new UsageError(opts['bee-url'] ? '--bee-url needs --batch-id' : '--batch-id needs --bee-url');
  }
  if (opts['bee-url']) {
    let url;
    try {
      url = new URL(opts['bee-url']);
    } catch {
      throw new UsageError(`--bee-url: not a URL: ${opts['bee-url']}`);
    }
    if (!['http:', 'https:'].includes(url.protocol)) throw new UsageError(`--bee-url: must be http(s), got ${url.protocol}`);
    opts['batch-id'] = opts['batch-id'].replace(/^0x/i, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(opts['batch-id'])) throw new UsageError('--batch-id: must be 64 hex digits');
  }
  return opts;
}

function info() {
  const { info: client } = locateClient();
  process.stdout.write(`${JSON.stringify({ runner: RUNNER, client, runtime: runtime(), host: hostInfo() }, null, 2)}\n`);
}

/** The node block of the result: its URL and version (GET /health through bee-js, bounded). */
async function beeInfo(node) {
  if (!node) return null;
  try {
    const { lib } = await loadClient();
    const timeout = Math.min(VERSION_TIMEOUT_S, node.callTimeoutS) * 1000;
    const health = await operation(new lib.Bee(node.url, { timeout }), 'getHealth')();
    return { url: node.url, version: String(health.version) };
  } catch (err) {
    process.stderr.write(`warning: cannot read the Bee node version from ${node.url}: ${describeError(err)}\n`);
    return { url: node.url, version: 'unknown' };
  }
}

async function run(args) {
  const opts = parseRunArgs(args);
  const hooks = parseHooks();
  const { spec, hash } = loadSpec(opts.spec);
  const items = plan(spec, { profile: opts.profile, caseGlobs: opts.case, large: opts.large });
  const timeoutS = hooks.caseTimeoutS ?? spec.profiles[opts.profile].case_timeout_s;
  const node = opts['bee-url'] ? { url: opts['bee-url'].replace(/\/+$/, ''), batchId: opts['batch-id'], callTimeoutS: callTimeoutS(timeoutS) } : null;
  const tempFixtures = opts.fixtures ? null : mkdtempSync(join(os.tmpdir(), 'bee-bench-js-'));
  const { info: client } = locateClient();
  const result = newResult({ client, bee: await beeInfo(node), specHash: hash, profile: opts.profile, host: hostInfo() });
  try {
    await runPlan(items, result, resolve(opts.out), {
      hooks,
      timeoutS,
      shared: createFixtureStore(spec.fixtures),
      node,
      fixturesDir: resolve(opts.fixtures ?? tempFixtures),
      cpus: hostInfo().cpus,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    if (tempFixtures) rmSync(tempFixtures, { recursive: true, force: true });
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv) {
  const [command, ...args] = argv;
  try {
    if (command === 'run') await run(args);
    else if (command === 'info' && args.length === 0) info();
    else if (command === '--help' || command === '-h' || command === 'help') process.stdout.write(`${USAGE}\n`);
    else throw new UsageError(command === 'info' ? `info takes no arguments, got ${args.join(' ')}` : `unknown command ${JSON.stringify(command ?? '')}`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`bee-bench-js: ${err.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`bee-bench-js: harness error: ${err?.stack ?? err}\n`);
    return 1;
  }
}
