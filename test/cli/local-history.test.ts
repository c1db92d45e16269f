// The local path from a run to the trend site: `bee-bench run` keeps each run as a point of
// <out>/history (src/history/publish.ts keepLocally, through the history store's writeFolder),
// `bee-bench site` with no argument serves out/history from the working folder, `history publish`
// prints the next step, and a wrong path or remote is answered in one line naming it and the fix.
// Results are the runners' own files of a real quick run (test/fixtures/results); no runner runs here.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepLocally, localContext, type HistoryIndex } from '../../src/history/index.js';
import { parseResult } from '../../src/spec/load.js';
import { spec } from '../fixtures/spec.js';
import { runCli } from './run-cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RESULTS = join(ROOT, 'test/fixtures/results');
const results = (['js', 'rs'] as const).map((r) => parseResult(`${r}.json`, readFileSync(join(RESULTS, `quick-${r}.json`), 'utf8')));
const tmp = mkdtempSync(join(tmpdir(), 'bee-bench-local-history-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');

/** `bee-bench site` run from `cwd` until it prints its address; then index.json fetched and the server stopped. */
async function siteFrom(cwd: string, args: string[]): Promise<{ url?: string; index?: HistoryIndex; stderr: string; code: number | null }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli.ts'), 'site', '--port', '0', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string | undefined>((done) => {
    const timer = setTimeout(() => done(undefined), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(stdout);
      if (m) {
        clearTimeout(timer);
        done(m[1]);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      done(undefined);
    });
  });
  let index: HistoryIndex | undefined;
  if (url) index = (await (await fetch(`${url}index.json`)).json()) as HistoryIndex;
  const code = await new Promise<number | null>((done) => {
    if (child.exitCode !== null) return done(child.exitCode);
    child.once('exit', (c) => done(c));
    child.kill('SIGINT');
  });
  return { ...(url ? { url } : {}), ...(index ? { index } : {}), stderr, code };
}

describe('the local history of bee-bench run', () => {
  const work = join(tmp, 'checkout');
  const folder = join(work, 'out', 'history');

  it('keeps each run as a point: two runs, two points on every series, one scoreboard entry each', async () => {
    mkdirSync(work, { recursive: true });
    for (const run of ['local-1', 'local-2']) {
      const kept = await keepLocally(results, localContext(work, run), { folder, spec });
      expect(kept.added).toHaveLength(2);
    }
    const index = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as HistoryIndex;
    const series = index.cases.flatMap((c) => c.series);
    expect(series.length).toBeGreaterThan(5);
    for (const s of series) expect(s.points, `${s.runner} ${s.label}`).toBe(2);
    // Outside a git checkout the records say so, on branch "local".
    expect(index.branches.map((b) => (typeof b === 'string' ? b : (b as { name: string }).name))).toContain('local');
    expect(index.scoreboard.map((e) => e.run_id)).toEqual(['local-1', 'local-2']);
  });

  it('`bee-bench site` with no argument serves out/history of the working folder', async () => {
    const served = await siteFrom(work, []);
    expect(served.url, served.stderr).toBeDefined();
    expect(served.stderr).toContain(`serving ${join('out', 'history')} on 127.0.0.1 only`);
    expect(served.index!.cases.length).toBeGreaterThan(0);
  }, 90_000);

  it('without a local history, says where it looked and how to make one, in one line', async () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty, { recursive: true });
    const served = await siteFrom(empty, []);
    expect(served.code).toBe(2);
    expect(lines(served.stderr)).toEqual([
      'bee-bench: no local history in out/history yet: run `npm run main` (or bee-bench run) first, each run adds a point; or give --history DIR (a history folder) or --remote URL|PATH (a repository with the history branch)',
    ]);
  }, 90_000);
});

describe('history publish and its remote', () => {
  const bare = join(tmp, 'bench-history.git');
  const repo = join(tmp, 'repo');

  it('prints the next step after publishing to a bare repository, and site --remote serves it', async () => {
    execFileSync('git', ['init', '-q', '--bare', bare]);
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, 'a'), 'a\n');
    execFileSync('git', ['-C', repo, 'add', 'a']);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'a']);
    const r = await runCli(['history', 'publish', '--remote', bare, '--repo', repo, '--workdir', join(tmp, 'wd'), join(RESULTS, 'quick-js.json')]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stderr).at(-1)).toBe(
      `next: npx bee-bench site --remote ${bare} (the trend site over branch gh-pages; on GitHub, Pages can serve that branch)`,
    );
    const served = await siteFrom(tmp, ['--remote', bare]);
    expect(served.index!.cases.length).toBeGreaterThan(0);
  }, 120_000);

  it('names a missing folder, a folder that is no repository and a missing branch, each with its fix, in one line', async () => {
    const missing = join(tmp, 'nope');
    const r = await runCli(['history', 'publish', '--remote', missing, '--repo', repo, join(RESULTS, 'quick-js.json')]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      `bee-bench: --remote ${missing}: no such folder; make a history repository there with \`git init --bare ${missing}\`, then \`bee-bench history publish --remote ${missing} out/results\`; see bee-bench history publish --help`,
    ]);
    const plain = join(tmp, 'plain');
    mkdirSync(plain, { recursive: true });
    const notRepo = await siteFrom(tmp, ['--remote', plain]);
    expect(lines(notRepo.stderr)).toEqual([
      `bee-bench: --remote ${plain}: not a git repository; give a repository (make one with \`git init --bare ${plain}\`)`,
    ]);
    const noBranch = await siteFrom(tmp, ['--remote', bare, '--history-branch', 'pages']);
    expect(lines(noBranch.stderr)).toEqual([
      `bee-bench: --remote ${bare}: no branch pages here yet; publish to it first with \`bee-bench history publish --remote ${bare} out/results\` (or name another with --history-branch)`,
    ]);
    expect(notRepo.stderr + noBranch.stderr).not.toMatch(/fatal:|Cloning/);
  }, 120_000);
});
