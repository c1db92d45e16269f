// `bee-bench history publish` as a user runs it: its own process, a local bare remote, a client
// checkout made with git.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitUrl } from '../../src/history/publish.js';
import { bareRemote, git, removeAll, runCli, show, lsTree, smallResult, tempDir } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function checkout(): Promise<{ repo: string; sha: string }> {
  const repo = tempDir('client', dirs);
  await git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'x.txt'), 'x');
  await git(repo, 'add', '.');
  await git(repo, 'commit', '-q', '-m', 'measure this');
  return { repo, sha: (await git(repo, 'rev-parse', 'HEAD')).trim() };
}

function resultsDir(): string {
  const d = join(tempDir('results', dirs), 'out');
  mkdirSync(d);
  writeFileSync(join(d, 'js.json'), JSON.stringify(smallResult('js', 3)));
  return d;
}

describe('history publish (CLI)', () => {
  it('--help lists --workdir and the commit link flags', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/history publish[\s\S]*--workdir DIR/);
    expect(help.stdout).toMatch(/--commit-url URL \| --repo-url URL/);
  });

  it('stores the commit URL derived from --repo-url, so the site links the commit', async () => {
    const { repo, sha } = await checkout();
    const remote = await bareRemote(dirs);
    const r = await runCli([
      'history',
      'publish',
      '--remote',
      remote,
      '--repo',
      repo,
      '--repo-url',
      'https://github.com/ethersphere/bee-js.git',
      '--workdir',
      join(tempDir('wd', dirs), 'h'),
      '--run-id',
      '7',
      resultsDir(),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const record = (await lsTree(remote)).find((p) => p.startsWith('bench/runs/'))!;
    expect(JSON.parse(await show(remote, record)).commit.url).toBe(`https://github.com/ethersphere/bee-js/commit/${sha}`);
    const series = JSON.parse(await show(remote, 'bench/series/cpu.keccak.chunk-hash.json'));
    expect(series.series[0].points[0].url).toBe(`https://github.com/ethersphere/bee-js/commit/${sha}`);
  });

  it('--default-branch names the branch the site keeps first, however few records it has', async () => {
    const { repo } = await checkout();
    const remote = await bareRemote(dirs);
    const wd = join(tempDir('wd', dirs), 'h');
    let run = 0;
    const publish = (ref: string, extra: string[] = []) =>
      runCli(['history', 'publish', '--remote', remote, '--repo', repo, '--ref', ref, '--workdir', wd, '--run-id', String(++run), ...extra, resultsDir()]);
    for (const ref of ['feature', 'feature', 'main']) expect((await publish(ref)).code).toBe(0);
    // Without the flag the branch with the most records is taken for the default one.
    expect(JSON.parse(await show(remote, 'bench/index.json')).default_branch).toBe('feature');
    const r = await publish('main', ['--default-branch', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(await show(remote, 'bench/index.json')).default_branch).toBe('main');
  });

  it('refuses a commit URL that is not http(s), naming the flag', async () => {
    const { repo } = await checkout();
    const r = await runCli(['history', 'publish', '--remote', await bareRemote(dirs), '--repo', repo, '--commit-url', 'javascript:alert(1)', resultsDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--commit-url javascript:alert\(1\): only http\(s\)/);
  });

  it('commitUrl: as given, or <repository>/commit/<sha>', () => {
    expect(commitUrl('abc1234', { commitUrl: 'https://example.org/c/abc1234' })).toBe('https://example.org/c/abc1234');
    expect(commitUrl('abc1234', { repoUrl: 'https://github.com/o/r/' })).toBe('https://github.com/o/r/commit/abc1234');
    expect(commitUrl('abc1234', {})).toBeUndefined();
    expect(() => commitUrl('abc1234', { repoUrl: 'not a url' })).toThrow(/--repo-url not a url: not a URL/);
  });
});
