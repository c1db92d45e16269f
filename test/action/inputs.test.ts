// Inputs: defaults, client detection, and bad inputs failing with a message that names the input
// and the fix — both through readInputs and through the bundled action as the runner starts it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cargoPackageName, detectClients } from '../../src/action/detect.js';
import { ActionInputError, INPUT_DEFAULTS, INPUT_NAMES, readInputs, splitCases, type InputName } from '../../src/action/inputs.js';
import { AB_DEFAULTS } from '../../src/verdict/index.js';
import { GitHubApiServer } from '../github/api-server.js';
import { pullRequestEvent, pushEvent } from './events.js';
import { ROOT, runAction, tmp } from './harness.js';

const dir = tmp('inputs');
const clients = {
  js: join(dir, 'bee-js'),
  go: join(dir, 'bee-go'),
  rs: join(dir, 'bee-rs'),
  none: join(dir, 'other'),
};
mkdirSync(clients.js, { recursive: true });
writeFileSync(join(clients.js, 'package.json'), JSON.stringify({ name: '@ethersphere/bee-js', version: '10.0.0' }));
mkdirSync(clients.go, { recursive: true });
writeFileSync(join(clients.go, 'go.mod'), 'module github.com/ethswarm-tools/bee-go\n\ngo 1.22\n');
mkdirSync(clients.rs, { recursive: true });
writeFileSync(
  join(clients.rs, 'Cargo.toml'),
  '[workspace]\n\n[package]\n# the client\nname = "bee-rs"\nversion = "1.7.0"\n\n[dependencies]\nname = "not-this"\n',
);
mkdirSync(clients.none, { recursive: true });
writeFileSync(join(clients.none, 'package.json'), JSON.stringify({ name: 'left-pad' }));

const read = (inputs: Partial<Record<InputName, string>>, workspace = clients.rs) => readInputs((n) => inputs[n] ?? '', { workspace });
const problemOf = (inputs: Partial<Record<InputName, string>>, workspace?: string): string => {
  try {
    read(inputs, workspace);
  } catch (e) {
    expect(e).toBeInstanceOf(ActionInputError);
    return (e as Error).message;
  }
  throw new Error('expected an input error');
};

