// The nightly workflow: parsed with the yaml package and its scripts run by bash with a recording
// `node`, to check what GitHub would run: plan -> build per client -> shard matrix -> merge ->
// publish, only publish writing; the Bee comes from `bee-bench run --shard … --bee dev` (no service
// container), whose docker invocation is recorded by the fake docker CLI in argv form; inputs and
// the token reach the scripts only through env:, and the token never on a command line.
// test/shard/nightly.test.ts runs the same commands for real.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BEE_IMAGE } from '../../src/bee/docker.js';
import { parsePublishBundle } from '../../src/action/publish-bundle.js';
import { smallResult } from '../history/helpers.js';
import { fakeDocker } from '../bee/fakes.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const text = readFileSync(join(ROOT, '.github', 'workflows', 'nightly.yml'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  if?: string;
  id?: string;
}
interface Job {
  'runs-on': string;
  services?: unknown;
  steps: Step[];
  permissions?: Record<string, string>;
  needs?: string | string[];
}
const wf = parse(text) as { jobs: Record<string, Job>; permissions?: unknown };
const jobs = Object.values(wf.jobs);
const steps = jobs.flatMap((j) => j.steps);
const runStep = (needle: string) => {
  const s = steps.find((st) => st.run?.includes(needle));
  if (!s) throw new Error(`no step runs ${needle}`);
  return s;
};

/** Runs a step's script under bash -e (as GitHub does) with `node` replaced by a recorder of argv and env. */
function runScript(step: Step, env: Record<string, string>): { argv: string[]; env: Record<string, string>; stdout: string; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'bee-bench-nightly-'));
  const bin = join(cwd, 'bin');
  mkdirSync(bin);
  // Files named like the globs: an unquoted, unguarded glob would expand to them.
  for (const f of ['cpu.x', 'net.bzz.x']) writeFileSync(join(cwd, f), '');
  writeFileSync(join(bin, 'node'), `#!/bin/sh\nprintf '%s\\0' "$@" > "${cwd}/argv"\nenv -0 > "${cwd}/env"\n`);
  chmodSync(join(bin, 'node'), 0o755);
  const stdout = execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'bee-bench/bee-bench',
      GITHUB_STEP_SUMMARY: join(cwd, 'summary'),
      GITHUB_OUTPUT: join(cwd, 'output'),
      ...env,
    },
  });
  const split = (f: string) => readFileSync(join(cwd, f), 'utf8').split('\0').slice(0, -1);
  return { argv: split('argv'), env: Object.fromEntries(split('env').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])), stdout, cwd };
}

