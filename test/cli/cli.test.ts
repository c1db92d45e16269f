// The local CLI end to end on real parts: result files from the JS runner, a local bare repository
// as the history remote, git for the commit context.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { HistoryIndexSchemaLike } from './index-shape.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-cli-'));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { encoding: 'utf8' }).trim();

const cli = runCli;

describe('bee-bench CLI', () => {
  const work = tmp();
  const results = join(work, 'results');
  beforeAll(() => {
    mkdirSync(results);
    const plan = join(work, 'plan.json');
    writeFileSync(
      plan,
      execFileSync(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'plan', '--runner', 'js', '--case', 'cpu.keccak.chunk-hash', '--case', 'cpu.identity.create'],
        { env: { ...process.env, BEE_BENCH_ITERS: '2' } },
      ),
    );
    execFileSync(process.execPath, ['runners/js/bin/bee-bench-js.mjs', 'run', '--plan', plan, '--out', join(results, 'js.json')], { stdio: 'ignore' });
  });

  it('reports usage errors with exit 2 and names the flag', async () => {
    expect((await cli(['ab', '--runner', 'js', '--base', 'registry'])).stderr).toMatch(/--head/);
    expect((await cli(['ab', '--runner', 'js', '--base', 'registry', '--head', 'registry', '--alpha', '2'])).code).toBe(2);
    expect((await cli(['run', '--case', 'cpu.nothing.*'])).stderr).toMatch(/matches no case/);
    expect((await cli(['history', 'publish', results])).stderr).toMatch(/--remote/);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('writes the aggregate report from result files', async () => {
    const out = join(work, 'report');
    const r = await cli(['report', '--out', out, results]);
    expect(r.code).toBe(0);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('cpu.identity.create');
    expect(readFileSync(join(out, 'report.csv'), 'utf8').split('\n')[0]).toMatch(/^runner,/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });

  it('rejects a malformed result file naming the file and field', async () => {
    const bad = join(work, 'bad');
    mkdirSync(bad);
    const r = JSON.parse(readFileSync(join(results, 'js.json'), 'utf8'));
    r.cases[0].samples_ns = 'fast';
    writeFileSync(join(bad, 'js.json'), JSON.stringify(r));
    const out = await cli(['report', '--out', join(work, 'r2'), bad]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/js\.json: cases\[0\]\.samples_ns/);
  });

  it('publishes results to a history branch and exports them for github-action-benchmark', async () => {
    const remote = join(work, 'remote.git');
    execFileSync('git', ['init', '--bare', '-q', remote]);
    const repo = join(work, 'client');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'x.txt'), 'x');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'measure <b>this</b>');
    const r = await cli(['history', 'publish', '--remote', remote, '--repo', repo, '--workdir', join(work, 'wd'), '--run-id', '42', results]);
    expect(r.code, r.stderr).toBe(0);
    const files = git(remote, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n');
    expect(files).toEqual(expect.arrayContaining(['bench/index.json', 'bench/index.html', 'bench/app.js']));
    const record = files.find((f) => f.startsWith('bench/runs/') && f.endsWith('-js-42.json'))!;
    expect(JSON.parse(git(remote, 'show', `gh-pages:${record}`)).commit.message).toBe('measure <b>this</b>');
    const index = HistoryIndexSchemaLike.parse(JSON.parse(git(remote, 'show', 'gh-pages:bench/index.json')));
    expect(index.cases.map((c) => c.id)).toEqual(['cpu.identity.create', 'cpu.keccak.chunk-hash']);

    const gab = await cli(['history', 'export-gab', join(results, 'js.json')]);
    const benches = JSON.parse(gab.stdout) as Array<{ name: string; unit: string; value: number }>;
    expect(benches.length).toBe(2);
    expect(benches.every((b) => b.unit === 'ns' && b.value > 0)).toBe(true);
  });
});