describe('readInputs', () => {
  it('applies the defaults (AB_DEFAULTS for the verdict)', () => {
    const i = read({ 'github-token': 't' });
    expect(i).toMatchObject({
      mode: 'run',
      client: 'rs',
      clientDetected: true,
      path: clients.rs,
      cases: ['cpu.*'],
      profile: 'quick',
      rounds: AB_DEFAULTS.rounds,
      alpha: AB_DEFAULTS.alpha,
      threshold: AB_DEFAULTS.threshold,
      compareClients: false,
      comment: 'always',
      failOnRegression: false,
      token: 't',
      history: 'off',
    });
    expect(i.bee).toBeUndefined();
  });

  it('detects each client from its checkout, and an explicit client wins', () => {
    expect(detectClients(clients.js)).toEqual(['js']);
    expect(detectClients(clients.go)).toEqual(['go']);
    expect(detectClients(clients.rs)).toEqual(['rs']);
    expect(detectClients(clients.none)).toEqual([]);
    expect(read({}, clients.go).client).toBe('go');
    expect(read({ client: 'js' }, clients.rs)).toMatchObject({ client: 'js', clientDetected: false });
    expect(cargoPackageName("[package]\nname = 'bee-rs'\n")).toBe('bee-rs');
    expect(cargoPackageName('[dependencies]\nname = "bee-rs"\n')).toBeUndefined();
  });

  it('splits cases on commas and newlines', () => {
    expect(splitCases('cpu.bmt.*, cpu.keccak.chunk-hash\n\n  net.bzz.*\n')).toEqual(['cpu.bmt.*', 'cpu.keccak.chunk-hash', 'net.bzz.*']);
    expect(read({ cases: 'cpu.bmt.*\ncpu.ecdsa.*' }).cases).toEqual(['cpu.bmt.*', 'cpu.ecdsa.*']);
  });

  it('takes alert: issue with the history, and mode bisect with its good ref (the client detected as for a run)', () => {
    expect(read({}).alert).toBe('off');
    expect(read({ alert: 'issue', history: 'gh-pages' })).toMatchObject({ alert: 'issue', history: 'gh-pages' });
    expect(read({ mode: 'bisect', 'base-ref': 'v1.7.0', cases: 'cpu.bmt.file-root' })).toMatchObject({
      mode: 'bisect',
      client: 'rs',
      baseRef: 'v1.7.0',
      cases: ['cpu.bmt.file-root'],
    });
  });

  it('takes bee-url with batch-id', () => {
    const id = 'AB'.repeat(32);
    expect(read({ 'bee-url': 'http://localhost:1633', 'batch-id': `0x${id}` }).bee).toEqual({ url: 'http://localhost:1633', batchId: id.toLowerCase() });
  });

  it.each<[string, Partial<Record<InputName, string>>, RegExp]>([
    ['an unknown client', { client: 'python' }, /input "client": "python": expected js, go or rs \(fix: use js, go or rs/],
    ['an undetectable checkout', { path: '../other' }, /input "client": cannot detect the client in .*other.*\(fix: set client/],
    ['a missing path', { path: 'nowhere' }, /input "path": "nowhere" is not a folder/],
    ['a case glob matching nothing', { cases: 'cpu.nope.*' }, /input "cases": case glob "cpu.nope.\*" matches no case/],
    ['an empty case selection', { cases: ' , \n ' }, /input "cases": the selection is empty/],
    ['alpha above 1', { alpha: '2' }, /input "alpha": "2": expected a probability between 0 and 1 \(fix: a false-discovery level such as 0.02\)/],
    ['alpha that is not a number', { alpha: 'five percent' }, /input "alpha"/],
    ['fractional rounds', { rounds: '2.5' }, /input "rounds": "2.5": expected a whole number from 1 to 200/],
    ['a negative threshold', { threshold: '-0.1' }, /input "threshold"/],
    ['an unknown profile', { profile: 'slow' }, /input "profile": "slow": expected quick or full/],
    ['an unknown comment policy', { comment: 'sometimes' }, /input "comment": "sometimes": expected always, on-change or never/],
    ['a non-boolean flag', { 'fail-on-regression': 'yes please' }, /input "fail-on-regression": .*expected true or false/],
    ['an unknown history store', { history: 'gist' }, /input "history": "gist": expected off or gh-pages \(fix: gh-pages/],
    ['a history baseline without the history', { baseline: 'history' }, /input "baseline": history needs the history store \(fix: set history: gh-pages/],
    ['a history folder that climbs out', { 'history-folder': '../x' }, /input "history-folder"/],
    ['an unknown mode', { mode: 'post' }, /input "mode": "post": expected run, publish, comment, bisect or experiment/],
    ['an experiment without its client', { mode: 'experiment', path: 'nowhere' }, /input "client": mode experiment needs the client that drives it/],
    [
      'an experiment design that is not there',
      { mode: 'experiment', client: 'js', 'experiment-design': 'nope.json' },
      /input "experiment-design": .*nope\.json does not exist/,
    ],
    ['an experiment folder that climbs out', { mode: 'experiment', client: 'js', 'experiment-out': '../x' }, /input "experiment-out"/],
    [
      'an unknown experiment command',
      { mode: 'experiment', client: 'js', 'experiment-command': 'analyse' },
      /input "experiment-command": "analyse": expected run, upload, wait, download or report/,
    ],
    ['an unknown alert', { alert: 'email', history: 'gh-pages' }, /input "alert": "email": expected off or issue/],
    [
      'alerts without the history',
      { alert: 'issue' },
      /input "alert": issue judges each run against the branch's history, which is off \(fix: set history: gh-pages/,
    ],
    ['bisect without a good ref', { mode: 'bisect' }, /input "base-ref": mode bisect needs the good ref/],
    ['bee-url without batch-id', { 'bee-url': 'http://localhost:1633' }, /input "batch-id": bee-url and batch-id go together/],
    ['a short batch id', { 'bee-url': 'http://localhost:1633', 'batch-id': 'abc' }, /input "batch-id": "abc": expected a 64-digit hex postage batch id/],
    ['a non-http bee-url', { 'bee-url': 'ftp://x', 'batch-id': 'a'.repeat(64) }, /input "bee-url"/],
    ['a ref that looks like an option', { 'base-ref': '--upload-pack=evil' }, /input "base-ref"/],
    ['a go-client-path that is not bee-go', { 'go-client-path': '../bee-js' }, /input "go-client-path": .*is not a bee-go checkout/],
  ])('rejects %s, naming the input', (_what, inputs, message) => {
    expect(problemOf(inputs)).toMatch(message);
  });

  it('mode experiment needs no checkout: the client names the runner, the run folder is in the workspace', () => {
    const i = read({ mode: 'experiment', client: 'js', path: 'nowhere', 'experiment-command': 'download' });
    expect(i.experiment).toEqual({ command: 'download', out: join(clients.rs, 'bee-bench-experiment') });
    expect(i.client).toBe('js');
  });

  it('takes the count and allocation floors, 0.5% by default, and the former threshold names as theirs', () => {
    expect(read({})).toMatchObject({ thresholds: { instructions: 0.005, allocations: 0.005 } });
    expect(read({ 'instructions-floor': '0.002', 'allocations-floor': '0.01' })).toMatchObject({ thresholds: { instructions: 0.002, allocations: 0.01 } });
    // A workflow written for the fixed threshold keeps working; the runner fills in the default floor beside it.
    expect(read({ 'instructions-threshold': '0.01', 'instructions-floor': '0.005' })).toMatchObject({ thresholds: { instructions: 0.01 } });
    expect(read({ 'allocations-threshold': '0.02' })).toMatchObject({ thresholds: { allocations: 0.02 } });
    expect(problemOf({ 'instructions-threshold': '0.01', 'instructions-floor': '0.002' })).toMatch(
      /input "instructions-threshold": the former name of instructions-floor, which is set too \(fix: keep instructions-floor/,
    );
    expect(problemOf({ 'instructions-floor': '0' })).toMatch(/input "instructions-floor": "0": expected a fraction above 0/);
    expect(problemOf({ 'allocations-threshold': 'half' })).toMatch(/input "allocations-threshold"/);
  });

  it('reports every bad input at once', () => {
    const msg = problemOf({ client: 'python', alpha: '7', history: 'on' });
    expect(msg.split('\n').map((l) => /^input "([^"]+)"/.exec(l)?.[1])).toEqual(['client', 'alpha', 'history']);
  });
});

describe('input bee', () => {
  it('is url by default (the node in bee-url, or none) and dev starts one on Linux', () => {
    expect(read({}).beeSource).toBe('url');
    expect(read({ bee: 'dev' }, clients.rs)).toMatchObject({ beeSource: 'dev' });
    expect(read({ bee: 'dev' }).bee).toBeUndefined();
  });

  it('rejects an unknown value, dev together with bee-url, and dev off Linux, naming the fix', () => {
    expect(problemOf({ bee: 'docker' })).toMatch(/input "bee": "docker": expected dev or url \(fix: dev \(start a Bee 2\.8\.0 dev node in Docker/);
    expect(problemOf({ bee: 'dev', 'bee-url': 'http://127.0.0.1:1633', 'batch-id': 'a'.repeat(64) })).toMatch(
      /input "bee": dev starts its own node and batch.*fix: drop bee-url and batch-id/,
    );
    expect(() => readInputs((n) => (n === 'bee' ? 'dev' : ''), { workspace: clients.rs, platform: 'darwin' })).toThrow(
      /input "bee": dev needs Docker on a Linux runner, and this one runs darwin/,
    );
  });
});

describe('readInputs: the node A/B (base-bee, head-bee)', () => {
  const bee = join(clients.rs, 'bee');
  writeFileSync(bee, '#!/bin/sh\n');

  it('takes a Bee executable in the workspace or a node URL with its batch per side', () => {
    expect(read({ 'base-bee': 'bee', 'head-bee': 'http://127.0.0.1:1633/', 'head-batch-id': '0x' + 'AB'.repeat(32) }).nodeAb).toEqual({
      base: { kind: 'binary', path: bee },
      head: { kind: 'url', target: { url: 'http://127.0.0.1:1633', batchId: 'ab'.repeat(32) } },
    });
    expect(read({}).nodeAb).toBeUndefined();
  });

  it('names the input and the fix for a missing side, a missing file, a URL without its batch, and bee-url set too', () => {
    expect(problemOf({ 'base-bee': 'bee' })).toMatch(/input "head-bee": a node A\/B needs both base-bee and head-bee/);
    expect(problemOf({ 'base-bee': 'nope', 'head-bee': 'bee' })).toMatch(/input "base-bee": base-bee nope: no such file \(.*nope\); give a Bee executable/);
    expect(problemOf({ 'base-bee': 'bee', 'head-bee': 'http://127.0.0.1:1633' })).toMatch(
      /input "head-bee": head-bee http:\/\/127\.0\.0\.1:1633: a running node needs its postage batch: give head-batch-id/,
    );
    expect(problemOf({ 'base-bee': 'bee', 'head-bee': 'bee', 'base-batch-id': 'ab'.repeat(32) })).toMatch(
      /base-batch-id: base-bee starts a dev node that buys its own batch/,
    );
    expect(problemOf({ 'base-bee': 'bee', 'head-bee': 'bee', 'bee-url': 'http://127.0.0.1:1633', 'batch-id': 'ab'.repeat(32) })).toMatch(
      /input "base-bee": base-bee and head-bee are the nodes of a node A\/B, but bee: dev or bee-url is set too/,
    );
  });
});

describe('action.yml and docs/action.md', () => {
  const yml = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    runs: { using: string; main: string; post?: string };
    branding: unknown;
    inputs: Record<string, { default?: string; description: string }>;
    outputs: Record<string, unknown>;
  };
  const docs = readFileSync(join(ROOT, 'docs', 'action.md'), 'utf8');

  it("runs dist/index.js on node24 with branding, and dist/post.js after it (the dev node's clean-up)", () => {
    expect(yml.runs).toEqual({ using: 'node24', main: 'dist/index.js', post: 'dist/post.js' });
    expect(yml.branding).toBeTruthy();
  });

  it('declares exactly the inputs the code reads, with the same defaults', () => {
    expect(Object.keys(yml.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    for (const name of INPUT_NAMES) expect(String(yml.inputs[name]!.default ?? ''), name).toBe(INPUT_DEFAULTS[name]);
  });

  it('declares the outputs', () => {
    expect(Object.keys(yml.outputs).sort()).toEqual([
      'artifact-id',
      'comment-url',
      'failed',
      'improvements',
      'missing',
      'regressions',
      'report-path',
      'results-path',
    ]);
  });

  it('documents every input with its default and every output', () => {
    for (const name of INPUT_NAMES) {
      const row = docs.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
      expect(row, `docs/action.md has no row for ${name}`).toBeDefined();
      const shown = INPUT_DEFAULTS[name] === '' ? '(empty)' : `\`${INPUT_DEFAULTS[name]}\``;
      expect(row, name).toContain(shown);
    }
    for (const name of Object.keys(yml.outputs)) expect(docs).toContain(`| \`${name}\` |`);
  });
});

describe('the bundled action rejects bad inputs before any work', () => {
  const temp = join(dir, 'runner-temp');
  let server: GitHubApiServer;
  let api: string;
  beforeAll(async () => {
    server = new GitHubApiServer({ owner: 'ethswarm-tools', repo: 'bee-rs', tokens: { write: ['ghs_write'] } });
    api = await server.start();
  });
  afterAll(async () => {
    expect(server.requests).toEqual([]);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sha = 'a'.repeat(40);
  const pr = pullRequestEvent({ repo: 'ethswarm-tools/bee-rs', number: 3, base: { ref: 'main', sha }, head: { ref: 'x', sha: 'b'.repeat(40) } });
  const run = (eventName: string, payload: unknown, inputs: Record<string, string>, workspace = clients.rs) =>
    runAction({ inputs, eventName, payload, workspace, temp, repository: 'ethswarm-tools/bee-rs', apiUrl: api });

  it.each<[string, string, unknown, Record<string, string>, RegExp]>([
    [
      'an unknown client',
      'push',
      pushEvent('ethswarm-tools/bee-rs', 'refs/heads/main', sha, sha),
      { client: 'ruby', 'github-token': 'ghs_write' },
      /input "client": "ruby"/,
    ],
    [
      'a case selection matching nothing',
      'push',
      pushEvent('ethswarm-tools/bee-rs', 'refs/heads/main', sha, sha),
      { cases: 'gpu.*', 'github-token': 'ghs_write' },
      /input "cases": case glob "gpu.\*"/,
    ],
    ['a bad alpha', 'pull_request', pr, { alpha: '0', 'github-token': 'ghs_write' }, /input "alpha": "0"/],
    [
      'history',
      'push',
      pushEvent('ethswarm-tools/bee-rs', 'refs/heads/main', sha, sha),
      { history: 'on', 'github-token': 'ghs_write' },
      /input "history": .*expected off or gh-pages/,
    ],
    [
      'mode publish without a token',
      'pull_request',
      pr,
      { mode: 'publish', 'github-token': '' },
      /input "github-token": empty, but mode: publish reads artifacts/,
    ],
  ])('%s', async (_what, eventName, payload, inputs, message) => {
    const r = await run(eventName, payload, inputs);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const error = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
    expect(decodeURIComponent(error ?? '')).toMatch(message);
    expect(r.outputs).toEqual({});
  });

  it('refuses pull_request_target (it would build PR code with a write token)', async () => {
    const r = await run('pull_request_target', pr, { 'github-token': 'ghs_write' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::pull_request_target runs with a write token/);
  });
});