describe('nightly workflow', () => {
  it('has no service container and no --entrypoint: the CLI starts the Bee', () => {
    for (const j of jobs) expect(j.services).toBeUndefined();
    expect(JSON.stringify(wf)).not.toMatch(/--entrypoint/);
  });

  it('plans shards, builds each client once, runs the matrix on the prebuilt runners, merges', () => {
    expect(Object.keys(wf.jobs)).toEqual(['plan', 'build', 'shard', 'merge', 'publish']);
    const plan = runScript(runStep('dist/cli.js plan'), { PROFILE: 'full', CASES: '*', SHARDS: '8', MEASURE: 'wall,instructions,allocations' });
    expect(plan.argv.slice(0, 4)).toEqual(['dist/cli.js', 'plan', '--shards', '8']);
    expect(plan.argv[plan.argv.indexOf('--assignment') + 1]).toBe('shards.json');
    const build = runScript(runStep('dist/cli.js build'), { RUNNER: 'go', CLIENT: 'bee-go' });
    expect(build.argv).toEqual(['dist/cli.js', 'build', '--runner', 'go', '--go-client', 'clients/bee-go', '--cache', 'builds']);
    const shard = wf.jobs.shard! as Job & { strategy: { matrix: string; 'fail-fast': boolean } };
    expect(shard.strategy).toEqual({ 'fail-fast': false, matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}' });
    const { argv } = runScript(runStep('dist/cli.js run'), { SHARD: '3/8', INDEX: '3', PROFILE: 'full', CASES: '*', MEASURE: 'wall,instructions,allocations' });
    expect(argv.slice(0, 4)).toEqual(['dist/cli.js', 'run', '--shard', '3/8']);
    // Every client of a wall-time case on one machine; the build job's runners, never a rebuild.
    expect(argv[argv.indexOf('--runner') + 1]).toBe('js,go,rs');
    expect(argv).toEqual(expect.arrayContaining(['--prebuilt', '--assignment', 'shards.json', '--out', 'shard-3']));
    expect(argv[argv.indexOf('--cache') + 1]).toBe('builds');
    expect(steps.filter((s) => s.uses?.startsWith('actions/cache@'))).toEqual([]);
    expect(runScript(runStep('dist/cli.js merge'), {}).argv.slice(0, 4)).toEqual(['dist/cli.js', 'merge', '--out', 'out']);
  });

  it('no job that checks out a client or runs client code can write; the publish job runs none', () => {
    const writes = (j: Job) =>
      Object.entries(j.permissions ?? {})
        .filter(([, v]) => v === 'write')
        .map(([k]) => k);
    expect(wf.permissions).toEqual({});
    for (const [name, j] of Object.entries(wf.jobs)) {
      const clientCode = j.steps.some(
        (st) => (st.uses?.startsWith('actions/checkout@') && st.with?.repository) || /npm ci|dist\/cli\.js run/.test(st.run ?? ''),
      );
      if (clientCode) expect(writes(j), name).toEqual([]);
    }
    const publish = wf.jobs.publish!;
    expect(writes(publish)).toEqual(['contents']);
    expect(publish.needs).toBe('merge');
    // It checks out only this repository, runs no script, restores no cache, and publishes through the action.
    expect(publish.steps.filter((st) => st.run)).toEqual([]);
    expect(publish.steps.filter((st) => st.uses?.startsWith('actions/cache@'))).toEqual([]);
    expect(publish.steps.filter((st) => st.uses?.startsWith('actions/checkout@')).map((st) => st.with?.repository)).toEqual([undefined]);
    // It reads exactly the merge job's upload, by id, and only when there is one; the shards' artifacts are not bee-bench-*.
    expect(publish.steps.find((st) => st.uses?.startsWith('./'))?.with).toEqual({
      mode: 'publish',
      'artifact-id': '${{ needs.merge.outputs.artifact-id }}',
      history: 'gh-pages',
    });
    expect((publish as unknown as { if: string }).if).toMatch(/needs\.merge\.outputs\.artifact-id != ''$/);
    const merge = wf.jobs.merge! as Job & { outputs: Record<string, string> };
    expect(merge.outputs['artifact-id']).toBe('${{ steps.bundle.outputs.artifact-id }}');
    expect(merge.steps.find((st) => st.id === 'bundle')?.with).toMatchObject({ name: 'bee-bench-nightly', overwrite: true });
    const uploads = jobs.flatMap((j) => j.steps).filter((st) => st.uses?.startsWith('actions/upload-artifact@'));
    expect(uploads.map((st) => String(st.with?.name)).filter((n) => n.startsWith('bee-bench-'))).toEqual(['bee-bench-nightly']);
  });

  it('hands the records on as data: publish.json and the results in the bee-bench-nightly artifact', () => {
    const upload = wf.jobs.merge!.steps.find((st) => st.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with).toMatchObject({ name: 'bee-bench-nightly', path: 'out' });
    expect(runStep('scripts/publish-bundle.mjs').run).toContain('node scripts/publish-bundle.mjs out/results out/publish.json');
    // The script's bundle is one the publish job accepts, naming this checkout's commit.
    const repo = mkdtempSync(join(tmpdir(), 'bee-bench-bundle-'));
    const g = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...a], { cwd: repo, encoding: 'utf8' }).trim();
    g('init', '-q');
    g('commit', '-q', '--allow-empty', '-m', 'nightly commit');
    mkdirSync(join(repo, 'results'));
    for (const r of ['js', 'go', 'rs'] as const) writeFileSync(join(repo, 'results', `${r}.json`), JSON.stringify(smallResult(r, 2)));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'publish-bundle.mjs'), 'results', 'publish.json'], {
      cwd: repo,
      env: { ...process.env, GITHUB_EVENT_NAME: 'schedule', GITHUB_REF_NAME: 'main' },
    });
    const bundle = parsePublishBundle(readFileSync(join(repo, 'publish.json')));
    expect(bundle.head_sha).toBe(g('rev-parse', 'HEAD'));
    expect(bundle.commit.message).toBe('nightly commit');
    expect(bundle.results.map((r) => r.runner)).toEqual(['go', 'js', 'rs']);
  });

  it('passes inputs to scripts only through env:, never as ${{ }} inside a script', () => {
    for (const s of steps.filter((st) => st.run)) expect(s.run, s.name ?? s.run).not.toContain('${{');
    const bench = runStep('dist/cli.js run');
    expect(bench.env).toMatchObject({ SHARD: '${{ matrix.shard }}', PROFILE: "${{ inputs.profile || 'full' }}", CASES: "${{ inputs.cases || '*' }}" });
    expect(runStep('dist/cli.js plan').env).toMatchObject({ SHARDS: "${{ inputs.shards || '16' }}", CASES: "${{ inputs.cases || '*' }}" });
    // Globs arrive as separate --case arguments, unexpanded; a hostile input stays one argument.
    const { argv } = runScript(bench, { SHARD: '1/1', INDEX: '1', PROFILE: 'quick', CASES: 'cpu.* net.bzz.*' });
    expect(argv).toEqual(expect.arrayContaining(['--size', 'quick']));
    expect(argv.filter((_, i) => argv[i - 1] === '--case')).toEqual(['cpu.*', 'net.bzz.*']);
    const hostile = runScript(bench, { SHARD: '1/1', INDEX: '1', PROFILE: '"; touch pwned; "', CASES: '$(touch pwned2)' });
    expect(hostile.argv[hostile.argv.indexOf('--size') + 1]).toBe('"; touch pwned; "');
    expect(hostile.argv.filter((_, i) => hostile.argv[i - 1] === '--case')).toEqual(['$(touch', 'pwned2)']);
    expect(existsSync(join(hostile.cwd, 'pwned'))).toBe(false);
    expect(existsSync(join(hostile.cwd, 'pwned2'))).toBe(false);
  });

  it('starts the Bee with docker run in argv form, on loopback, and removes it', () => {
    // The plan and shard steps' own command lines, run through the CLI with a fake docker on PATH.
    // The client checkouts are empty and no build was downloaded, so the prebuilt-only shard finds
    // no runner: every runner fails, and the node must be removed all the same.
    const env = { SHARD: '1/1', INDEX: '1', SHARDS: '1', PROFILE: 'quick', CASES: 'net.bytes.upload', MEASURE: 'wall' };
    const plan = runScript(runStep('dist/cli.js plan'), env);
    const { argv, cwd } = runScript(runStep('dist/cli.js run'), env);
    const cli = (args: string[], extra: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', 'cli.ts'), ...args.slice(1)], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, ...extra },
      });
    expect(cli(plan.argv).status).toBe(0);
    for (const c of ['bee-js', 'bee-go', 'bee-rs']) mkdirSync(join(cwd, 'clients', c), { recursive: true });
    const d = fakeDocker();
    const r = cli(argv, { PATH: `${d.dir}:${process.env.PATH}` });
    expect(r.stderr).toMatch(/bee: dev node 2\.8\.0-fake at http:\/\/127\.0\.0\.1:[0-9]+/);
    const [run, rm] = d.dockerCalls();
    const image = run!.indexOf(BEE_IMAGE);
    expect(run!.slice(0, 2)).toEqual(['run', '-d']);
    expect(run!.slice(image + 1)).toEqual(['dev', '--api-addr=:1633']);
    expect(run![run!.indexOf('--publish') + 1]).toMatch(/^127\.0\.0\.1:[0-9]+:1633$/);
    for (const word of run!) expect(word).not.toMatch(/\s/);
    expect(rm).toEqual(['rm', '--force', run![run!.indexOf('--name') + 1]]);
    expect(r.stderr).toMatch(/build:[\s\S]*bee: removed container/);
  });
});
