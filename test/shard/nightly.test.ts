// The sharded nightly, driven locally as far as it is not GitHub itself: build once, plan four
// shards, run each with the prebuilt runners, merge, publish the merged run to a bare gh-pages
// remote. The merged rows and digests must equal one unsharded run's; a lost shard is named.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { loadResult } from '../../src/spec/load.js';
import type { Result } from '../../src/spec/schema.js';
import { testClients } from '../clients.js';

const RUNNERS = testClients()
  .tested.map((c) => c.runner)
  .join(',');
const work = mkdtempSync(join(tmpdir(), 'bee-bench-nightly-'));
const cache = join(work, 'cache');
const select = ['--runner', RUNNERS, '--size', 'quick', '--case', 'cpu.*'];
const saved = process.env.BEE_BENCH_ITERS;

const cli = runCli;

/** (runner, case, param) -> digest (or status when none), the comparison the issue asks for. */
const rows = (results: Result[]) =>
  Object.fromEntries(results.flatMap((r) => r.cases.map((c) => [`${r.runner} ${c.id} ${String(c.param.label)}`, c.digest ?? c.status])).sort());
const resultsIn = (dir: string) => RUNNERS.split(',').map((r) => loadResult(join(dir, 'results', `${r}.json`)));

describe('the sharded nightly, locally', { timeout: 1_800_000 }, () => {
  const shardDirs = [1, 2, 3, 4].map((k) => join(work, `shard-${k}`));
  beforeAll(async () => {
    // Digests and row sets do not depend on iteration counts; keep the suite short.
    process.env.BEE_BENCH_ITERS = '1';
    const build = await cli(['build', '--runner', RUNNERS, '--cache', cache]);
    expect(build.code, build.stderr).toBe(0);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.BEE_BENCH_ITERS;
    else process.env.BEE_BENCH_ITERS = saved;
    rmSync(work, { recursive: true, force: true });
  });

  it('merges four prebuilt shards into the rows and digests of one run, and publishes them', async () => {
    const assignment = join(work, 'shards.json');
    const plan = await cli(['plan', '--shards', '4', ...select, '--assignment', assignment]);
    expect(plan.code, plan.stderr).toBe(0);
    const matrix = JSON.parse(plan.stdout) as { include: Array<{ shard: string }> };
    expect(matrix.include.map((m) => m.shard)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    for (const [i, m] of matrix.include.entries()) {
      const shard = await cli(['run', '--shard', m.shard, ...select, '--assignment', assignment, '--prebuilt', '--cache', cache, '--out', shardDirs[i]!]);
      expect(shard.code, shard.stderr).toBe(0);
    }
    const merged = await cli(['merge', '--out', join(work, 'merged'), ...shardDirs]);
    expect(merged.code, merged.stderr).toBe(0);
    const whole = await cli(['run', ...select, '--cache', cache, '--out', join(work, 'whole')]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(rows(resultsIn(join(work, 'merged')))).toEqual(rows(resultsIn(join(work, 'whole'))));
    expect(readFileSync(join(work, 'merged', 'report.md'), 'utf8')).toMatch(/## Shards[\s\S]*\| 4\/4 \|/);

    // The publish job: the merged results appended to a gh-pages branch.
    const remote = join(work, 'pages.git');
    execFileSync('git', ['init', '--bare', '-q', remote]);
    const repo = join(work, 'repo');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'x'), 'x');
    git('add', '.');
    git('commit', '-q', '-m', 'nightly');
    const published = await cli([
      'history',
      'publish',
      '--remote',
      remote,
      '--repo',
      repo,
      '--workdir',
      join(work, 'wd'),
      '--run-id',
      '7',
      '--event',
      'schedule',
      join(work, 'merged', 'results'),
    ]);
    expect(published.code, published.stderr).toBe(0);
    const files = execFileSync('git', ['-C', remote, 'ls-tree', '-r', '--name-only', 'gh-pages'], { encoding: 'utf8' }).split('\n');
    for (const r of RUNNERS.split(','))
      expect(
        files.some((f) => f.startsWith('bench/runs/') && f.endsWith(`-${r}-7.json`)),
        r,
      ).toBe(true);
  });

  it('names a lost shard and its rows and exits 1', async () => {
    const lost = shardDirs.slice(0, 3);
    const merged = await cli(['merge', '--out', join(work, 'partial'), ...lost]);
    expect(merged.code).toBe(1);
    expect(merged.stderr).toMatch(/shard 4\/4 has no output/);
    type Pieces = Array<{ evidence: string; case: string; runners: string[] }>;
    const assignment = JSON.parse(readFileSync(join(shardDirs[0]!, 'shard.json'), 'utf8')).assignment as { shards: Array<{ index: number; pieces: Pieces }> };
    const pieces = assignment.shards.find((s) => s.index === 4)!.pieces;
    expect(pieces.length).toBeGreaterThan(0);
    for (const p of pieces) for (const r of p.runners) expect(merged.stderr).toContain(`missing shard 4 (no output): ${p.evidence} ${r} ${p.case} `);
    expect(readFileSync(join(work, 'partial', 'report.md'), 'utf8')).toMatch(/\*\*no output\*\*/);
  });
});
